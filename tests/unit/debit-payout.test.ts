import { parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";
import { OwnAccountModeSchema } from "../../app/lib/schemas/own-account-channel";
import { DEBIT_PAYOUT_WINDOW_MS, maskedTails, matchDebitToPayout, namesHolder, paidOutOf, type OpenPayout } from "../../workers/core/debit-payout";
import { matchDebits, type DebitRow, type PayoutRow } from "../../workers/core/reconciliation";

const HOUR = 3600_000;
const T0 = Date.UTC(2026, 11, 2, 3, 0, 0);

const payout = (code: string, amount: string, fields: Partial<OpenPayout> = {}): OpenPayout => ({
  code,
  playerId: `p-${code}`,
  amount,
  openedAt: T0,
  accountNumber: `0101000${code.replace(/\D/g, "").padStart(6, "0")}`,
  accountName: `PLAYER ${code}`,
  ...fields,
});

describe("the kip a debit paid out", () => {
  it("is the debit less the channel's fee, in canonical kip", () => {
    expect(paidOutOf("102000.00", "2000")).toBe("100000.00");
    expect(paidOutOf("100000", "0")).toBe("100000.00");
    expect(paidOutOf("2000", "2000")).toBeNull();
    expect(paidOutOf("not an amount", "0")).toBeNull();
  });
});

describe("what a debit text says of the payee", () => {
  it("reads masked tails of three digits or more, never a short one", () => {
    expect(maskedTails("Transfer out 100,000 LAK to xxxx1234 on 02/12/2026")).toEqual(["1234"]);
    expect(maskedTails("to A/C ***-5678 and •••• 9012")).toEqual(["5678", "9012"]);
    expect(maskedTails("to xx12")).toEqual([]);
    expect(maskedTails(null)).toEqual([]);
  });

  it("names a holder by their whole name as words, whatever the case and spacing", () => {
    expect(namesHolder("Paid to  somchai PHOMMA. Ref FT1", "Somchai Phomma")).toBe(true);
    expect(namesHolder("Paid to SOMCHAI PHOMMAVONG", "Somchai Phomma")).toBe(false);
    expect(namesHolder("Paid to BOB", "BOB")).toBe(false); // too short to say anything
  });
});

describe("the withdrawal a debit pays (decision 084)", () => {
  const at = (hours: number) => T0 + hours * HOUR;

  it("an amount-only debit pays the one open withdrawal of its amount within the window", () => {
    const open = [payout("W1", "100000.00"), payout("W2", "250000.00")];
    expect(matchDebitToPayout({ amount: "100000", bankTime: at(1), raw: "DR 100,000 LAK" }, open, "0")).toEqual({ kind: "pay", code: "W1", by: "amount" });
  });

  it("adds the channel's fee: a debit of payout + fee pays, the bare payout amount does not", () => {
    const open = [payout("W1", "100000")];
    expect(matchDebitToPayout({ amount: "102000", bankTime: at(1), raw: null }, open, "2000")).toMatchObject({ kind: "pay", code: "W1" });
    expect(matchDebitToPayout({ amount: "100000", bankTime: at(1), raw: null }, open, "2000")).toEqual({ kind: "none" });
  });

  it("an amount-only debit never closes a withdrawal while another open one has the same amount, even outside the window", () => {
    const open = [payout("W1", "100000"), payout("W2", "100000", { openedAt: at(-48) })];
    expect(matchDebitToPayout({ amount: "100000", bankTime: at(1), raw: "DR 100,000" }, open, "0")).toEqual({
      kind: "ambiguous",
      candidates: ["W1", "W2"],
      by: "amount",
    });
  });

  it("the account tail picks one of two withdrawals of the same amount", () => {
    const open = [payout("W1", "100000", { accountNumber: "0101000111234" }), payout("W2", "100000", { accountNumber: "0101000115678" })];
    expect(matchDebitToPayout({ amount: "100000", bankTime: at(2), raw: "to xxxx5678" }, open, "0")).toEqual({ kind: "pay", code: "W2", by: "account" });
  });

  it("the holder's name picks one when the text carries no account", () => {
    const open = [payout("W1", "100000", { accountName: "KHAMLA SOUK" }), payout("W2", "100000", { accountName: "VANNA DY" })];
    expect(matchDebitToPayout({ amount: "100000", bankTime: at(2), raw: "Paid to VANNA DY" }, open, "0")).toEqual({ kind: "pay", code: "W2", by: "name" });
  });

  it("a tail that names no open withdrawal of the amount pays none (the text is of another payee)", () => {
    const open = [payout("W1", "100000", { accountNumber: "0101000111234" })];
    expect(matchDebitToPayout({ amount: "100000", bankTime: at(2), raw: "to xxxx9999" }, open, "0")).toEqual({ kind: "none" });
    // a name beside another account's tail is not this payee
    expect(matchDebitToPayout({ amount: "100000", bankTime: at(2), raw: `to xxxx9999 PLAYER W1` }, open, "0")).toEqual({ kind: "none" });
  });

  it("a whole account number naming another amount's withdrawal is a named payee: the amount's only withdrawal is not paid by amount", () => {
    const open = [payout("W1", "100000"), payout("W2", "300000", { accountNumber: "0201999888777" })];
    expect(matchDebitToPayout({ amount: "100000", bankTime: at(1), raw: "to 0201-999-888777" }, open, "0")).toEqual({ kind: "none" });
  });

  it("two withdrawals with the same tail wait for the cashier as candidates", () => {
    const open = [payout("W1", "100000", { accountNumber: "0101000001234" }), payout("W2", "100000", { accountNumber: "0202000001234" })];
    expect(matchDebitToPayout({ amount: "100000", bankTime: at(2), raw: "to ***1234" }, open, "0")).toEqual({
      kind: "ambiguous",
      candidates: ["W1", "W2"],
      by: "account",
    });
  });

  it("only within the window: from the withdrawal's opening (less the clock grace) to a day after", () => {
    const open = [payout("W1", "100000")];
    const pays = (bankTime: number) => matchDebitToPayout({ amount: "100000", bankTime, raw: null }, open, "0").kind;
    expect(pays(T0 - 60_000)).toBe("pay");
    expect(pays(T0 - 10 * 60_000)).toBe("none");
    expect(pays(T0 + DEBIT_PAYOUT_WINDOW_MS)).toBe("pay");
    expect(pays(T0 + DEBIT_PAYOUT_WINDOW_MS + 1)).toBe("none");
  });

  it("a debit with no bank time, or no amount beyond the fee, pays nothing", () => {
    const open = [payout("W1", "100000")];
    expect(matchDebitToPayout({ amount: "100000", bankTime: null, raw: null }, open, "0")).toEqual({ kind: "none" });
    expect(matchDebitToPayout({ amount: "100", bankTime: at(1), raw: null }, open, "100")).toEqual({ kind: "none" });
  });
});

describe("the reconciliation pairs a debit with the withdrawal it closed first", () => {
  const debit = (id: string, fields: Partial<DebitRow> = {}): DebitRow => ({
    channelCode: "BCEL1",
    transferId: id,
    amount: "100000",
    bankTime: T0 + HOUR,
    sources: ["forwarder"],
    raw: null,
    ...fields,
  });
  const paid = (code: string, markedPaidAt: number): PayoutRow => ({
    code,
    provider: "askmebet",
    amount: "100000",
    creditMinor: 0,
    accountNumber: null,
    requestedAt: T0,
    markedPaidAt,
    reportsAt: null,
  });

  it("a debit that closed W2 pairs with W2 although W1 was marked nearer its time; the second debit pairs with W1", () => {
    const pairs = matchDebits([debit("D1", { withdrawal: "W2" }), debit("D2")], [paid("W1", T0 + HOUR), paid("W2", T0 + 3 * HOUR)], { BCEL1: 10 });
    expect(pairs.get("BCEL1:D1")).toBe("W2");
    expect(pairs.get("BCEL1:D2")).toBe("W1");
  });

  it("a debit with the channel's fee pairs with the payout it carries", () => {
    const pairs = matchDebits([debit("D1", { amount: "102000", fee: "2000" })], [paid("W1", T0 + HOUR)], { BCEL1: 10 });
    expect(pairs.get("BCEL1:D1")).toBe("W1");
    expect(matchDebits([debit("D1", { amount: "102000" })], [paid("W1", T0 + HOUR)], { BCEL1: 10 }).size).toBe(0);
  });
});

describe("the channel's fee per transfer out, as the owner types it", () => {
  const parse = (debitFee: string) => {
    const data = new FormData();
    data.set("intent", "mode");
    data.set("code", "OWN-APB");
    data.set("mode", "derived");
    data.set("debitFee", debitFee);
    return parseWithZod(data, { schema: OwnAccountModeSchema });
  };

  it.each(["1e3", "0x10", "-1", "2.5", "100001", "2,000", "١٠"])("refuses %j with the field's message", (typed) => {
    expect(parse(typed).reply().error).toEqual({ debitFee: ["admin:debitPayout.validation.fee"] });
  });

  it.each([
    ["0", "0"],
    [" 2000 ", "2000"],
    ["0020", "20"],
    ["100000", "100000"],
  ])("reads %j as %j kip", (typed, fee) => {
    expect(parse(typed)).toMatchObject({ status: "success", value: { debitFee: fee } });
  });
});
