/**
 * The agency is chosen by the Host header. Normalise it the way a domain table is
 * keyed: lower case, no port, no trailing dot. IPv6 literals keep their brackets.
 */
export function normalizeHost(hostHeader: string | null | undefined): string | null {
  if (!hostHeader) return null;
  let host = hostHeader.trim().toLowerCase();
  if (host === "") return null;
  if (host.startsWith("[")) {
    const end = host.indexOf("]");
    if (end === -1) return null;
    return host.slice(0, end + 1);
  }
  const colon = host.indexOf(":");
  if (colon !== -1) host = host.slice(0, colon);
  if (host.endsWith(".")) host = host.slice(0, -1);
  if (!/^[a-z0-9.-]+$/.test(host)) return null;
  return host;
}

/**
 * The URL the browser asked for, when `wrangler dev` rewrote it (tests/integration/link-origin.test.ts): with routes in the
 * environment (`wrangler dev --env <agency>`), wrangler dev sends every request to the first
 * route's host as its "upstream", so the Worker sees `http://<route host>/...` without the
 * port the browser used, and keeps the browser's host in `MF-Original-Hostname`. Every link
 * a page prints is built from the request's URL (forwarder URL, enrolment links, referral
 * link, link previews), and the cross-site check compares the browser's Origin with it, so
 * the URL is put back once, at the Worker entry.
 *
 * Taken only for plain http and only for the same host name (a port of its own, nothing
 * else): a deployed agency is reached over https, where the header is ignored, and a client
 * sending it can at most move a link of its own page to another port of the same host.
 */
export function browserUrl(url: string, originalHost: string | null): string {
  if (!originalHost || !/^[a-z0-9.-]+(:\d{1,5})?$/i.test(originalHost)) return url;
  const parsed = new URL(url);
  if (parsed.protocol !== "http:" || normalizeHost(originalHost) !== normalizeHost(parsed.host) || parsed.host === originalHost.toLowerCase()) return url;
  parsed.host = originalHost;
  return parsed.href;
}
