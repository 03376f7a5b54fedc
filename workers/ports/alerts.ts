/**
 * The staff alert channel (decision 057): where a message to an agency's staff goes. Telegram is
 * the first channel (ports/alert-channels/telegram.ts); another messenger is another adapter
 * of this port, and the events (services/alerts/alerts.ts) never change for it.
 *
 * Delivery is at least once: Telegram's sendMessage has no idempotency key, so a send that
 * timed out after Telegram accepted it is sent again by the retry.
 */

/** One message to one chat: plain text (no markup to escape), links written out in full. */
export type AlertMessage = { chatId: string; text: string };

/**
 * What became of one send:
 * - `sent`: the channel accepted it;
 * - `rate-limited`: the channel asked to wait (Telegram's 429 `parameters.retry_after`);
 * - `rejected`: it will never be accepted as it is (bad token, unknown chat, bot blocked or
 *   removed from the group, text refused): retrying does not help, staff must fix the setup;
 * - `unavailable`: no answer, a timeout or a 5xx: worth retrying later.
 */
export type AlertSendResult =
  | { kind: "sent"; messageId: string }
  | { kind: "rate-limited"; retryAfterSeconds: number; description: string }
  | { kind: "rejected"; status: number; description: string }
  | { kind: "unavailable"; description: string };

export interface AlertChannel {
  readonly name: "telegram";
  send(message: AlertMessage): Promise<AlertSendResult>;
}
