import { describe, expect, it } from "vitest";
import {
  checkPatterns,
  defaultPatterns,
  MAX_TEXT,
  parseAmountText,
  readNotification,
  unsafeRegex,
  type BankPatterns,
} from "../../workers/core/notification-patterns";
import { FORWARDER_TOLERANCE_MS, smsForwarderSign, smsForwarderSignature, verifySmsForwarder } from "../../workers/core/sms-forwarder";

const BCEL = defaultPatterns("BCEL");
/** 24/11/2026 13:05:12 in Vientiane (UTC+7). */
const AT = Date.UTC(2026, 10, 24, 6, 5, 12);

describe("notification patterns: reading", () => {
  it("reads an English credit: amount, bank time (Vientiane), transaction id", () => {
    const text = "BCEL One: Received 100,037.00 LAK from SOMPHONE K. on 24/11/2026 13:05:12. Ref: FT2611240001";
    expect(readNotification(BCEL, "BCEL", text)).toEqual({ kind: "credit", amount: "100037", bankTime: AT, reference: null, transactionId: "FT2611240001" });
  });

  it("reads a Lao credit with Lao grouping and our order code", () => {
    const text = "ທ່ານໄດ້ຮັບເງິນ 100.037 ກີບ ຈາກ ບຸນມີ ວັນທີ 24/11/2026 13:05 ເນື້ອໃນ D261124ABCDE";
    const read = readNotification(BCEL, "com.bcel.bcelone", text);
    expect(read).toEqual({ kind: "credit", amount: "100037", bankTime: Date.UTC(2026, 10, 24, 6, 5, 0), reference: "D261124ABCDE", transactionId: null });
  });

  it("falls back to SmsForwarder's receive time when the bank gives none", () => {
    const text = "BCEL\n+50,000 LAK received\nSIM1\n2026-11-24 13:05:12";
    expect(readNotification(BCEL, "BCEL", text)).toMatchObject({ kind: "credit", amount: "50000", bankTime: AT });
  });

  it("money out is a debit, not a deposit", () => {
    // a debit keeps what reconciliation needs: the amount, the bank's time (Vientiane), the id when printed
    expect(readNotification(BCEL, "BCEL", "Transfer out 20,000 LAK to 0101xxxx on 24/11/2026 10:00")).toEqual({
      kind: "debit",
      amount: "20000",
      bankTime: Date.UTC(2026, 10, 24, 3, 0),
      transactionId: null,
    });
    expect(readNotification(BCEL, "BCEL", "ໂອນອອກ 20.000 ກີບ")).toMatchObject({ kind: "debit", bankTime: null });
  });

  it("unreadable: another sender, no credit word, no amount", () => {
    expect(readNotification(BCEL, "+8562055551234", "Received 100,037 LAK")).toEqual({ kind: "unreadable", problem: "SENDER" });
    expect(readNotification(BCEL, "BCEL", "Your OTP is 123456")).toEqual({ kind: "unreadable", problem: "NO_CREDIT" });
    expect(readNotification(BCEL, "BCEL", "Received money, see app")).toEqual({ kind: "unreadable", problem: "NO_AMOUNT" });
  });

  it("a bank without defaults reads any sender; the text is cut to MAX_TEXT", () => {
    expect(defaultPatterns("XYZ").senders).toEqual([]);
    const long = "x".repeat(MAX_TEXT) + " received 100 LAK";
    expect(readNotification(BCEL, "BCEL", long)).toEqual({ kind: "unreadable", problem: "NO_CREDIT" });
  });

  it("an impossible date is no time", () => {
    expect(readNotification(BCEL, "BCEL", "Received 10,000 LAK on 31/02/2026 10:00")).toMatchObject({ bankTime: null });
  });
});

describe("notification patterns: amounts", () => {
  it.each([
    ["100,037.00", "100037"],
    ["100.037", "100037"],
    ["1.234.567,50", "1234567.5"],
    ["1,234,567", "1234567"],
    ["100037.5", "100037.5"],
    ["100,037.00.", "100037"],
    ["500", "500"],
  ])("%s -> %s", (written, amount) => expect(parseAmountText(written)).toBe(amount));

  it.each(["0", "0.00", "abc", "1.2.3,4.5", "1234567890123456"])("%s is no amount", (written) => expect(parseAmountText(written)).toBeNull());
});

