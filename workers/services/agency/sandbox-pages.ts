import { hasActiveSandboxChannel } from "../../db/payments";

/**
 * The sandbox bank's pay page, the sandbox provider's game page and the sandbox Telegram's
 * messages page, under the portal's own host (the sandboxes are reachable only by service
 * binding). Answers only for an agency whose payment channel is the sandbox gateway, i.e.
 * the demo agency locally and in tests; a real agency gets 404.
 */
export async function forwardToSandbox(env: Env, agencyId: string, targetName: string, request: Request): Promise<Response> {
  if (!(await hasActiveSandboxChannel(env.DB, agencyId))) return new Response("Not found", { status: 404 });
  const target = sandboxOf(env, targetName);
  if (!target) return new Response("Not found", { status: 404 });
  const url = new URL(request.url);
  const page = sandboxPage(targetName, url.pathname, request.method);
  if (!page) return new Response("Not found", { status: 404 });
  const upstream = await target.fetch(`http://sandbox-${targetName}${page}${url.search}`, {
    method: request.method,
    headers: { "Content-Type": request.headers.get("Content-Type") ?? "" },
    body: request.method === "GET" || request.method === "HEAD" ? undefined : await request.arrayBuffer(),
    redirect: "manual",
  });
  const headers = new Headers(upstream.headers);
  const location = headers.get("Location");
  // The sandbox pages use relative links; keep absolute ones inside this proxy.
  if (location?.startsWith("/")) headers.set("Location", `/sandbox/${targetName}${location}`);
  return new Response(upstream.body, { status: upstream.status, headers });
}

/** The sandbox Worker behind `/sandbox/<target>`, when its binding exists (local and tests only). */
function sandboxOf(env: Env, targetName: string): Fetcher | null | undefined {
  if (targetName === "bank") return env.SANDBOX_BANK;
  if (targetName === "provider") return env.SANDBOX_PROVIDER;
  if (targetName === "telegram") return env.SANDBOX_TELEGRAM;
  return null;
}

/**
 * The pages a player or tester opens through the portal (docs/sandbox-bank.md "How a tester
 * completes a payout", docs/sandbox-provider.md's game page, docs/sandbox-telegram.md's
 * messages page), and nothing else: never the sandboxes' APIs (agent and merchant
 * credentials, the Bot API with its token) nor their controls (payout lists, wallets, faults,
 * messages as JSON, reset), which tests reach on the sandboxes themselves.
 */
const SANDBOX_PAGES: Record<string, { path: RegExp; methods: string[] }[]> = {
  bank: [
    { path: /^\/$/, methods: ["GET", "HEAD"] },
    { path: /^\/(pay|payouts)$/, methods: ["GET", "HEAD", "POST"] },
  ],
  provider: [
    { path: /^\/play\/[a-z_]{1,32}$/, methods: ["GET", "HEAD", "POST"] },
    { path: /^\/img\/[a-z0-9-]{1,64}\.webp$/, methods: ["GET", "HEAD"] },
  ],
  telegram: [{ path: /^\/$/, methods: ["GET", "HEAD"] }],
};

/**
 * The sandbox path a request may reach, or null. The raw path is decoded until it no longer
 * changes (`%252f` is `%2f` is `/`), its dot segments resolved, and only then compared with
 * the allow-list, so `x/..%2fsandbox/payouts` is `/sandbox/payouts` and refused.
 */
function sandboxPage(target: string, rawPathname: string, method: string): string | null {
  const prefix = `/sandbox/${target}`;
  const pages = SANDBOX_PAGES[target];
  if (!pages || (!rawPathname.startsWith(`${prefix}/`) && rawPathname !== prefix)) return null;
  let path = rawPathname.slice(prefix.length) || "/";
  for (let round = 0; ; round++) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(path);
    } catch {
      return null;
    }
    if (decoded === path) break;
    if (round === 3) return null;
    path = decoded;
  }
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters (and backslashes) is the point
  if (/[\\\u0000-\u001f\u007f]/.test(path)) return null;
  // (concatenated, not resolved against a base: `//host/x` must stay a path)
  const resolved = new URL(`http://sandbox${path}`).pathname;
  return pages.some((page) => page.path.test(resolved) && page.methods.includes(method)) ? resolved : null;
}
