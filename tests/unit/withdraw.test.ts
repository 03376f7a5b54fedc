import { describe, expect, it } from "vitest";
import { parseAmount, parseRate, type Rate } from "../../workers/core/money";
import {
  canWithdrawTransition,
  checkWithdrawAmount,
  judgeWithdrawDecision,
  manualPayoutTxn,
  needsManualReview,
  quoteWithdraw,
  withdrawDisplayStatus,
  WITHDRAW_STATUSES,
  type PayoutFacts,
} from "../../workers/core/withdraw";

const rate: Rate = { currency: "THB", buy: parseRate("580")!, sell: parseRate("600")! };
const limits = { min: "100", max: "50000" };

describe("withdraw state machine (decision 005)", () => {
  const allowed = new Set(["PENDING>OPEN", "PENDING>FAILED", "OPEN>SUCCESS", "OPEN>REJECTED"]);
  it("allows exactly the designed arrows and refuses every other", () => {
    for (const from of WITHDRAW_STATUSES)
      for (const to of WITHDRAW_STATUSES) expect(canWithdrawTransition(from, to), `${from}>${to}`).toBe(allowed.has(`${from}>${to}`));
  });
  it("shows a transfer in flight as waiting", () => {
    expect(WITHDRAW_STATUSES.map(withdrawDisplayStatus)).toEqual(["OPEN", "OPEN", "SUCCESS", "REJECTED", "FAILED"]);
  });
});

describe("withdraw rules (docs/product.md §5)", () => {
  // the amount as the withdraw form's schema hands it on: credit minor units (satang), or all credit
  it("accepts an amount within the limits and the credit", () => {
    expect(checkWithdrawAmount({ amountMinor: 20_000n, balance: "500.00", limits, rate })).toEqual({ ok: true, creditMinor: 20000n });
    expect(checkWithdrawAmount({ amountMinor: 10_000n, balance: "100.00", limits, rate })).toEqual({ ok: true, creditMinor: 10000n });
  });
  it("all credit takes the whole balance, within the agency's bounds", () => {
    expect(checkWithdrawAmount({ amountMinor: "ALL", balance: "321.45", limits, rate })).toEqual({ ok: true, creditMinor: 32145n });
    expect(checkWithdrawAmount({ amountMinor: "ALL", balance: "0.00", limits, rate })).toEqual({ ok: false, error: "CREDIT_NOT_ENOUGH" });
    expect(checkWithdrawAmount({ amountMinor: "ALL", balance: "99.99", limits, rate })).toEqual({ ok: false, error: "AMOUNT_TOO_LOW" });
    expect(checkWithdrawAmount({ amountMinor: "ALL", balance: "50000.01", limits, rate })).toEqual({ ok: false, error: "AMOUNT_TOO_HIGH" });
  });
  it.each([
    [0n, "500.00", "AMOUNT_INVALID"],
    [-100n, "500.00", "AMOUNT_INVALID"],
    [60_000n, "500.00", "CREDIT_NOT_ENOUGH"],
    [9_999n, "500.00", "AMOUNT_TOO_LOW"],
    [5_000_001n, "90000.00", "AMOUNT_TOO_HIGH"],
  ] as const)("%s satang with %s credit -> %s", (amountMinor, balance, error) => {
    expect(checkWithdrawAmount({ amountMinor, balance, limits, rate })).toEqual({ ok: false, error });
  });
  it("refuses without a rate (no rate -> 0)", () => {
    expect(checkWithdrawAmount({ amountMinor: 20_000n, balance: "500.00", limits, rate: null })).toEqual({ ok: false, error: "NO_RATE" });
  });
});

