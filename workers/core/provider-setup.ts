import type { Provider } from "./providers";

/**
 * Pure rules of an agency's provider setup (decision 017): which adapter reaches a game
 * provider, what each adapter needs, which URLs are acceptable, which hosts the
 * Content-Security-Policy admits, and whose transfer a reference is.
 */

export const PROVIDER_ADAPTERS = ["sandbox", "amb", "betflix", "disabled"] as const;
export type ProviderAdapterKind = (typeof PROVIDER_ADAPTERS)[number];

function isProviderAdapterKind(value: unknown): value is ProviderAdapterKind {
  return typeof value === "string" && (PROVIDER_ADAPTERS as readonly string[]).includes(value);
}

/** Providers with no public API of their own: reached through AMB or Betflix by product code, or disabled. */
export const NO_PUBLIC_API: readonly Provider[] = ["gclub", "gclub_live", "alphabet"];

/** A provider's stored setup (credentials apart: they are sealed and never part of it). */
export type ProviderSetup = {
  provider: Provider;
  adapter: ProviderAdapterKind;
  baseUrl: string | null;
  productCode: string | null;
  /** Betflix's game entrance (lobby login, games_share). */
  lobbyUrl: string | null;
  /** Where game pictures live (AMB's `img` host, Betflix's image host). */
  imageUrl: string | null;
  /**
   * Betflix: the agent prefix Betflix puts before member names (optional, decision 048).
   * Only finds members that have no kept name; the name Betflix answers wins.
   */
  memberPrefix: string | null;
  createdAt: string;
};

/** Environments where the sandbox may be chosen and http URLs are accepted (as workers/config.ts's list). */
export function isLocalEnvironment(name: string | undefined): boolean {
  return name === "local" || name === "development" || name === "test";
}

/** The associated data sealing a provider's credentials to their row (services/agency/admin-settings.ts seals with the same). */
export function providerCredentialsAad(agencyId: string, provider: string): string {
  return `provider_credentials:${agencyId}:${provider}`;
}

/** The adapters an owner may choose here: the sandbox only in a local environment. */
export function adaptersOffered(local: boolean): ProviderAdapterKind[] {
  return PROVIDER_ADAPTERS.filter((a) => a !== "sandbox" || local);
}

export type SetupProblem =
  | { code: "PROVIDER_ADAPTER_INVALID"; field: "adapter" }
  | { code: "PROVIDER_URL_INVALID"; field: "baseUrl" | "lobbyUrl" | "imageUrl" }
  | { code: "PROVIDER_URL_HTTPS"; field: "baseUrl" | "lobbyUrl" | "imageUrl" }
  | { code: "PROVIDER_PRODUCT_REQUIRED"; field: "productCode" }
  | { code: "PROVIDER_PRODUCT_INVALID"; field: "productCode" }
  | { code: "PROVIDER_PREFIX_INVALID"; field: "memberPrefix" };

/**
 * A URL as stored: an origin plus an optional path, no query, fragment or credentials;
 * https outside local environments. Returns the normalised text (no trailing slash).
 */
export function checkProviderUrl(text: string, local: boolean): { ok: true; url: string } | { ok: false; problem: "invalid" | "https" } {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return { ok: false, problem: "invalid" };
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return { ok: false, problem: "invalid" };
  if (url.username || url.password || url.search || url.hash) return { ok: false, problem: "invalid" };
  if (url.protocol === "http:" && !local) return { ok: false, problem: "https" };
  return { ok: true, url: `${url.origin}${url.pathname}`.replace(/\/+$/, "") };
}

const PRODUCT_CODE = /^[A-Za-z0-9_.-]{1,40}(,[A-Za-z0-9_.-]{1,40}){0,39}$/;
/**
 * Betflix prefixes seen in public clients are short letters and digits ("be31kk", "bjm1";
 * workers/ports/providers/betflix.ts [BFP], [OAK]); 12 leaves room for longer ones.
 */
const MEMBER_PREFIX = /^[A-Za-z0-9]{1,12}$/;

