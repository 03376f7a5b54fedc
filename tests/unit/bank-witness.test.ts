import { describe, expect, it } from "vitest";
import {
  duringOrderLife,
  linkRule,
  orderCodeCandidates,
  pickTransfer,
  probablySameTransfer,
  windowMs,
  type Report,
  type SeenTransfer,
} from "../../workers/core/bank-witness";

/** The witness rules of decision 046, pure. */
const MIN = 60_000;
const W = windowMs(10);
const life = { createdAt: 0, expiresAt: 15 * MIN };
const transfer = (over: Partial<SeenTransfer> = {}): SeenTransfer => ({
  channelCode: "OWN",
  amount: "100037.00",
  bankTime: 5 * MIN,
  sources: ["forwarder"],
  orderCode: "D261127ABCDE",
  orderLife: life,
  ...over,
});
const report = (over: Partial<Report> = {}): Report => ({
  channelCode: "OWN",
  source: "statement",
  amount: "100037.00",
  bankTime: 6 * MIN,
  namedOrders: [],
  ...over,
});

describe("witness rules", () => {
  it("the window: same channel and amount, another source, within the window", () => {
    expect(linkRule(report(), transfer(), W)).toBe("window");
    expect(linkRule(report({ bankTime: 5 * MIN + W + 1 }), transfer(), W)).toBeNull();
    expect(linkRule(report({ amount: "100038.00" }), transfer(), W)).toBeNull();
    expect(linkRule(report({ channelCode: "OTHER" }), transfer(), W)).toBeNull();
  });

  it("at most one witness per source: a second report of the same source is another transfer", () => {
    expect(linkRule(report({ source: "forwarder" }), transfer(), W)).toBeNull();
  });

  it("the order: a text naming the order the transfer paid, both times during its life", () => {
    const far = transfer({ bankTime: 1 * MIN, sources: ["staff"] });
    expect(linkRule(report({ bankTime: 14 * MIN, namedOrders: ["D261127ABCDE"] }), far, W)).toBe("order");
    expect(linkRule(report({ bankTime: 14 * MIN }), far, W)).toBeNull();
    // after the order's life (and the window): a later payment of the same QR
    expect(linkRule(report({ bankTime: 15 * MIN + W + MIN, namedOrders: ["D261127ABCDE"] }), far, W)).toBeNull();
    // a transfer that paid no order (queued, late) is never linked by the order rule
    expect(linkRule(report({ bankTime: 14 * MIN, namedOrders: ["D261127ABCDE"] }), { ...far, orderCode: null, orderLife: null }, W)).toBeNull();
    expect(duringOrderLife(-W, life, W)).toBe(true);
    expect(duringOrderLife(-W - 1, life, W)).toBe(false);
  });

  it("the nearest transfer the rules link wins", () => {
    const near = transfer({ bankTime: 6 * MIN + 30_000 });
    const further = transfer({ bankTime: 2 * MIN });
    expect(pickTransfer(report(), [further, near], W)).toEqual({ transfer: near, rule: "window" });
    expect(pickTransfer(report({ source: "forwarder" }), [further, near], W)).toBeNull();
  });

  it("two credits that are probably one transfer (the reconciliation's 'credited twice')", () => {
    expect(probablySameTransfer(transfer(), transfer({ sources: ["statement"], bankTime: 8 * MIN }), W)).toBe(true);
    expect(probablySameTransfer(transfer(), transfer({ sources: ["forwarder", "statement"] }), W)).toBe(false);
    expect(probablySameTransfer(transfer(), transfer({ sources: ["statement"], bankTime: 40 * MIN }), W)).toBe(false);
  });

  it("order codes a bank text may name; the window stays within 1..1440 minutes", () => {
    expect(orderCodeCandidates("Ref: FT9876543210 d261127abcde", null)).toEqual(["FT9876543210", "D261127ABCDE"]);
    expect(orderCodeCandidates("BCEL One: +120,003.00 LAK received")).toEqual([]);
    expect(windowMs(0)).toBe(10 * MIN);
    expect(windowMs(5000)).toBe(1440 * MIN);
  });
});
