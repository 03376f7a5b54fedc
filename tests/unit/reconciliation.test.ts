import { describe, expect, it } from "vitest";
import lo from "../../locales/lo/admin.json";
import cn from "../../locales/cn/admin.json";
import vn from "../../locales/vn/admin.json";
import {
  bankDayBounds,
  matchDebits,
  namesAccount,
  reconcileDay,
  type CreditRow,
  type DayInput,
  type DebitRow,
  type DepositRow,
  type PayoutRow,
  type ReportedDeposits,
} from "../../workers/core/reconciliation";

// 2026-11-26 in Vientiane is [2026-11-25T17:00Z, 2026-11-26T17:00Z)
const DAY = "2026-11-26";
const at = (hhmm: string, day = DAY) => Date.parse(`${day}T${hhmm}:00+07:00`);

function credit(fields: Partial<CreditRow> & { transferId: string }): CreditRow {
  return {
    channelCode: "OWN",
    amount: "100037.00",
    bankTime: at("10:00"),
    outcome: "APPLIED",
    orderCode: null,
    sources: ["statement"],
    raw: null,
    unsettled: { n: 0, codes: [] },
    queue: null,
    deposit: null,
    ...fields,
  };
}
const debit = (fields: Partial<DebitRow> & { transferId: string }): DebitRow => ({
  channelCode: "OWN",
  amount: "500000.00",
  bankTime: at("12:00"),
  sources: ["statement"],
  raw: null,
  ...fields,
});
const payout = (fields: Partial<PayoutRow> & { code: string }): PayoutRow => ({
  provider: "betflix",
  amount: "500000",
  creditMinor: 83_300,
  accountNumber: "0101000123456",
  requestedAt: at("11:30"),
  markedPaidAt: at("12:05"),
  reportsAt: at("12:05"),
  ...fields,
});
const deposit = (code: string, paidAt: number, provider = "betflix") => ({ code, provider, paidAt, kipMinor: 10_003_700, creditMinor: 16_600 });
/** Deposits the reports count, per provider (as the page reads them: counted and summed in D1). */
const reported = (...deposits: DepositRow[]): ReportedDeposits[] =>
  [...new Set(deposits.map((d) => d.provider))].map((provider) => {
    const of = deposits.filter((d) => d.provider === provider);
    return { provider, n: of.length, kipMinor: of.reduce((a, d) => a + d.kipMinor, 0), creditMinor: of.reduce((a, d) => a + d.creditMinor, 0) };
  });
const statementOfDay = { channelCode: "OWN", from: at("00:01"), to: at("23:50") };

function input(fields: Partial<DayInput>): DayInput {
  return {
    day: DAY,
    credits: [],
    debits: [],
    payouts: [],
    future: [],
    reportedDeposits: [],
    imports: [statementOfDay],
    windows: { OWN: 10 },
    notes: {},
    ...fields,
  };
}
const kinds = (lines: { kind: string; reason: string | null; key: string }[]) => lines.map((l) => [l.kind, l.reason, l.key]);

describe("bank days", () => {
  it("a Vientiane day is [D-1 17:00Z, D 17:00Z); an impossible date is none", () => {
    expect(bankDayBounds(DAY)).toEqual({ start: Date.parse("2026-11-25T17:00:00Z"), end: Date.parse("2026-11-26T17:00:00Z") });
    expect(bankDayBounds("2026-02-30")).toBeNull();
    expect(bankDayBounds("26/11/2026")).toBeNull();
  });
});

