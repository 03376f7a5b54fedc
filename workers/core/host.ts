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