/** Validates what an adapter needs; null when the setup is acceptable. */
export function setupProblem(
  input: {
    adapter: string;
    baseUrl: string | null;
    productCode: string | null;
    lobbyUrl: string | null;
    imageUrl: string | null;
    memberPrefix?: string | null;
  },
  local: boolean,
): SetupProblem | null {
  if (!isProviderAdapterKind(input.adapter) || !adaptersOffered(local).includes(input.adapter)) return { code: "PROVIDER_ADAPTER_INVALID", field: "adapter" };
  if (input.adapter === "sandbox" || input.adapter === "disabled") return null;
  for (const field of ["baseUrl", "lobbyUrl", "imageUrl"] as const) {
    const value = input[field];
    if (value === null) {
      if (field === "baseUrl" || (field === "lobbyUrl" && input.adapter === "betflix")) return { code: "PROVIDER_URL_INVALID", field };
      continue;
    }
    const checked = checkProviderUrl(value, local);
    if (!checked.ok) return { code: checked.problem === "https" ? "PROVIDER_URL_HTTPS" : "PROVIDER_URL_INVALID", field };
  }
  if (input.adapter === "amb" && !input.productCode) return { code: "PROVIDER_PRODUCT_REQUIRED", field: "productCode" };
  if (input.productCode !== null && !PRODUCT_CODE.test(input.productCode)) return { code: "PROVIDER_PRODUCT_INVALID", field: "productCode" };
  if (input.memberPrefix && (input.adapter !== "betflix" || !MEMBER_PREFIX.test(input.memberPrefix)))
    return { code: "PROVIDER_PREFIX_INVALID", field: "memberPrefix" };
  return null;
}

function originOf(url: string | null): string | null {
  if (!url) return null;
  try {
    const parsed = new URL(url);
    return parsed.protocol === "https:" || parsed.protocol === "http:" ? parsed.origin : null;
  } catch {
    return null;
  }
}

/**
 * What the Content-Security-Policy admits for an agency's configured providers: game
 * pictures from the image host (AMB: the image URL; Betflix: the image URL, else its
 * entrance, where games_share pictures live), and the launch hosts known in advance as
 * form targets (the lobby's launch is a form post answered by a redirect to the provider,
 * which form-action governs): Betflix's entrance. AMB's launch URL comes back from logIn and
 * is not known in advance: its host must be entered as the lobby URL to be admitted.
 * The sandbox and disabled providers add nothing (the sandbox is served under our origin).
 */
export function providerCspSources(setups: readonly ProviderSetup[]): { img: string[]; launch: string[] } {
  const img = new Set<string>();
  const launch = new Set<string>();
  for (const s of setups) {
    if (s.adapter !== "amb" && s.adapter !== "betflix") continue;
    const image = originOf(s.imageUrl) ?? (s.adapter === "betflix" ? originOf(s.lobbyUrl) : null);
    if (image) img.add(image);
    const lobby = originOf(s.lobbyUrl);
    if (lobby) launch.add(lobby);
  }
  return { img: [...img].sort(), launch: [...launch].sort() };
}

/**
 * Whose transfer a provider reference is (decision 017). References are our order codes:
 * deposits `D` + 11 characters, withdrawals `W` + 11; a settlement retried by staff
 * `<code>-<n>`, a deposit's bonus leg `<code>B`, a withdrawal's credit return `<code>R`.
 * Everything credited to the provider (deposits, bonuses, returns) is "in"; only a
 * withdrawal's own code is "out". The code's date (YYMMDD after the letter) places the
 * transfer in time for providers that search a history by dates.
 */
export type ReferenceOrder = { kind: "deposit" | "withdraw"; code: string; direction: "in" | "out"; day: number };

export function referenceOrder(reference: string): ReferenceOrder | null {
  const match = /^([DW])(\d{2})(\d{2})(\d{2})([0-9A-Z]{5})(B|R|-\d{1,4})?$/.exec(reference);
  if (!match) return null;
  const [, letter, yy, mm, dd, , suffix] = match;
  const kind = letter === "D" ? "deposit" : "withdraw";
  if (kind === "deposit" && suffix === "R") return null;
  if (kind === "withdraw" && (suffix === "B" || suffix?.startsWith("-"))) return null;
  const day = Date.UTC(2000 + Number(yy), Number(mm) - 1, Number(dd));
  if (Number.isNaN(day)) return null;
  const direction = kind === "withdraw" && suffix === undefined ? "out" : "in";
  return { kind, code: reference.slice(0, 12), direction, day };
}
