import { BANK_CLOCK_GRACE_MS, PAY_AMOUNT_COOL_DOWN_MS, paidInTime } from "./pay-amount";
import type { WitnessSource } from "./bank-witness";

/**
 * Transfers derived from reports (decision 069). Every report of a bank transfer (staff's "mark
 * paid", a forwarded message, a statement row) is kept as it arrived; which reports are one
 * transfer is derived from the whole set, never decided once by whichever came first. Pure and
 * deterministic: the same set of reports, in any order, gives the same transfers.
 *
 * Evidence, strongest first:
 * - firm: the same id (a bank id one source reported, another reported too);
 * - strong: two reports of one order: each paid during its life (the unique pay amount says
 *   whose money it is), named it within its life widened by the window, or credited it;
 * - weak: the same amount within the channel's window.
 * Two reports of one source are never one transfer (a source lists a transfer once: a second
 * statement row is a second payment), so a statement, which lists every transfer of the period
 * it covers, overturns weaker links: the reports linked to one transfer until then map onto
 * its rows, nearest first. A report dated after it arrived (beyond the clock grace) is never
 * linked by its time: by its id, or as the money of the order whose pay amount was held when it
 * arrived; a report the owner split off by its id only. Staff's "mark paid" names the order the
 * cashier chose, which ties it to that order whatever hour was typed, to the payment made in
 * the order's life before any other.
 *
 * The grouping is greedy over candidate links sorted by (firm first, then the gap between the
 * bank times, then the reports' keys): the nearest evidence wins, and ties fall the same way
 * whatever the arrival order was.
 */

export type ReportFact = {
  source: WitnessSource;
  id: string;
  bankTime: number;
  /** when it reached the portal */
  receivedAt: number;
  /** order codes its text names (orderCodeCandidates) */
  namedOrders: readonly string[];
  /** dated after it arrived, beyond the clock grace: never linked by time */
  future: boolean;
  /** split off by the owner: linked by its id only */
  split: boolean;
  /** the order this report's credit paid, when it carries one */
  creditedOrder: string | null;
};

/** An order that was given this pay amount on this channel (its reservation). */
export type OrderLife = { orderCode: string; createdAt: number; expiresAt: number };

type DerivedLink = "key" | "id" | "order" | "window";
export type DerivedTransfer = { key: ReportRef; members: { ref: ReportRef; link: DerivedLink }[] };
export type ReportRef = { source: WitnessSource; id: string };

/** Statement rows key a transfer (the bank's own list), then the forwarder, then staff. */
const SOURCE_RANK: Record<WitnessSource, number> = { statement: 0, forwarder: 1, staff: 2 };

export const refKey = (r: ReportRef): string => `${r.source}:${r.id}`;

/** A report dated after it arrived, beyond the clock grace the matcher allows every source. */
export function isFutureDated(bankTime: number, receivedAt: number): boolean {
  return bankTime > receivedAt + BANK_CLOCK_GRACE_MS;
}

/** The canonical order of reports: by bank time, then source, then id. */
function compareReports(a: ReportFact, b: ReportFact): number {
  return a.bankTime - b.bankTime || SOURCE_RANK[a.source] - SOURCE_RANK[b.source] || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/**
 * The orders a report is evidence of paying: the one its credit paid (staff bound it to that
 * order, whatever time was typed); those whose life holds its bank time (the match rule: the pay
 * amount is unique while the order lives); and those its text names, when its bank time falls
 * within that order's life widened by the window (a payment naming the order after that is a
 * later payment of the same QR, not this one).
 */
function ordersOf(report: ReportFact, orders: readonly OrderLife[], window: number): Set<string> {
  const out = new Set<string>();
  if (report.creditedOrder) out.add(report.creditedOrder);
  if (report.split) return out;
  for (const o of orders) {
    // staff marked that very order paid (whatever hour they typed); a report dated in the future
    // is its money when it arrived while the order's pay amount was held (its life and cool-down)
    if (report.source === "staff" && report.namedOrders.includes(o.orderCode)) out.add(o.orderCode);
    if (report.future && report.receivedAt >= o.createdAt - BANK_CLOCK_GRACE_MS && report.receivedAt <= o.expiresAt + PAY_AMOUNT_COOL_DOWN_MS)
      out.add(o.orderCode);
  }
  if (report.future) return out;
  for (const o of orders) {
    if (paidInTime(report.bankTime, o)) out.add(o.orderCode);
    else if (report.namedOrders.includes(o.orderCode) && report.bankTime >= o.createdAt - window && report.bankTime <= o.expiresAt + window)
      out.add(o.orderCode);
  }
  return out;
}

/** Ranks a staff report's link to a report outside the named order's life after every link inside it. */
const OFF_LIFE_PENALTY_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * How near staff's mark paid is to another report of the order the cashier named: a payment made
 * in that order's life comes before any later one (an hour typed wrong may fall nearer a second
 * payment); a mark paid whose typed time is outside the life (confirmed anyway) says nothing by
 * its time, so it is the order's first payment, the one that paid it.
 */
