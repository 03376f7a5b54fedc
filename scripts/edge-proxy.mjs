// A local stand-in for the edge's compression, in front of `vite preview` (which sends every
// body uncompressed): what a phone downloads from Cloudflare is brotli (or gzip) for text and
// the bytes as they are for images and fonts. Used by `npm run lighthouse` (a real HTTP proxy)
// and by the byte budgets (tests/e2e/budgets.spec.ts, scripts/bench.mjs: `edgeSize`), so the
// figures of all three follow one policy. Decision: docs/decisions/023-performance-budgets.md.
import { createHash } from "node:crypto";
import { createServer, request as httpRequest } from "node:http";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";

/**
 * The content types the edge compresses (Cloudflare's list, trimmed to what the portal sends).
 * Images (PNG, WebP, AVIF, JPEG) and woff2 fonts are already compressed: passed through.
 */
const COMPRESSIBLE = /^(text\/|application\/(javascript|json|xml|manifest\+json|x-javascript)|image\/svg\+xml|image\/x-icon)/;

/**
 * Fixed qualities so every figure is reproducible: hashed build assets (`/assets/*`, immutable)
 * are compressed once and cached at the edge, so they get brotli's best (11); responses the
 * Worker renders per request (HTML, JSON, brand files) are compressed on the fly, where an
 * edge uses a fast level (brotli 5, gzip 6).
 */
export const QUALITY = { static: { brotli: 11, gzip: 9 }, dynamic: { brotli: 5, gzip: 6 } };

/** @param {string | null | undefined} contentType */
export function isCompressible(contentType) {
  return COMPRESSIBLE.test((contentType ?? "").toLowerCase());
}

/** @param {string} path */
function qualityFor(path) {
  return path.startsWith("/assets/") ? QUALITY.static : QUALITY.dynamic;
}

/**
 * @param {Buffer} body
 * @param {"br" | "gzip"} encoding
 * @param {string} path the URL path (decides the quality, see QUALITY)
 */
export function compress(body, encoding, path) {
  const q = qualityFor(path);
  if (encoding === "br") {
    return brotliCompressSync(body, {
      params: { [constants.BROTLI_PARAM_QUALITY]: q.brotli, [constants.BROTLI_PARAM_SIZE_HINT]: body.length },
    });
  }
  return gzipSync(body, { level: q.gzip });
}

/**
 * Bytes a phone downloads for one response body served by the edge with brotli accepted
 * (every browser the portal supports sends `br`): brotli for text, the body itself otherwise.
 * @param {Buffer} body
 * @param {string | null | undefined} contentType
 * @param {string} path
 */
export function edgeSize(body, contentType, path) {
  return isCompressible(contentType) && body.length > 0 ? compress(body, "br", path).length : body.length;
}

/** @param {string | undefined} acceptEncoding @returns {"br" | "gzip" | null} */
function pickEncoding(acceptEncoding) {
  const accepted = (acceptEncoding ?? "")
    .split(",")
    .map((part) => part.trim().split(";"))
    .filter(([, q]) => !q || Number(q.split("=")[1]) > 0)
    .map(([name]) => name.toLowerCase());
  if (accepted.includes("br")) return "br";
  if (accepted.includes("gzip")) return "gzip";
  return null;
}

/**
 * Starts the proxy: http://localhost:<port> forwards to `target` (Host header kept, so the
 * portal sees the agency the browser asked for) and compresses on the way back.
 * @param {{ target: string, port?: number }} options port 0 (default) picks a free port
 * @returns {Promise<{ url: string, port: number, close: () => Promise<void> }>}
 */
export async function startEdgeProxy({ target, port = 0 }) {
  const upstream = new URL(target);
  /** Compressed immutable assets, by encoding + content hash (they never change under a name). */
  const cache = new Map();
  const server = createServer((req, res) => {
    const headers = { ...req.headers };
    // The proxy, like the edge, asks the origin for identity bodies and compresses itself.
    delete headers["accept-encoding"];
    const out = httpRequest({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers }, (up) => {
      const chunks = [];
      up.on("data", (c) => chunks.push(c));
      up.on("error", () => res.destroy());
      up.on("end", () => {
        const body = Buffer.concat(chunks);
        const responseHeaders = { ...up.headers };
        const encoding = pickEncoding(req.headers["accept-encoding"]);
        const path = (req.url ?? "/").split("?")[0];
        if (encoding && body.length > 0 && !up.headers["content-encoding"] && isCompressible(up.headers["content-type"]) && req.method !== "HEAD") {
          const key = path.startsWith("/assets/") ? `${encoding}:${createHash("sha1").update(body).digest("hex")}` : null;
          const packed = (key && cache.get(key)) ?? compress(body, encoding, path);
          if (key) cache.set(key, packed);
          responseHeaders["content-encoding"] = encoding;
          responseHeaders["content-length"] = String(packed.length);
          responseHeaders.vary = up.headers.vary ? `${up.headers.vary}, Accept-Encoding` : "Accept-Encoding";
          delete responseHeaders["transfer-encoding"];
          res.writeHead(up.statusCode ?? 502, responseHeaders);
          res.end(packed);
          return;
        }
        delete responseHeaders["transfer-encoding"];
        if (req.method !== "HEAD") responseHeaders["content-length"] = String(body.length);
        res.writeHead(up.statusCode ?? 502, responseHeaders);
        res.end(body);
      });
    });
    out.on("error", (error) => {
      res.writeHead(502, { "content-type": "text/plain" });
      res.end(`edge proxy: ${error.message}`);
    });
    req.pipe(out);
  });
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    // Every address (IPv4 and IPv6): `localhost` may resolve to either.
    server.listen(port, () => resolve(undefined));
  });
  const address = server.address();
  const actualPort = typeof address === "object" && address ? address.port : port;
  return {
    url: `http://localhost:${actualPort}`,
    port: actualPort,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