describe("notification patterns: checking the owner's patterns", () => {
  it("the defaults of every bank pass", () => {
    for (const bank of ["BCEL", "LDB", "JDB", "APB", "LVB", "IB", "STB", "OTHER"]) expect(checkPatterns(defaultPatterns(bank))).toEqual({ ok: true });
  });

  it.each(["(a+)+$", "(\\w*)*x", "(a|aa)+", "(.*a){20}", "(a)\\1", ".*.*x", "\\d{0,9999}\\d{0,9999}\\d{0,99}"])("refuses %s as unsafe", (source) => {
    expect(unsafeRegex(source)).toBe("UNSAFE");
  });

  it.each(["(?:LAK|KIP)\\s?([0-9][0-9.,]{0,20})", "Received .* LAK", "(?<day>\\d{1,2})/(?<month>\\d{1,2})", "(?:No\\.?|#)?x", "[(+*]{1,3}"])(
    "accepts %s",
    (source) => {
      expect(unsafeRegex(source)).toBeNull();
    },
  );

  const withField = (field: keyof BankPatterns, list: string[]): BankPatterns => ({ ...BCEL, [field]: list });
  it("names the field and row of the first problem", () => {
    expect(checkPatterns(withField("amount", ["LAK ([0-9]+)", "LAK [0-9]+"]))).toEqual({ ok: false, field: "amount", index: 1, problem: "NO_GROUP" });
    expect(checkPatterns(withField("credit", ["received", "(unclosed"]))).toEqual({ ok: false, field: "credit", index: 1, problem: "INVALID" });
    expect(checkPatterns(withField("debit", ["(x+)+"]))).toEqual({ ok: false, field: "debit", index: 0, problem: "UNSAFE" });
    expect(checkPatterns(withField("time", ["(\\d{1,2}):(\\d{2})"]))).toEqual({ ok: false, field: "time", index: 0, problem: "TIME_GROUPS" });
    expect(checkPatterns(withField("credit", ["x".repeat(201)]))).toEqual({ ok: false, field: "credit", index: 0, problem: "TOO_LONG" });
    expect(checkPatterns(withField("credit", Array(11).fill("x")))).toMatchObject({ ok: false, problem: "TOO_MANY" });
  });

  it("a long hostile text stays fast with the defaults", () => {
    const hostile = ("1,".repeat(900) + "LAK ").slice(0, MAX_TEXT) + "received";
    const started = Date.now();
    readNotification(BCEL, "BCEL", hostile);
    expect(Date.now() - started).toBeLessThan(200);
  });
});

describe("SmsForwarder signature (doc/POST_WEB.md, WebhookUtils.kt)", () => {
  const secret = "this is secret";
  const ts = "1764000000000";
  // python: base64(hmac.new(secret, ts + "\n" + secret, sha256)), quote_plus of it
  const expected = "2okeMgl/WoQULlSbnkxloUiV9MtX3noV5vBNOoMXqXI=";

  it("signs timestamp + \\n + secret with the secret, Base64, URL-encoded", async () => {
    expect(await smsForwarderSignature(secret, ts)).toBe(expected);
    expect(await smsForwarderSign(secret, ts)).toBe("2okeMgl%2FWoQULlSbnkxloUiV9MtX3noV5vBNOoMXqXI%3D");
  });

  it("accepts the URL-encoded sign, the plain Base64 and a form-decoded '+' turned space", async () => {
    const now = Number(ts) + 1000;
    for (const sign of ["2okeMgl%2FWoQULlSbnkxloUiV9MtX3noV5vBNOoMXqXI%3D", expected]) {
      expect(await verifySmsForwarder(secret, ts, sign, now)).toEqual({ ok: true, timestamp: Number(ts), signature: expected });
    }
  });

  it("refuses a wrong secret, a stale or future timestamp, a malformed one", async () => {
    const sign = await smsForwarderSign(secret, ts);
    expect(await verifySmsForwarder("other secret", ts, sign, Number(ts))).toEqual({ ok: false, reason: "BAD_SIGNATURE" });
    expect(await verifySmsForwarder(secret, ts, sign, Number(ts) + FORWARDER_TOLERANCE_MS + 1)).toEqual({ ok: false, reason: "STALE" });
    expect(await verifySmsForwarder(secret, ts, sign, Number(ts) - FORWARDER_TOLERANCE_MS - 1)).toEqual({ ok: false, reason: "STALE" });
    expect(await verifySmsForwarder(secret, "soon", sign, Number(ts))).toEqual({ ok: false, reason: "MALFORMED" });
    expect(await verifySmsForwarder(secret, ts, "", Number(ts))).toEqual({ ok: false, reason: "MALFORMED" });
  });
});
