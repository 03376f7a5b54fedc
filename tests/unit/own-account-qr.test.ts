import { describe, expect, it } from "vitest";
import { BANKS } from "../../workers/core/banks";
import { crc16, deriveDynamicLaoQr, field, parseFields, parseLaoQr, readStaticLaoQr } from "../../workers/core/emvco";

/** A static QR shaped like a BCEL OnePay merchant code (tag 15 UnionPay, then tag 38). */
function staticQr(overrides: { iin?: string; currency?: string; pointOfInitiation?: string; amount?: string; receiver?: string } = {}): string {
  const account =
    field("00", "A005266284662577") + field("01", overrides.iin ?? "27710418") + field("02", "002") + field("03", overrides.receiver ?? "mch19B73F61B9E");
  const body =
    field("00", "01") +
    field("01", overrides.pointOfInitiation ?? "11") +
    field("15", "9704180027710418123456") +
    field("38", account) +
    field("52", "5999") +
    field("53", overrides.currency ?? "418") +
    (overrides.amount ? field("54", overrides.amount) : "") +
    field("58", "LA") +
    field("59", "VIENTIANE PLAY") +
    field("60", "VIENTIANE") +
    "6304";
  return body + crc16(body);
}

describe("the agency's static LAO QR", () => {
  it("reads bank, receiver token and name from a valid static QR", () => {
    const read = readStaticLaoQr(`  ${staticQr()}\n`, BANKS);
    expect(read).toEqual({
      ok: true,
      qr: {
        text: staticQr(),
        iin: "27710418",
        bankCode: "BCEL",
        receiverId: "mch19B73F61B9E",
        paymentType: "002",
        receiverName: "VIENTIANE PLAY",
        receiverCity: "VIENTIANE",
      },
    });
  });

  it("refuses a broken CRC, another AID, an unknown bank, another currency, a one-time QR", () => {
    const good = staticQr();
    expect(readStaticLaoQr(good.slice(0, -1) + (good.endsWith("0") ? "1" : "0"), BANKS)).toEqual({ ok: false, problem: "CRC" });
    expect(readStaticLaoQr("hello", BANKS)).toEqual({ ok: false, problem: "FORMAT" });
    expect(readStaticLaoQr(staticQr({ iin: "12345678" }), BANKS)).toEqual({ ok: false, problem: "UNKNOWN_BANK" });
    expect(readStaticLaoQr(staticQr({ currency: "764" }), BANKS)).toEqual({ ok: false, problem: "NOT_LAK" });
    expect(readStaticLaoQr(staticQr({ pointOfInitiation: "12", amount: "50000" }), BANKS)).toEqual({ ok: false, problem: "NOT_STATIC" });
    expect(readStaticLaoQr(staticQr({ receiver: "" }), BANKS)).toEqual({ ok: false, problem: "NO_RECEIVER" });
  });
});

describe("the QR derived for one order", () => {
  it("is dynamic with the exact amount and the order code, keeps tag 38 and 15 as issued, valid CRC", () => {
    const source = staticQr();
    const derived = deriveDynamicLaoQr(source, { amount: "100037", reference: "D1234ABCD" });
    const parsed = parseLaoQr(derived);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.qr).toMatchObject({
      dynamic: true,
      amount: "100037",
      billNumber: "D1234ABCD",
      reference: "D1234ABCD",
      iin: "27710418",
      merchantId: "mch19B73F61B9E",
      currency: "418",
    });
    const [from, to] = [parseFields(source.slice(0, -8))!, parseFields(derived.slice(0, -8))!];
    expect(to.get("38")).toBe(from.get("38"));
    expect(to.get("15")).toBe(from.get("15"));
    expect([...to.keys()]).toEqual([...to.keys()].sort());
  });

  it("derives from its own output again without growing (a second order from the same channel)", () => {
    const once = deriveDynamicLaoQr(staticQr(), { amount: "5", reference: "A" });
    const twice = deriveDynamicLaoQr(once, { amount: "5", reference: "A" });
    expect(twice).toBe(once);
  });
});
