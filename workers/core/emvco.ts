/**
 * LAO QR (EMVCo merchant-presented mode, LAPNet). Each field is ID (2 digits) + length
 * (2 digits) + value; tag 63 carries CRC-16/CCITT-FALSE over the payload including "6304".
 * See ../shared/OUTSIDE.md for the tags.
 */
const LAPNET_AID = "A005266284662577";
const LAK_NUMERIC = "418";

/** CRC-16/CCITT-FALSE: poly 0x1021, init 0xFFFF, no reflection, no final xor. */
export function crc16(text: string): string {
  let crc = 0xffff;
  for (const byte of new TextEncoder().encode(text)) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit++) {
      crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
    }
  }
  return crc.toString(16).toUpperCase().padStart(4, "0");
}

export function field(id: string, value: string): string {
  if (!/^\d{2}$/.test(id)) throw new RangeError(`bad EMV tag ${id}`);
  if (value.length > 99) throw new RangeError(`EMV field ${id} longer than 99`);
  if (!/^[\x20-\x7e]*$/.test(value)) throw new RangeError(`EMV field ${id} must be printable ASCII`);
  return id + String(value.length).padStart(2, "0") + value;
}

export type LaoQrInput = {
  /** The receiving bank's LAPNet IIN (8 digits). */
  iin: string;
  /** Receiver / merchant id at that bank. */
  merchantId: string;
  /** "001" personal, "002" merchant. */
  paymentType?: "001" | "002";
  merchantCategoryCode?: string;
  /** Decimal string in kip, e.g. "50000" or "50000.00". */
  amount: string;
  merchantName: string;
  merchantCity: string;
  /** Our order reference (tag 62.05) and bill number (62.01). */
  reference: string;
  billNumber?: string;
};

/** A dynamic (one-time, amount fixed) LAO QR payload. */
export function buildLaoQr(input: LaoQrInput): string {
  if (!/^\d{8}$/.test(input.iin)) throw new RangeError("IIN must be 8 digits");
  if (!/^\d+(\.\d{1,2})?$/.test(input.amount)) throw new RangeError("amount must be a decimal string");
  const merchantAccount = field("00", LAPNET_AID) + field("01", input.iin) + field("02", input.paymentType ?? "002") + field("03", input.merchantId);
  const additional = field("01", input.billNumber ?? input.reference) + field("05", input.reference);
  const body =
    field("00", "01") +
    field("01", "12") +
    field("38", merchantAccount) +
    field("52", input.merchantCategoryCode ?? "7995") +
    field("53", LAK_NUMERIC) +
    field("54", input.amount) +
    field("58", "LA") +
    field("59", input.merchantName.slice(0, 25)) +
    field("60", input.merchantCity.slice(0, 15)) +
    field("62", additional) +
    "6304";
  return body + crc16(body);
}

export type EmvFields = Map<string, string>;

/** Parses one level of ID-length-value fields; null when the structure is broken. */
export function parseFields(text: string): EmvFields | null {
  const fields: EmvFields = new Map();
  let i = 0;
  while (i < text.length) {
    const id = text.slice(i, i + 2);
    const length = Number(text.slice(i + 2, i + 4));
    if (!/^\d{2}$/.test(id) || !/^\d{2}$/.test(text.slice(i + 2, i + 4)) || i + 4 + length > text.length) return null;
    fields.set(id, text.slice(i + 4, i + 4 + length));
    i += 4 + length;
  }
  return fields;
}

type LaoQr = {
  dynamic: boolean;
  aid: string;
  iin: string;
  paymentType: string;
  merchantId: string;
  currency: string;
  amount: string | null;
  country: string;
  merchantName: string;
  merchantCity: string;
  billNumber: string | null;
  reference: string | null;
};

export type ParseResult = { ok: true; qr: LaoQr } | { ok: false; reason: "FORMAT" | "CRC" | "NOT_LAPNET" };

