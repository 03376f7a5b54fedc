import { crc16, parseFields } from "./emvco";

/**
 * BCEL One's transfer slip QR ("OneProof"), read from the text a slip's QR carries.
 *
 * Where the shape comes from: no bank document is public. The public Thai/Lao QR library
 * maythiwat/promptparse reads it in `src/validate/BCELOneProof.ts`: the EMVCo TLV form LAO QR
 * uses (00 = "01" payload format, 01 = "11", CRC-16/CCITT-FALSE in 63 over the text up to and
 * including "6304", parsed strictly: a CRC that does not hold is refused), with a template in
 * tag 33 whose 00 is "BCEL" or "ONEPROOF" (the library accepts either), 02 a type, 03 the ticket
 * number and 04 the "FCC reference" (the bank's reference of the transfer; ../shared/OUTSIDE.md).
 * The library's own check joins its conditions with && and so accepts almost any EMV text;
 * here every one of them must hold, and the ticket and the reference must be present.
 *
 * A slip carries no amount and no signature, and no public endpoint verifies it: what is read
 * here is the player's claim (decision 087), never evidence that money arrived.
 */

export type OneProof = {
  /** the slip's ticket number (33.03) */
  ticket: string;
  /** the bank's reference of the transfer (33.04): the id a statement row or an SMS may carry */
  reference: string;
  /** 33.02, kept as read (its values are not described) */
  type: string | null;
  /** the QR text as read (trimmed) */
  text: string;
};

export type OneProofProblem = "FORMAT" | "CRC" | "NOT_ONEPROOF";

/** The template identifiers the public description gives for tag 33's 00. */
const ONEPROOF_IDS = new Set(["BCEL", "ONEPROOF"]);
/** A ticket or reference as a bank prints it: letters, digits and a few separators, bounded. */
const ID_PATTERN = /^[A-Za-z0-9._/-]{1,64}$/;

export function readOneProof(payload: string): { ok: true; slip: OneProof } | { ok: false; problem: OneProofProblem } {
  const text = payload.trim();
  if (text.length < 12 || text.slice(-8, -4) !== "6304") return { ok: false, problem: "FORMAT" };
  if (crc16(text.slice(0, -4)) !== text.slice(-4).toUpperCase()) return { ok: false, problem: "CRC" };
  const top = parseFields(text);
  if (!top || top.get("00") !== "01") return { ok: false, problem: "FORMAT" };
  const template = parseFields(top.get("33") ?? "");
  if (!template || !ONEPROOF_IDS.has(template.get("00") ?? "")) return { ok: false, problem: "NOT_ONEPROOF" };
  const ticket = template.get("03")?.trim() ?? "";
  const reference = template.get("04")?.trim() ?? "";
  if (!ID_PATTERN.test(ticket) || !ID_PATTERN.test(reference)) return { ok: false, problem: "NOT_ONEPROOF" };
  return { ok: true, slip: { ticket, reference, type: template.get("02") ?? null, text } };
}
