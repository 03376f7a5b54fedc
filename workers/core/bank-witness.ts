/**
 * Witnesses of one bank transfer (decision 069). A transfer into an own-account channel is reported
 * by up to three witnesses, each under its own id or none: staff ("mark paid" with the id they
 * typed), the statement import, the notification forwarder. Their sources, the channel's window
 * and the order codes a bank text names; which reports are one transfer is derived in
 * bank-transfers.ts (decision 069).
 */

export type WitnessSource = "staff" | "statement" | "forwarder";

/** Default window of the amount + bank time rule (per channel: payment_channels.witness_window_minutes). */
export const DEFAULT_WITNESS_WINDOW_MINUTES = 10;
const MAX_WITNESS_WINDOW_MINUTES = 1440;

export const windowMs = (minutes: number): number =>
  Math.max(1, Math.min(MAX_WITNESS_WINDOW_MINUTES, Math.trunc(minutes) || DEFAULT_WITNESS_WINDOW_MINUTES)) * 60_000;

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