describe("credits", () => {
  it("applied with a bank witness: matched; staff only: a difference; in the queue: no credit; refunded and hand-credited: matched", () => {
    const day = reconcileDay(
      input({
        credits: [
          credit({ transferId: "A", orderCode: "D1", deposit: deposit("D1", at("10:01")), sources: ["staff", "forwarder"] }),
          credit({ transferId: "B", amount: "100038", bankTime: at("10:05"), orderCode: "D2", deposit: deposit("D2", at("10:06")), sources: ["staff"] }),
          credit({ transferId: "C", amount: "7777", outcome: "NO_ORDER", queue: { id: "Q1", status: "OPEN", manualCode: null, note: null } }),
          credit({ transferId: "E", amount: "8888", outcome: "NO_ORDER", queue: { id: "Q1", status: "REFUNDED", manualCode: null, note: "sent back" } }),
          credit({
            transferId: "F",
            amount: "9999",
            outcome: "AMBIGUOUS",
            queue: { id: "Q1", status: "CREDITED", manualCode: "UR1M", note: null },
            deposit: deposit("UR1M", at("11:00")),
          }),
          credit({ transferId: "OTHER-DAY", bankTime: at("10:00", "2026-11-25") }),
        ],
        reportedDeposits: reported(deposit("D1", at("10:01")), deposit("D2", at("10:06")), deposit("UR1M", at("11:00"))),
      }),
    );
    expect(kinds(day.lines)).toEqual([
      ["difference", "NO_CREDIT", "no-credit:OWN:C"],
      ["difference", "STAFF_ONLY", "staff-only:OWN:B"],
      ["matched", null, "credit:OWN:A"],
      ["matched", null, "credit:OWN:E"],
      ["matched", null, "credit:OWN:F"],
    ]);
    expect(day.lines.find((l) => l.key === "credit:OWN:F")).toMatchObject({ resolution: "hand-credited", orderCode: "UR1M" });
    expect(day.lines.find((l) => l.key === "credit:OWN:E")?.resolution).toBe("refunded");
    expect(day.summary.bankCredits).toEqual({ n: 5, kip: "226739.00" });
    expect(day.providers).toEqual([{ provider: "betflix", inByBank: 3 * 16_600, inByReports: 3 * 16_600, outByBank: 0, outByReports: 0 }]);
  });

  it("one transfer with two unsettled credits is credited twice, a money difference only the owner's settlement closes; its raw text is on the line", () => {
    const twice = credit({
      transferId: "A",
      orderCode: "D1",
      sources: ["statement", "staff"],
      raw: "Date: 26/11/2026 10:00 | Credit: 100,037.00",
      deposit: deposit("D1", at("10:01")),
      unsettled: { n: 2, codes: ["D1", "U7M"] },
    });
    const day = reconcileDay(input({ credits: [twice] }));
    const line = day.lines.find((l) => l.reason === "CREDITED_TWICE");
    expect(line).toMatchObject({ key: "twice:OWN:A", kind: "difference", money: true, credits: ["D1", "U7M"], raw: twice.raw });
    expect(day.lines.find((l) => l.key === "credit:OWN:A")?.raw).toBe(twice.raw);
    // a note alone never closes it
    const noted = reconcileDay(input({ credits: [twice], notes: { "twice:OWN:A": { note: "will ask the player", staffUsername: "boss", notedAt: 1 } } }));
    expect(noted).toMatchObject({ closed: false, summary: { differences: 1, noted: 1, moneyOpen: 1 } });
    // settled: the surplus credit reversed (the derivation counts one unsettled credit), the line is gone and the day closes
    const settled = { ...twice, unsettled: { n: 1, codes: [] } };
    expect(reconcileDay(input({ credits: [settled] }))).toMatchObject({ closed: true, summary: { differences: 0, moneyOpen: 0 } });
    // two transfers credited once each are not credited twice, however near (the derivation said two)
    const b = credit({ transferId: "B", bankTime: at("10:04"), unsettled: { n: 1, codes: [] } });
    expect(reconcileDay(input({ credits: [settled, b] })).lines.some((l) => l.reason === "CREDITED_TWICE")).toBe(false);
  });

  it("a report dated after it arrived is listed on the day it arrived, closed by a note", () => {
    const f = {
      channelCode: "OWN",
      source: "forwarder" as const,
      witnessId: "SMS1",
      direction: "credit" as const,
      amount: "100037",
      bankTime: Date.parse("2099-01-01T00:00:00Z"),
      receivedAt: at("09:00"),
      raw: "BCEL +100,037 LAK 01/01/2099",
    };
    const day = reconcileDay(input({ future: [f] }));
    expect(day.lines).toEqual([expect.objectContaining({ key: "future:OWN:forwarder:SMS1", reason: "FUTURE_DATED", money: false, raw: f.raw })]);
    expect(reconcileDay(input({ day: "2026-11-25", future: [f] })).lines).toEqual([]);
    expect(
      reconcileDay(input({ future: [f], notes: { "future:OWN:forwarder:SMS1": { note: "phone clock wrong", staffUsername: "boss", notedAt: 1 } } })).closed,
    ).toBe(true);
  });

  it("a deposit the reports count on another day than the bank is a timing line on both days", () => {
    const c = credit({ transferId: "A", bankTime: at("23:55", "2026-11-25"), orderCode: "D1", deposit: deposit("D1", at("00:10")) });
    const bankDay = reconcileDay(
      input({ day: "2026-11-25", credits: [c], imports: [{ channelCode: "OWN", from: at("00:00", "2026-11-25"), to: at("23:59", "2026-11-25") }] }),
    );
    expect(bankDay.lines.find((l) => l.kind === "timing")).toMatchObject({ key: "timing:D1", bankDay: "2026-11-25", reportsDay: DAY, direction: "credit" });
    const reportsDay = reconcileDay(input({ credits: [c], reportedDeposits: reported(c.deposit!) }));
    expect(kinds(reportsDay.lines)).toEqual([["timing", null, "timing:D1"]]);
    expect(reportsDay.providers).toEqual([{ provider: "betflix", inByBank: 0, inByReports: 16_600, outByBank: 0, outByReports: 0 }]);
  });
});

