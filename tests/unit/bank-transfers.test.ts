import { describe, expect, it } from "vitest";
import { deriveTransfers, isFutureDated, partitionOf, type OrderLife, type ReportFact } from "../../workers/core/bank-transfers";
import { seeded } from "../setup/random";

/**
 * Transfers derived from reports (decision 069): which reports are one transfer, from the whole
 * set, the same whatever order they arrived in.
 */

const MIN = 60_000;
const WINDOW = 10 * MIN;
const T0 = Date.parse("2026-12-01T10:00:00+07:00");
const order: OrderLife = { orderCode: "D26120100AA", createdAt: T0 - 5 * MIN, expiresAt: T0 + 10 * MIN };

function report(fields: Partial<ReportFact> & Pick<ReportFact, "source" | "id">): ReportFact {
  return { bankTime: T0, receivedAt: T0 + 20 * MIN, namedOrders: [], future: false, split: false, creditedOrder: null, ...fields };
}
const derive = (reports: ReportFact[], orders: OrderLife[] = [order], window = WINDOW) => partitionOf(deriveTransfers(reports, orders, window));

describe("one transfer or several", () => {
  it("the same id is one transfer whatever the times; three sources within the window are one", () => {
    expect(derive([report({ source: "staff", id: "FT1", bankTime: T0 - 3 * 3600_000 }), report({ source: "statement", id: "FT1" })])).toEqual([
      ["staff:FT1", "statement:FT1"],
    ]);
    expect(
      derive([
        report({ source: "staff", id: "S1" }),
        report({ source: "forwarder", id: "F1", bankTime: T0 + MIN }),
        report({ source: "statement", id: "R1", bankTime: T0 + 2 * MIN }),
      ]),
    ).toEqual([["forwarder:F1", "staff:S1", "statement:R1"]]);
  });

  it("two reports of one source are never one transfer: two statement rows are two payments, and a message maps onto the nearer row", () => {
    const sms = report({ source: "forwarder", id: "F2", bankTime: T0 + MIN });
    // until the statement: the message is taken as a witness of the first payment (the window)
    expect(derive([report({ source: "statement", id: "R1" }), sms])).toEqual([["forwarder:F2", "statement:R1"]]);
    // the statement lists both payments: the message is the second one's
    expect(derive([report({ source: "statement", id: "R1" }), sms, report({ source: "statement", id: "R2", bankTime: T0 + MIN })])).toEqual([
      ["forwarder:F2", "statement:R2"],
      ["statement:R1"],
    ]);
    // the forwarder's two messages are two payments, each matched to its row by id
    expect(
      derive([
        report({ source: "forwarder", id: "A" }),
        report({ source: "forwarder", id: "B", bankTime: T0 + 90_000 }),
        report({ source: "statement", id: "A" }),
        report({ source: "statement", id: "B", bankTime: T0 + 90_000 }),
      ]),
    ).toEqual([
      ["forwarder:A", "statement:A"],
      ["forwarder:B", "statement:B"],
    ]);
  });

  it("outside the window two sources are one payment of an order when both are of that order: paid in its life, naming it, or having credited it", () => {
    const staff = report({ source: "staff", id: "S", bankTime: T0 - 4 * MIN, namedOrders: [order.orderCode] });
    const sms = report({ source: "forwarder", id: "F", bankTime: T0 + 8 * MIN });
    // both paid during the order's life: its unique pay amount says they are its payment
    expect(derive([staff, sms], [order], 5 * MIN)).toEqual([["forwarder:F", "staff:S"]]);
    // after the life (and the clock grace), only a text naming the order within the window ties a report to it
    const after = { ...sms, bankTime: order.expiresAt + 4 * MIN };
    expect(derive([staff, after], [order], 5 * MIN)).toEqual([["forwarder:F"], ["staff:S"]]);
    expect(derive([staff, { ...after, namedOrders: [order.orderCode] }], [order], 5 * MIN)).toEqual([["forwarder:F", "staff:S"]]);
    // a report that credited the order (staff bound it, whatever hour was typed) joins a report of that order
    const typedAnHourEarly = report({ source: "staff", id: "S", bankTime: T0 - 3600_000, creditedOrder: order.orderCode });
    expect(derive([typedAnHourEarly, sms], [order], 5 * MIN)).toEqual([["forwarder:F", "staff:S"]]);
    expect(derive([{ ...typedAnHourEarly, creditedOrder: null }, sms], [order], 5 * MIN)).toEqual([["forwarder:F"], ["staff:S"]]);
    // a payment naming the order after its life widened by the window is a second payment of the QR
    expect(derive([staff, { ...sms, bankTime: order.expiresAt + 6 * MIN, namedOrders: [order.orderCode] }], [order], 5 * MIN)).toEqual([
      ["forwarder:F"],
      ["staff:S"],
    ]);
  });

  it("a report dated after it arrived is never tied by its time: by its id, or as the money of the order whose amount was held when it arrived", () => {
    expect(isFutureDated(T0 + 3 * MIN, T0)).toBe(true);
    expect(isFutureDated(T0 + MIN, T0)).toBe(false);
    const future = report({ source: "forwarder", id: "F", bankTime: Date.parse("2099-01-01T00:00:00Z"), future: true });
    expect(derive([report({ source: "statement", id: "R" }), future])).toEqual([["forwarder:F", "statement:R"]]);
    // arrived after the order's cool-down, or with no order of that amount: only its id ties it
    expect(derive([report({ source: "statement", id: "R" }), { ...future, receivedAt: T0 + 3 * 3600_000 }])).toEqual([["forwarder:F"], ["statement:R"]]);
    expect(derive([report({ source: "statement", id: "R" }), future], [])).toEqual([["forwarder:F"], ["statement:R"]]);
    expect(derive([report({ source: "statement", id: "F" }), future], [])).toEqual([["forwarder:F", "statement:F"]]);
  });

  it("staff's mark paid is of the order the cashier chose, whatever hour was typed; a report split off by the owner is tied by its id only", () => {
    const staff = report({ source: "staff", id: "S", bankTime: T0 - 3600_000, namedOrders: [order.orderCode] });
    expect(derive([staff, report({ source: "statement", id: "R" })])).toEqual([["staff:S", "statement:R"]]);
    expect(derive([{ ...staff, namedOrders: [] }, report({ source: "statement", id: "R" })])).toEqual([["staff:S"], ["statement:R"]]);
    expect(derive([report({ source: "statement", id: "R" }), report({ source: "forwarder", id: "F", split: true })])).toEqual([
      ["forwarder:F"],
      ["statement:R"],
    ]);
  });

  it("staff's mark paid with an hour typed wrong joins the order's payment made in its life, not a nearer late payment a hand credit tied to the order", () => {
    // model seed 3040: paid at 10:00 (in the life), paid again at 10:34 (late, credited by hand: tied to the order); the
    // cashier marks the order paid typing 11:00
    const late = T0 + 34 * MIN;
    const reports = [
      report({ source: "statement", id: "R1" }),
      report({ source: "forwarder", id: "F2", bankTime: late, creditedOrder: order.orderCode }),
      report({ source: "statement", id: "R2", bankTime: late }),
      report({ source: "staff", id: "S", bankTime: T0 + 60 * MIN, namedOrders: [order.orderCode] }),
    ];
    expect(derive(reports)).toEqual([
      ["forwarder:F2", "statement:R2"],
      ["staff:S", "statement:R1"],
    ]);
  });

  it("staff's mark paid typed outside the order's life joins the order's first payment, not a second one in its life nearer the typed hour", () => {
    // model seed 4151: paid at 10:03, paid again at 10:11 (the life's end and its grace), marked paid typing 11:03
    const reports = [
      report({ source: "statement", id: "R1", bankTime: T0 + 3 * MIN }),
      report({ source: "statement", id: "R2", bankTime: T0 + 11 * MIN }),
      report({ source: "staff", id: "S", bankTime: T0 + 63 * MIN, namedOrders: [order.orderCode] }),
    ];
    expect(derive(reports)).toEqual([["staff:S", "statement:R1"], ["statement:R2"]]);
    // typed within the life, the nearer payment
    expect(derive([...reports.slice(0, 2), { ...reports[2]!, bankTime: T0 + 10 * MIN }])).toEqual([["staff:S", "statement:R2"], ["statement:R1"]]);
  });

  it("a statement row keys its transfer; else the earliest report", () => {
    const [t] = deriveTransfers([report({ source: "forwarder", id: "F", bankTime: T0 - MIN }), report({ source: "statement", id: "R" })], [order], WINDOW);
    expect(t!.key).toEqual({ source: "statement", id: "R" });
    expect(t!.members.find((m) => m.ref.id === "F")!.link).toBe("window");
  });
});

