/**
 * Witnesses of one bank transfer (issue 31, decision 046). A transfer into an own-account
 * channel is reported by up to three witnesses, each under its own id or none: staff ("mark
 * paid" with the id they typed), the statement import, the notification forwarder. These are
 * the pure rules that say when two reports are one transfer; the linker
 * (services/bank-transactions.ts) and the reconciliation page use the same ones.
 */

export type WitnessSource = "staff" | "statement" | "forwarder";

/** Default window of the amount + bank time rule (per channel: payment_channels.witness_window_minutes). */
export const DEFAULT_WITNESS_WINDOW_MINUTES = 10;
const MAX_WITNESS_WINDOW_MINUTES = 1440;

export const windowMs = (minutes: number): number =>
  Math.max(1, Math.min(MAX_WITNESS_WINDOW_MINUTES, Math.trunc(minutes) || DEFAULT_WITNESS_WINDOW_MINUTES)) * 60_000;

/** What the rules need of a transfer already seen. */
export type SeenTransfer = {
  channelCode: string;
  amount: string; // canonical LAK
  bankTime: number;
  sources: readonly WitnessSource[];
  /** The order it paid (or is being applied to); null when it paid none (queued, late, a debit). */
  orderCode: string | null;
  /** The life of the order it paid (created..expires), when it paid one. */
  orderLife?: { createdAt: number; expiresAt: number } | null;
};

/** A new report of a transfer: its source, amount, bank time and the order codes its text names. */
export type Report = { channelCode: string; source: WitnessSource; amount: string; bankTime: number; namedOrders: readonly string[] };

export type LinkRule = "window" | "order";

/** Whether a bank time falls within an order's life, widened by the window on both ends. */
export function duringOrderLife(bankTime: number, life: { createdAt: number; expiresAt: number } | null | undefined, window: number): boolean {
  return Boolean(life) && bankTime >= life!.createdAt - window && bankTime <= life!.expiresAt + window;
}

/**
 * Whether a report is a further witness of a transfer already seen: same account and amount,
 * no witness of the report's source yet (at most one per source: a second statement row is a
 * second transfer), and either a bank time within the window, or a text naming the order the
 * transfer paid, both bank times during that order's life (a cashier's typed time may be off
 * by more than the window; a payment naming the order after its life is a later payment of
 * the same QR, not this one). null: not this transfer.
 */
export function linkRule(report: Report, transfer: SeenTransfer, window: number): LinkRule | null {
  if (report.channelCode !== transfer.channelCode || report.amount !== transfer.amount) return null;
  if (transfer.sources.includes(report.source)) return null;
  if (Math.abs(report.bankTime - transfer.bankTime) <= window) return "window";
  if (
    transfer.orderCode &&
    report.namedOrders.includes(transfer.orderCode) &&
    duringOrderLife(report.bankTime, transfer.orderLife, window) &&
    duringOrderLife(transfer.bankTime, transfer.orderLife, window)
  )
    return "order";
  return null;
}

/**
 * The transfer a report belongs to among candidates: the nearest in bank time that the rules
 * link (an order named beats the window only when no transfer is within it).
 */
export function pickTransfer<T extends SeenTransfer>(report: Report, candidates: readonly T[], window: number): { transfer: T; rule: LinkRule } | null {
  let best: { transfer: T; rule: LinkRule; distance: number } | null = null;
  for (const transfer of candidates) {
    const rule = linkRule(report, transfer, window);
    if (!rule) continue;
    const distance = rule === "window" ? Math.abs(report.bankTime - transfer.bankTime) : Number.MAX_SAFE_INTEGER;
    if (!best || distance < best.distance) best = { transfer, rule, distance };
  }
  return best ? { transfer: best.transfer, rule: best.rule } : null;
}

/**
 * Two credits that are probably one transfer paid twice: same account and amount, within the
 * window (or one naming the order the other paid), and no source that saw both (one source
 * never reports one transfer twice under two ids).
 */
export function probablySameTransfer(
  a: SeenTransfer & { namedOrders?: readonly string[] },
  b: SeenTransfer & { namedOrders?: readonly string[] },
  window: number,
): boolean {
  if (a.channelCode !== b.channelCode || a.amount !== b.amount) return false;
  if (a.sources.some((s) => b.sources.includes(s))) return false;
  if (Math.abs(a.bankTime - b.bankTime) <= window) return true;
  return Boolean((b.orderCode && a.namedOrders?.includes(b.orderCode)) || (a.orderCode && b.namedOrders?.includes(a.orderCode)));
}

/**
 * The words of a bank text that could be one of our order codes (upper-case letters and
 * digits, 6 to 24 long, at least one digit): the caller keeps those that are orders.
 */
export function orderCodeCandidates(...texts: (string | null | undefined)[]): string[] {
  const out = new Set<string>();
  for (const text of texts) {
    if (!text) continue;
    for (const word of text.toUpperCase().match(/[A-Z0-9]{6,24}/g) ?? []) {
      if (/\d/.test(word) && /[A-Z]/.test(word)) out.add(word);
      if (out.size >= 20) return [...out];
    }
  }
  return [...out];
}