describe("debits and withdrawals marked paid", () => {
  it("names an account only with one of its numbers, spaces and dashes allowed", () => {
    expect(namesAccount("Date: 26/11/2026 | To: 0101-000-123456 | Amount: 500,000.00", "0101000123456")).toBe(true);
    expect(namesAccount("To: 0101000999999", "0101000123456")).toBe(false);
    expect(namesAccount("Amount: 500,000.00", "00")).toBe(false);
  });

  it("matches by amount and time window; an account named in the row wins over the nearer one", () => {
    const payouts = [
      payout({ code: "W1", accountNumber: "0101000111111", markedPaidAt: at("12:01") }),
      payout({ code: "W2", accountNumber: "0202000222222", markedPaidAt: at("12:20") }),
    ];
    const pairs = matchDebits([debit({ transferId: "X", raw: "To: 0202000222222" }), debit({ transferId: "Y", bankTime: at("12:03") })], payouts, { OWN: 10 });
    expect(Object.fromEntries(pairs)).toEqual({ "OWN:X": "W2", "OWN:Y": "W1" });
    // a row naming a withdrawal's account matches no other withdrawal (W2 is taken by the nearer row naming it)
    const named = matchDebits(
      [debit({ transferId: "X", raw: "To: 0202000222222" }), debit({ transferId: "X2", bankTime: at("12:19"), raw: "To: 0202000222222" })],
      payouts,
      { OWN: 10 },
    );
    expect(Object.fromEntries(named)).toEqual({ "OWN:X2": "W2" });
    // before the request or after the marking plus the window: no match; another amount: no match
    expect(matchDebits([debit({ transferId: "Z", bankTime: at("11:00") })], [payouts[0]!], { OWN: 10 }).size).toBe(0);
    expect(matchDebits([debit({ transferId: "Z", bankTime: at("12:12") })], [payouts[0]!], { OWN: 10 }).size).toBe(0);
    expect(matchDebits([debit({ transferId: "Z", amount: "500001" })], [payouts[0]!], { OWN: 10 }).size).toBe(0);
  });

  it("a debit with no withdrawal and a withdrawal with no debit are differences; without a statement covering its time the withdrawal waits", () => {
    const day = reconcileDay(
      input({
        debits: [debit({ transferId: "X", raw: "To: 0101000123456" }), debit({ transferId: "ATM", amount: "50000", bankTime: at("09:00") })],
        payouts: [
          payout({ code: "W1" }),
          payout({ code: "W2", amount: "300000", markedPaidAt: at("15:00") }),
          payout({ code: "W3", amount: "200000", markedPaidAt: at("23:55") }),
        ],
      }),
    );
    expect(kinds(day.lines)).toEqual([
      ["difference", "DEBIT_NO_WITHDRAWAL", "debit:OWN:ATM"],
      ["difference", "WITHDRAWAL_NO_DEBIT", "withdrawal:W2"],
      ["waiting", null, "withdrawal:W3"],
      ["matched", null, "debit:OWN:X"],
    ]);
    expect(day.lines.find((l) => l.key === "debit:OWN:X")).toMatchObject({ orderCode: "W1", resolution: "paid" });
    expect(day.providers).toEqual([{ provider: "betflix", inByBank: 0, inByReports: 0, outByBank: 83_300, outByReports: 3 * 83_300 }]);
    expect(day.closed).toBe(false);
  });
});