describe("the same reports in any order derive the same transfers", () => {
  it("300 random sets of reports, each derived in 20 orders: one partition, never two reports of a source in one transfer", () => {
    const sources = ["staff", "statement", "forwarder"] as const;
    for (let seed = 1; seed <= 300; seed++) {
      const r = seeded(seed);
      const reports: ReportFact[] = [];
      const payments = 1 + r.int(5);
      for (let p = 0; p < payments; p++) {
        const bankTime = T0 + r.int(30) * MIN;
        const bankId = `FT${seed}x${p}`;
        for (const source of sources) {
          if (!r.chance(0.6)) continue;
          reports.push(
            report({
              source,
              id: r.chance(0.5) ? bankId : `${source}${seed}x${p}`,
              bankTime: bankTime + (r.int(5) - 2) * MIN,
              namedOrders: r.chance(0.3) ? [order.orderCode] : [],
              future: r.chance(0.05),
              split: r.chance(0.05),
            }),
          );
        }
      }
      const expected = derive(reports);
      for (const transfer of expected) {
        const seen = transfer.map((k) => k.split(":")[0]);
        expect(new Set(seen).size, `seed ${seed}: ${transfer.join(", ")}`).toBe(seen.length);
      }
      for (let shuffle = 0; shuffle < 20; shuffle++) {
        const copy = [...reports];
        for (let i = copy.length - 1; i > 0; i--) {
          const j = r.int(i + 1);
          [copy[i], copy[j]] = [copy[j]!, copy[i]!];
        }
        expect(derive(copy), `seed ${seed}`).toEqual(expected);
      }
    }
  });
});
