import type { WalletStore } from "./queries";
import type { LedgerLine } from "./types";

/** One line of an entry: which account, in which currency, how much (minor units, signed). */
export type LedgerPosting = [account: string, currency: string, amount: bigint];

/**
 * Double-entry bookkeeping of the player's money: every entry of an order balances to zero
 * per currency, and is written once (a repeat of the same entry for the same order is
 * ignored by the storage), so a retried step never books twice.
 */
export function postLedgerEntry(store: WalletStore, code: string, entry: string, lines: LedgerPosting[], now: number): void {
  const sums: Record<string, bigint> = {};
  for (const [, currency, amount] of lines) sums[currency] = (sums[currency] ?? 0n) + amount;
  if (Object.values(sums).some((s) => s !== 0n)) throw new Error(`unbalanced ledger entry ${entry} for ${code}`);
  for (const [account, currency, amount] of lines) store.insertLedgerLine(code, entry, account, currency, amount, now);
}

/** Sum of ledger entries per currency: zero when every movement balances. */
export function ledgerTotals(store: WalletStore): Record<string, string> {
  const totals: Record<string, bigint> = {};
  for (const line of store.ledgerAmounts()) totals[line.currency] = (totals[line.currency] ?? 0n) + BigInt(line.amount_minor);
  return Object.fromEntries(Object.entries(totals).map(([c, v]) => [c, v.toString()]));
}

export function ledgerFor(store: WalletStore, code: string): LedgerLine[] {
  return store.ledgerLines(code);
}