function staffGap(staff: ReportFact, other: ReportFact, gap: number, orders: readonly OrderLife[]): number {
  const named = orders.filter((o) => staff.namedOrders.includes(o.orderCode));
  const lifeOf = (r: ReportFact) => named.find((o) => !r.future && paidInTime(r.bankTime, o));
  const life = lifeOf(other);
  if (!life) return gap + OFF_LIFE_PENALTY_MS;
  return lifeOf(staff) ? gap : Math.max(0, other.bankTime - life.createdAt);
}

type Edge = { a: number; b: number; firm: boolean; gap: number; link: DerivedLink };

/**
 * The transfers of one channel, direction and amount: `reports` of that amount, `orders` given
 * that pay amount, `window` the channel's window in ms. Each report is in exactly one transfer;
 * no transfer has two reports of one source.
 */
export function deriveTransfers(reports: readonly ReportFact[], orders: readonly OrderLife[], window: number): DerivedTransfer[] {
  const list = [...reports].sort(compareReports);
  const evidence = list.map((r) => ordersOf(r, orders, window));
  const edges: Edge[] = [];
  for (let i = 0; i < list.length; i++) {
    for (let j = i + 1; j < list.length; j++) {
      const [a, b] = [list[i]!, list[j]!];
      if (a.source === b.source) continue;
      const gap = Math.abs(a.bankTime - b.bankTime);
      if (a.id === b.id) {
        edges.push({ a: i, b: j, firm: true, gap, link: "id" });
        continue;
      }
      if (a.split || b.split) continue;
      const sameOrder = [...evidence[i]!].some((code) => evidence[j]!.has(code));
      const byTime = !a.future && !b.future;
      // staff's mark paid names the order the cashier chose: it joins that order's reports, never others by the window (a
      // mistyped hour may fall near another payment of the same amount)
      const staffNamed = (r: ReportFact) => r.source === "staff" && r.namedOrders.length > 0;
      const inWindow = byTime && gap <= window && !staffNamed(a) && !staffNamed(b);
      const gapOf = !byTime ? Number.MAX_SAFE_INTEGER : staffNamed(a) ? staffGap(a, b, gap, orders) : staffNamed(b) ? staffGap(b, a, gap, orders) : gap;
      if (sameOrder || inWindow) edges.push({ a: i, b: j, firm: false, gap: gapOf, link: inWindow ? "window" : "order" });
    }
  }
  edges.sort((x, y) => Number(y.firm) - Number(x.firm) || x.gap - y.gap || x.a - y.a || x.b - y.b);

  // union-find over reports, each group remembering its sources
  const parent = list.map((_, i) => i);
  const sources = list.map((r) => new Set<WitnessSource>([r.source]));
  const find = (i: number): number => {
    while (parent[i] !== i) i = parent[i] = parent[parent[i]!]!;
    return i;
  };
  for (const e of edges) {
    const [ra, rb] = [find(e.a), find(e.b)];
    if (ra === rb) continue;
    if ([...sources[ra]!].some((s) => sources[rb]!.has(s))) continue;
    const [root, child] = ra < rb ? [ra, rb] : [rb, ra];
    parent[child] = root;
    for (const s of sources[child]!) sources[root]!.add(s);
  }
  // how a member is tied to its transfer: the strongest link it has with another member
  const linkOf = (i: number): DerivedLink => {
    const edge = edges.find((e) => (e.a === i || e.b === i) && find(e.a) === find(e.b));
    return edge?.link ?? "window";
  };

  const groups = new Map<number, number[]>();
  for (let i = 0; i < list.length; i++) {
    const root = find(i);
    groups.set(root, [...(groups.get(root) ?? []), i]);
  }
  const out: DerivedTransfer[] = [];
  for (const members of groups.values()) {
    const keyIndex = members.reduce((best, i) =>
      SOURCE_RANK[list[i]!.source] < SOURCE_RANK[list[best]!.source] ||
      (SOURCE_RANK[list[i]!.source] === SOURCE_RANK[list[best]!.source] && compareReports(list[i]!, list[best]!) < 0)
        ? i
        : best,
    );
    const ref = (i: number): ReportRef => ({ source: list[i]!.source, id: list[i]!.id });
    out.push({
      key: ref(keyIndex),
      members: members.map((i) => ({ ref: ref(i), link: i === keyIndex ? "key" : linkOf(i) })),
    });
  }
  return out.sort((x, y) => (refKey(x.key) < refKey(y.key) ? -1 : 1));
}

/** The partition as sorted lists of report keys (what a permutation test compares). */
export function partitionOf(transfers: readonly DerivedTransfer[]): string[][] {
  return transfers.map((t) => t.members.map((m) => refKey(m.ref)).sort()).sort((a, b) => (a[0]! < b[0]! ? -1 : 1));
}
