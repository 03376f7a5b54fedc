import type { Provider } from "./providers";

/**
 * A player's username at a game provider: pure functions, no I/O.
 *
 * Two formats:
 * - legacy `agencyId_username` (what players have today, workers/ports/provider.ts
 *   providerUsername): kept wherever it satisfies the provider's rule;
 * - derived `prefix + id`: a short agency prefix plus a fixed-length base-36 digest of the
 *   player's id (the players.id UUID), for providers whose rule the legacy name breaks
 *   (underscore, length). Derived names never contain "_", so they can never equal a
 *   legacy name.
 *
 * The digest is deterministic, so the same player always gets the same name, but a pure
 * function cannot prove uniqueness: whoever first uses a derived name should store it per
 * player and provider and refuse a second player with the same one (collision odds: one in
 * 36^k per pair, k = 8..12 characters here).
 *
 * Rules per provider (sources, or the conservative choice made when none was found):
 * - askmebet (AMB Super API): no public rule for Super API member names. An older AMB
 *   product's client states "English letters and number (No special characters) min: 5
 *   max: 22" (github.com/wendell1101/t1softxxx
 *   submodules/game-lib/game_platform/abstract_game_api_common_amb_seamless.php) and public
 *   Super API clients lower-case the name before logIn (a Go client, search index id
 *   9231660951). Chosen: [a-z0-9], 5..20.
 * - betflix: Betflix puts the agent's upline before the name ([OAK] in
 *   workers/ports/providers/betflix.ts: `$this->agent.$username`); a public client skips
 *   any candidate longer than 20 characters including the upline and site prefix (search
 *   index id 6930066870, "BetflixProvider.register"), and its uplines are 4-6 characters
 *   (e.g. "be31kk"). Chosen: [a-z0-9], 5..14, so that an upline of up to 6 still fits 20.
 * - gclub, gclub_live, alphabet: no public API found (OUTSIDE.md). Chosen, conservatively:
 *   [a-z0-9], 5..12.
 * - the sandbox provider (our own Worker): [a-z0-9_-], 1..64: every legacy name fits.
 */
export type UsernameRule = {
  pattern: RegExp;
  min: number;
  max: number;
  /** Characters of the agency id kept in a derived name. */
  prefixMax: number;
};

export const PROVIDER_USERNAME_RULES: Record<Provider, UsernameRule> = {
  askmebet: { pattern: /^[a-z0-9]+$/, min: 5, max: 20, prefixMax: 6 },
  betflix: { pattern: /^[a-z0-9]+$/, min: 5, max: 14, prefixMax: 4 },
  gclub: { pattern: /^[a-z0-9]+$/, min: 5, max: 12, prefixMax: 3 },
  gclub_live: { pattern: /^[a-z0-9]+$/, min: 5, max: 12, prefixMax: 3 },
  alphabet: { pattern: /^[a-z0-9]+$/, min: 5, max: 12, prefixMax: 3 },
};

export const SANDBOX_USERNAME_RULE: UsernameRule = { pattern: /^[a-z0-9_-]+$/, min: 1, max: 64, prefixMax: 8 };

/** Digest characters at most: 36^12 ≈ 2^62, about the randomness of a UUID's low 64 bits. */
const MAX_DIGEST = 12;

/** Today's format (workers/ports/provider.ts): `agencyId_username`. */
export function legacyProviderUsername(agencyId: string, username: string): string {
  return `${agencyId}_${username}`;
}

export function fitsUsernameRule(name: string, rule: UsernameRule): boolean {
  return name.length >= rule.min && name.length <= rule.max && rule.pattern.test(name);
}

/**
 * `prefix + digest`: the agency id reduced to [a-z0-9] and cut to the rule's prefix length
 * ("p" if nothing is left), then base-36 digits of a 64-bit FNV-1a digest of the player id,
 * as many as fit (at most 12). Lower-case letters and digits only, so it fits every rule.
 */
export function derivedProviderUsername(rule: UsernameRule, agencyId: string, playerId: string): string {
  const prefix =
    agencyId
      .toLowerCase()
      .replace(/[^a-z0-9]/g, "")
      .slice(0, rule.prefixMax) || "p";
  const digestLength = Math.min(MAX_DIGEST, rule.max - prefix.length);
  if (digestLength < 1) throw new Error("username rule leaves no room for the player id");
  const digits = fnv1a64(playerId).toString(36).padStart(13, "0");
  const name = prefix + digits.slice(digits.length - digestLength);
  if (!fitsUsernameRule(name, rule)) throw new Error("derived provider username breaks the rule");
  return name;
}

/**
 * The name to use at a provider: the legacy `agencyId_username` when it fits the rule
 * (existing players keep their name), else the derived one.
 */
export function providerUsernameFor(
  provider: Provider | UsernameRule,
  player: { agencyId: string; username: string; playerId: string },
): { name: string; format: "legacy" | "derived" } {
  const rule = typeof provider === "string" ? PROVIDER_USERNAME_RULES[provider] : provider;
  const legacy = legacyProviderUsername(player.agencyId, player.username);
  if (fitsUsernameRule(legacy, rule)) return { name: legacy, format: "legacy" };
  return { name: derivedProviderUsername(rule, player.agencyId, player.playerId), format: "derived" };
}

/** 64-bit FNV-1a over the UTF-8 bytes of the text. */
function fnv1a64(text: string): bigint {
  let hash = 0xcbf29ce484222325n;
  for (const byte of new TextEncoder().encode(text)) {
    hash ^= BigInt(byte);
    hash = (hash * 0x100000001b3n) & 0xffffffffffffffffn;
  }
  return hash;
}
