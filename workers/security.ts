/**
 * Security headers for every response, and the cross-site request check that protects
 * every non-GET request (forms without JavaScript included) on top of SameSite=Lax cookies.
 */

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export function createNonce(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return btoa(String.fromCharCode(...bytes));
}

/**
 * A state-changing request must come from our own origin. Browsers send Origin on every
 * POST; when it is absent we fall back to Referer, then to Sec-Fetch-Site. A client that
 * sends none of them is not a browser and so cannot carry a victim's cookies.
 */
export function isCrossSiteRequest(request: Request): boolean {
  if (SAFE_METHODS.has(request.method)) return false;
  const own = new URL(request.url);
  const origin = request.headers.get("Origin");
  if (origin !== null) return !sameOrigin(origin, own);
  const referer = request.headers.get("Referer");
  if (referer) return !sameOrigin(referer, own);
  const site = request.headers.get("Sec-Fetch-Site");
  return site !== null && site !== "same-origin" && site !== "none";
}

function sameOrigin(value: string, own: URL): boolean {
  try {
    const url = new URL(value);
    return url.protocol === own.protocol && url.host === own.host;
  } catch {
    return false; // "null" or garbage
  }
}

/**
 * Hosts the agency's configured game providers need (decision 017): game pictures
 * (img-src) and launch hosts (form-action: the lobby's launch is a form post answered by a
 * redirect to the provider, and form-action governs that redirect). Origins only.
 */
export type ProviderSources = { img: readonly string[]; launch: readonly string[] };

const ORIGIN = /^https?:\/\/[a-z0-9.-]+(:\d{1,5})?$/;

function sources(list: readonly string[] | undefined): string {
  // An origin only: nothing that could close the directive or add a keyword.
  return (list ?? [])
    .filter((o) => ORIGIN.test(o))
    .map((o) => ` ${o}`)
    .join("");
}

function contentSecurityPolicy(nonce: string, { dev, providers }: { dev: boolean; providers?: ProviderSources }): string {
  return [
    "default-src 'self'",
    `script-src 'nonce-${nonce}' 'strict-dynamic'`,
    // Inline style attributes only (no inline scripts); the stylesheet is a file.
    "style-src 'self' 'unsafe-inline'",
    `img-src 'self' data:${sources(providers?.img)}`,
    "font-src 'self'",
    dev ? "connect-src 'self' ws: wss:" : "connect-src 'self'",
    // The service worker (/sw.js, decision 028). Without it the worker would fall back to
    // script-src, whose nonce a worker script cannot carry.
    "worker-src 'self'",
    `form-action 'self'${sources(providers?.launch)}`,
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "object-src 'none'",
  ].join("; ");
}

export function withSecurityHeaders(response: Response, nonce: string, options: { dev: boolean; providers?: ProviderSources }): Response {
  // Responses from fetch() or static assets can be immutable: copy before touching headers.
  const secured = new Response(response.body, response);
  const headers = secured.headers;
  if (!headers.has("Content-Security-Policy")) headers.set("Content-Security-Policy", contentSecurityPolicy(nonce, options));
  headers.set("Strict-Transport-Security", "max-age=63072000; includeSubDomains");
  headers.set("X-Content-Type-Options", "nosniff");
  headers.set("Referrer-Policy", "strict-origin-when-cross-origin");
  headers.set("X-Frame-Options", "DENY");
  headers.set("Permissions-Policy", "camera=(), microphone=(), geolocation=()");
  return secured;
}
