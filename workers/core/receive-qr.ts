import { crc16, parseFields, parseLaoQr } from "./emvco";

/**
 * The player's "receive money" LAO QR (decision 086): the static QR a bank app gives an
 * account holder, kept with the player's bank account so a cashier pays a withdrawal by
 * scanning it. Pure: the image is read elsewhere (services/agency/qr-image.ts), the
 * uniqueness is D1's.
 */

/** Why a picked QR cannot be the player's receiving QR for the bank they chose. */
export type ReceiveQrProblem = "FORMAT" | "CRC" | "OTHER_BANK" | "MERCHANT" | "NOT_STATIC" | "NAME" | "NAME_SCRIPT";

export type ReceiveQr = {
  /** The QR text as the bank app encoded it (trimmed): the static QR shown to the cashier, and what a derived one starts from. */
  text: string;
  iin: string;
  /** The bank's opaque receiver token (tag 38.03): the same account's QR always carries it, so it is the one held per agency. */
  receiverId: string;
  /** Tag 59, and tag 64.01 (the name in another language) where the bank puts one. */
  name: string;
  altName: string | null;
};

const PERSONAL = "001";
/** EMVCo's maximum for tag 59: a longer name is cut by the bank. */
const NAME_TAG_MAX = 25;

/**
 * Checks a QR text against the bank the player chose and the account name they typed: a LAO
 * QR (EMVCo TLV with LAPNet's AID in tag 38) whose CRC holds, the chosen bank's IIN, the
 * personal payment type (001; 002 is a merchant's till), static (01 = 11, no amount: a
 * derived QR adds the amount per payout), in kip, with a receiver token and a name that
 * matches the typed one (`matchAccountName`).
 */
export function readReceiveQr(payload: string, bankIin: string, typedName: string): { ok: true; qr: ReceiveQr } | { ok: false; problem: ReceiveQrProblem } {
  const text = payload.trim();
  const parsed = parseLaoQr(text);
  if (!parsed.ok) return { ok: false, problem: parsed.reason === "CRC" ? "CRC" : "FORMAT" };
  const { qr } = parsed;
  if (qr.iin !== bankIin) return { ok: false, problem: "OTHER_BANK" };
  if (qr.paymentType !== PERSONAL) return { ok: false, problem: "MERCHANT" };
  if (qr.dynamic || qr.amount !== null || qr.currency !== "418") return { ok: false, problem: "NOT_STATIC" };
  if (!qr.merchantId || !qr.merchantName.trim()) return { ok: false, problem: "FORMAT" };
  const altName = parseFields(parseFields(text.slice(0, -8))?.get("64") ?? "")?.get("01") ?? null;
  const name = matchAccountName(typedName, qr.merchantName, altName);
  if (name !== "MATCH") return { ok: false, problem: name };
  return { ok: true, qr: { text, iin: qr.iin, receiverId: qr.merchantId, name: qr.merchantName, altName } };
}

// ---- the name rule

/** Words a bank or a player puts before a name: not part of it. */
const TITLES = new Set(["MR", "MRS", "MS", "MISS", "MISTER", "DR", "THAO", "NANG", "TAO", "ທ້າວ", "ນາງ", "ທ່ານ", "ທ", "ນ"]);

type Script = "lao" | "latin" | "other";

function scriptOf(name: string): Script {
  if (/\p{Script=Lao}/u.test(name)) return "lao";
  if (/\p{Script=Latin}/u.test(name)) return "latin";
  return "other";
}

/**
 * A name's words as compared: NFKC, upper case, Latin accents dropped ("Nguyễn" = "NGUYEN";
 * Lao vowel and tone marks are letters of the word and stay), split on anything that is not a
 * letter, mark or digit (spaces, dots, commas, hyphens), titles left out.
 */
export function nameWords(name: string): string[] {
  const plain = name
    .normalize("NFKD")
    .replace(/(\p{Script=Latin})\p{M}+/gu, "$1")
    .normalize("NFKC")
    .toUpperCase();
  return plain.split(/[^\p{L}\p{M}\p{N}]+/u).filter((w) => w && !TITLES.has(w));
}

/**
 * Whether the name a QR carries is the name the player typed (decision 086). Compared in the
 * script both are written in: tag 59, else tag 64's other-language name. Equal as a set of
 * words in any order (banks write "PHOMMAVONG SOMSAK" for "Somsak Phommavong"), or, where the
 * bank cut tag 59 at its 25 characters, the typed name's letters begin with the QR's. No
 * transliteration between Lao and Latin: a Lao name against a QR that carries only a Latin
 * one is NAME_SCRIPT (the player types the name as the bank app shows it).
 */
export function matchAccountName(typed: string, qrName: string, altName: string | null): "MATCH" | "NAME" | "NAME_SCRIPT" {
  const script = scriptOf(typed);
  const candidates = [qrName, altName].filter((n): n is string => !!n && scriptOf(n) === script);
  if (candidates.length === 0) return "NAME_SCRIPT";
  const mine = nameWords(typed);
  if (mine.length === 0) return "NAME";
  for (const candidate of candidates) {
    const theirs = nameWords(candidate);
    if (theirs.length === 0) continue;
    if ([...mine].sort().join(" ") === [...theirs].sort().join(" ")) return "MATCH";
    const cut = candidate === qrName && [...qrName.trim()].length >= NAME_TAG_MAX;
    if (cut && mine.join("").startsWith(theirs.join("")) && theirs.join("").length >= 8) return "MATCH";
  }
  return "NAME";
}

// ---- the derived payout QR

/** The top-level fields in their order, values as they are (any text: a bank may put Lao in tag 64). */
function topFields(text: string): [string, string][] | null {
  const fields = parseFields(text);
  return fields ? [...fields.entries()] : null;
}

const tlv = (id: string, value: string) => id + String(value.length).padStart(2, "0") + value;

/**
 * The player's static QR with the payout's amount in it: point of initiation 12 (an amount
 * for one payment), tag 54 = the amount, CRC recomputed; every other field kept as the bank
 * encoded it, in ascending tag order as EMVCo asks. Whether the agency's bank app accepts it
 * is a setting per channel and player bank (decision 086): the default shows the static QR.
 */
export function deriveAmountQr(staticText: string, amount: string): string {
  if (!/^\d+(\.\d{1,2})?$/.test(amount)) throw new RangeError("amount must be a decimal string");
  const text = staticText.trim();
  if (!text.slice(-8).startsWith("6304")) throw new RangeError("no CRC field");
  const fields = topFields(text.slice(0, -8));
  if (!fields) throw new RangeError("not an EMV payload");
  const kept = new Map(fields);
  kept.set("01", "12");
  kept.set("54", amount);
  const body =
    [...kept.keys()]
      .sort()
      .map((id) => tlv(id, kept.get(id)!))
      .join("") + "6304";
  return body + crc16(body);
}

/** A payout amount as tag 54 takes it: whole kip without decimals ("100000.00" -> "100000"), or null when it cannot be written. */
export function payoutAmountText(amount: string): string | null {
  const match = /^(\d+)(?:\.(\d{1,2}))?$/.exec(amount);
  if (!match) return null;
  const cents = (match[2] ?? "").replace(/0+$/, "");
  return cents ? `${match[1]}.${cents}` : match[1];
}