describe("amount received (WITHDRAW = amount * buy, whole kip, rounded down)", () => {
  it("converts and itemises deductions", () => {
    expect(quoteWithdraw(parseAmount("200", "THB")!, rate)).toEqual({
      creditMinor: 20000n,
      deductions: [],
      netCreditMinor: 20000n,
      receivedLakMinor: parseAmount("116000", "LAK"),
    });
    const odd: Rate = { ...rate, buy: parseRate("579.999")! };
    expect(quoteWithdraw(parseAmount("1.01", "THB")!, odd).receivedLakMinor).toBe(parseAmount("585", "LAK")); // 585.79899 -> 585
    const bonusBack = () => [{ kind: "PROMOTION_BONUS" as const, creditMinor: 5000n }];
    const q = quoteWithdraw(parseAmount("200", "THB")!, rate, bonusBack);
    expect(q.netCreditMinor).toBe(15000n);
    expect(q.receivedLakMinor).toBe(parseAmount("87000", "LAK"));
    const everything = () => [{ kind: "PROMOTION_EXCESS" as const, creditMinor: 99999n }];
    expect(quoteWithdraw(parseAmount("200", "THB")!, rate, everything).receivedLakMinor).toBe(0n);
  });
  it("sends payouts above the threshold to staff", () => {
    expect(needsManualReview(parseAmount("5000", "THB")!, "5000")).toBe(false);
    expect(needsManualReview(parseAmount("5000.01", "THB")!, "5000")).toBe(true);
    expect(needsManualReview(1n, "not a number")).toBe(true);
  });
});

describe("who decides an OPEN withdrawal's payout (judgeWithdrawDecision)", () => {
  const open = (over: Partial<PayoutFacts> = {}): PayoutFacts => ({
    status: "OPEN",
    review: "MANUAL",
    payoutState: null,
    payoutTxn: null,
    reason: null,
    ...over,
  });
  const staffPaid = { by: "staff", action: "paid", bankReference: "B1" } as const;
  const staffReject = { by: "staff", action: "reject", reason: "KYC" } as const;
  const approve = { by: "staff", action: "approve" } as const;
  const gatewayPaid = { by: "gateway", action: "paid", transactionId: "T1" } as const;
  const gatewayReject = { by: "gateway", action: "reject", reason: "ACCOUNT_CLOSED" } as const;

  it("staff decide only while the order waits for review and nothing was requested from the gateway", () => {
    for (const d of [staffPaid, staffReject, approve]) expect(judgeWithdrawDecision(open(), d)).toBe("apply");
    for (const facts of [
      open({ review: "AUTO" }),
      open({ review: "APPROVED" }),
      open({ payoutState: "UNKNOWN" }),
      open({ payoutState: "REQUESTED" }),
      open({ review: "APPROVED", payoutState: "REQUESTED" }),
    ]) {
      expect(judgeWithdrawDecision(facts, staffPaid)).toBe("refuse");
      expect(judgeWithdrawDecision(facts, staffReject)).toBe("refuse");
    }
  });

  it("the gateway decides only a payout it was asked for", () => {
    for (const d of [gatewayPaid, gatewayReject]) {
      expect(judgeWithdrawDecision(open(), d)).toBe("refuse");
      expect(judgeWithdrawDecision(open({ review: "APPROVED", payoutState: "REQUESTED" }), d)).toBe("apply");
      expect(judgeWithdrawDecision(open({ review: "AUTO", payoutState: "UNKNOWN" }), d)).toBe("apply");
    }
  });

  it("a repeat of the decision taken is a duplicate; anything else after it is refused", () => {
    const paidByHand = open({ status: "SUCCESS", payoutTxn: manualPayoutTxn("B1") });
    expect(judgeWithdrawDecision(paidByHand, staffPaid)).toBe("duplicate");
    expect(judgeWithdrawDecision(paidByHand, { ...staffPaid, bankReference: "B2" })).toBe("refuse");
    expect(judgeWithdrawDecision(paidByHand, gatewayPaid)).toBe("refuse"); // paid twice: never applied
    expect(judgeWithdrawDecision(paidByHand, approve)).toBe("refuse");
    const rejectedByStaff = open({ status: "REJECTED", reason: "KYC" });
    expect(judgeWithdrawDecision(rejectedByStaff, staffReject)).toBe("duplicate");
    expect(judgeWithdrawDecision(rejectedByStaff, gatewayReject)).toBe("refuse");
    const paidByGateway = open({ status: "SUCCESS", review: "AUTO", payoutState: "REQUESTED", payoutTxn: "T1" });
    expect(judgeWithdrawDecision(paidByGateway, gatewayPaid)).toBe("duplicate");
    expect(judgeWithdrawDecision(paidByGateway, staffPaid)).toBe("refuse");
    expect(judgeWithdrawDecision(open({ review: "APPROVED" }), approve)).toBe("duplicate");
    expect(judgeWithdrawDecision(open({ status: "REJECTED", payoutState: "REQUESTED", reason: "X" }), gatewayReject)).toBe("duplicate");
  });
});
