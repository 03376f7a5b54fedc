/**
 * One rule for every name a person types (player display name, bank account name, and
 * the account name staff type when they replace a player's account): decision record
 * docs/decisions/013-names-and-bank-replacement.md.
 *
 * Refused: C0 and C1 control characters (a NUL in an account name makes every payout
 * fail at the bank), the line/paragraph separators, and every bidirectional formatting
 * character (embeddings, overrides, isolates and the invisible direction marks): none of
 * them is part of a Lao, Chinese or Vietnamese name, and they make a name read differently
 * in the back office from what is stored.
 *
 * Removed: zero-width characters. Lao text carries U+200B as a word-break hint (Lao is
 * written without spaces), so refusing it would refuse names pasted from Lao documents;
 * it is invisible, so removing it changes nothing a person sees. Then NFC (a Vietnamese
 * name typed with combining marks equals the precomposed one) and trim.
 */

/** C0, DEL, C1, ALM, LRM/RLM, LS/PS, LRE/RLE/PDF/LRO/RLO, LRI/RLI/FSI/PDI. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is this rule's point
const REFUSED = /[\u0000-\u001F\u007F-\u009F\u061C\u200E\u200F\u2028\u2029\u202A-\u202E\u2066-\u2069]/u;
/** ZWSP, ZWNJ, ZWJ, WORD JOINER, BOM / ZWNBSP. */
// biome-ignore lint/suspicious/noMisleadingCharacterClass: the zero-width characters are listed one by one on purpose, never combined
const ZERO_WIDTH = /[\u200B\u200C\u200D\u2060\uFEFF]/gu;

export type NameCheck = { ok: true; value: string } | { ok: false; error: "NAME_CHARACTERS" };

export function cleanName(raw: string): NameCheck {
  if (REFUSED.test(raw)) return { ok: false, error: "NAME_CHARACTERS" };
  return { ok: true, value: raw.replace(ZERO_WIDTH, "").normalize("NFC").trim() };
}