/** Reads a LAO QR payload and checks its CRC; what a banking app does before paying. */
export function parseLaoQr(payload: string): ParseResult {
  const text = payload.trim();
  if (text.length < 8 || !text.slice(-8, -4).startsWith("6304")) return { ok: false, reason: "FORMAT" };
  if (crc16(text.slice(0, -4)) !== text.slice(-4).toUpperCase()) return { ok: false, reason: "CRC" };
  const top = parseFields(text);
  if (!top || top.get("00") !== "01") return { ok: false, reason: "FORMAT" };
  const account = parseFields(top.get("38") ?? "");
  if (!account || account.get("00") !== LAPNET_AID) return { ok: false, reason: "NOT_LAPNET" };
  const additional = parseFields(top.get("62") ?? "") ?? new Map();
  return {
    ok: true,
    qr: {
      dynamic: top.get("01") === "12",
      aid: account.get("00")!,
      iin: account.get("01") ?? "",
      paymentType: account.get("02") ?? "",
      merchantId: account.get("03") ?? "",
      currency: top.get("53") ?? "",
      amount: top.get("54") ?? null,
      country: top.get("58") ?? "",
      merchantName: top.get("59") ?? "",
      merchantCity: top.get("60") ?? "",
      billNumber: additional.get("01") ?? null,
      reference: additional.get("05") ?? null,
    },
  };
}

// ---- the agency's own bank account: its static LAO QR, and the QR derived per order

/** Why a pasted QR cannot serve as an own-account channel (translated by the back office). */
export type StaticQrProblem = "FORMAT" | "CRC" | "NOT_LAPNET" | "UNKNOWN_BANK" | "NOT_LAK" | "NOT_STATIC" | "NO_RECEIVER";

/** What the portal read from the agency's static QR: shown to the owner before saving. */
export type StaticLaoQr = {
  /** The QR text as given (trimmed): every order's QR is derived from it. */
  text: string;
  iin: string;
  bankCode: string;
  /** The bank's opaque receiver token (tag 38.03): never an account number we could build. */
  receiverId: string;
  paymentType: string;
  receiverName: string;
  receiverCity: string;
};

/**
 * Checks a static LAO QR from the agency's bank app: CRC, tag 38 with LAPNet's AID, the IIN
 * of a bank we know, currency 418 (LAK), static (01 = 11, no amount), a receiver id.
 */
export function readStaticLaoQr(
  payload: string,
  banks: readonly { code: string; iin: string }[],
): { ok: true; qr: StaticLaoQr } | { ok: false; problem: StaticQrProblem } {
  const text = payload.trim();
  const parsed = parseLaoQr(text);
  if (!parsed.ok) return { ok: false, problem: parsed.reason };
  const { qr } = parsed;
  const bank = banks.find((b) => b.iin === qr.iin);
  if (!bank) return { ok: false, problem: "UNKNOWN_BANK" };
  if (qr.currency !== LAK_NUMERIC) return { ok: false, problem: "NOT_LAK" };
  if (qr.dynamic || qr.amount !== null) return { ok: false, problem: "NOT_STATIC" };
  if (!qr.merchantId) return { ok: false, problem: "NO_RECEIVER" };
  return {
    ok: true,
    qr: {
      text,
      iin: qr.iin,
      bankCode: bank.code,
      receiverId: qr.merchantId,
      paymentType: qr.paymentType,
      receiverName: qr.merchantName,
      receiverCity: qr.merchantCity,
    },
  };
}

/**
 * The QR of one order, derived from the agency's static QR: dynamic (01 = 12), the amount
 * to pay (54), the order code as bill number and reference (62.01, 62.05), CRC recomputed.
 * Every other field (38 as the bank issued it, 15 UnionPay, 52, 58-60...) is kept as is,
 * in ascending tag order as EMVCo asks. Whether every bank app accepts a derived QR is not
 * documented: an owner can switch a channel to the static QR as is (decision 016).
 */
export function deriveDynamicLaoQr(staticText: string, order: { amount: string; reference: string }): string {
  if (!/^\d+(\.\d{1,2})?$/.test(order.amount)) throw new RangeError("amount must be a decimal string");
  const top = parseFields(staticText.trim().slice(0, -8)); // without "6304" + CRC
  if (!top) throw new RangeError("not an EMV payload");
  top.set("01", "12");
  top.set("54", order.amount);
  top.set("62", field("01", order.reference) + field("05", order.reference));
  const ids = [...top.keys()].sort();
  const body = ids.map((id) => field(id, top.get(id)!)).join("") + "6304";
  return body + crc16(body);
}