describe("closing a day", () => {
  const base = () => input({ credits: [credit({ transferId: "C", outcome: "NO_ORDER", queue: { id: "Q1", status: "OPEN", manualCode: null, note: null } })] });
  it("closes once a statement covers every channel of the day, no money difference is open and every other difference has a note", () => {
    expect(reconcileDay(base())).toMatchObject({ covered: true, closed: false, summary: { differences: 1, noted: 0, moneyOpen: 1 } });
    // money not credited: a note does not close the day; resolving its queue item does
    const noted = { ...base(), notes: { "no-credit:OWN:C": { note: "returned to the sender", staffUsername: "boss", notedAt: 1 } } };
    expect(reconcileDay(noted)).toMatchObject({ covered: true, closed: false, summary: { differences: 1, noted: 1 } });
    const refunded = input({
      credits: [credit({ transferId: "C", outcome: "NO_ORDER", queue: { id: "Q1", status: "REFUNDED", manualCode: null, note: "returned" } })],
    });
    expect(reconcileDay(refunded)).toMatchObject({ covered: true, closed: true, summary: { differences: 0 } });
    expect(reconcileDay({ ...refunded, imports: [] })).toMatchObject({ covered: false, closed: false, uncoveredChannels: ["OWN"] });
    expect(reconcileDay({ ...noted, imports: [{ ...statementOfDay, channelCode: "OTHER" }] })).toMatchObject({ covered: false, uncoveredChannels: ["OWN"] });
    // a statement of another day does not cover it
    expect(reconcileDay({ ...noted, imports: [{ channelCode: "OWN", from: at("00:00", "2026-11-25"), to: at("23:59", "2026-11-25") }] }).covered).toBe(false);
  });
  it("a quiet day closes with a statement covering it", () => {
    expect(reconcileDay(input({})).closed).toBe(true);
    expect(reconcileDay(input({ imports: [] })).closed).toBe(false);
  });
});

describe("reconciliation translations", () => {
  const flat = (value: unknown, prefix: string): Record<string, string> =>
    typeof value === "string"
      ? { [prefix]: value }
      : Object.assign({}, ...Object.entries(value as Record<string, unknown>).map(([k, v]) => flat(v, `${prefix}.${k}`)));
  const [flo, fcn, fvn] = [lo, cn, vn].map((file) => flat((file as Record<string, unknown>).reconciliation, "reconciliation"));
  it("have the same keys in lo, cn and vn, each in its own script, and name every reason, kind, source and resolution", () => {
    expect(Object.keys(fcn).sort()).toEqual(Object.keys(flo).sort());
    expect(Object.keys(fvn).sort()).toEqual(Object.keys(flo).sort());
    for (const [key, value] of Object.entries(flo)) expect(value, key).toMatch(/[\u0E80-\u0EFF]/);
    for (const [key, value] of Object.entries(fcn)) expect(value, key).toMatch(/[\u4E00-\u9FFF]/);
    const names = [
      "reasons.STAFF_ONLY",
      "reasons.NO_CREDIT",
      "reasons.CREDITED_TWICE",
      "reasons.DEBIT_NO_WITHDRAWAL",
      "reasons.WITHDRAWAL_NO_DEBIT",
      "kinds.matched",
      "kinds.difference",
      "kinds.waiting",
      "kinds.timing",
      "sources.staff",
      "sources.statement",
      "sources.forwarder",
      "resolutions.applied",
      "resolutions.hand-credited",
      "resolutions.refunded",
      "resolutions.paid",
      "errors.DAY_INVALID",
      "errors.NOTE_INVALID",
      "errors.NOT_A_DIFFERENCE",
    ];
    for (const name of names) expect(flo[`reconciliation.${name}`], name).toBeTruthy();
  });
});
