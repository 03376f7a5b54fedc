/**
 * How a call to a game provider went, as stored in provider_attempts (decision
 * 049): the dashboard shows an outage from these, and the staff alerts read them.
 * Pure: the port's answer in, the stored outcome out. The port says only "unknown" with a
 * reason when there was no usable answer; the reason's words tell a timeout (the adapters'
 * own AbortSignal.timeout: "TimeoutError: ... timeout", AMB/Betflix: "timeout after N ms")
 * from an error (HTTP 5xx, network, unreadable answer).
 */

export type AttemptOp = "transfer_in" | "transfer_out" | "status";
/** ok: the provider answered (for a status query, any answer); refused: it said no. */
export type AttemptOutcome = "ok" | "refused" | "timeout" | "error";
export type AttemptResult = { outcome: AttemptOutcome; errorCode: string | null; detail: string | null };

/** The shapes of the port's answers (workers/ports/provider.ts), restated: core imports nothing. */
type TransferAnswer = { kind: "ok" } | { kind: "refused"; code: string } | { kind: "unknown"; reason: string };
type StatusAnswer = { kind: "success" | "failed" | "not-found" } | { kind: "unknown"; reason: string };

/** The dashboard's "recent": timeouts and errors of the last 15 minutes. */
export const PROVIDER_FAILURE_WINDOW_MS = 15 * 60 * 1000;
/** Rows kept in D1 (the cron deletes older ones): a week covers the staff alerts' look back and a weekend outage's review. */
export const ATTEMPT_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;
const DETAIL_MAX = 200;

const OK: AttemptResult = { outcome: "ok", errorCode: null, detail: null };

/** No usable answer: a timeout, or an error with a short code staff can group by. */
function noAnswer(reason: string): AttemptResult {
  const detail = reason.slice(0, DETAIL_MAX);
  if (/time[d ]?out|timeout/i.test(reason)) return { outcome: "timeout", errorCode: "TIMEOUT", detail };
  const http = /HTTP[ _]?(\d{3})/.exec(reason);
  // an HTTP status names the error only when it is not an "answer without ..." remark about a 200
  if (http && Number(http[1]) >= 300) return { outcome: "error", errorCode: `HTTP_${http[1]}`, detail };
  if (/setup unreadable|no game provider adapter/i.test(reason)) return { outcome: "error", errorCode: "NO_SETUP", detail };
  if (/network|fetch failed|connect|refused|reset|dns/i.test(reason)) return { outcome: "error", errorCode: "NETWORK", detail };
  if (/unparsable|unreadable|bad answer|unexpected|without|not JSON/i.test(reason)) return { outcome: "error", errorCode: "BAD_ANSWER", detail };
  return { outcome: "error", errorCode: "ERROR", detail };
}

export function transferAttempt(answer: TransferAnswer): AttemptResult {
  if (answer.kind === "ok") return OK;
  if (answer.kind === "refused") return { outcome: "refused", errorCode: answer.code.slice(0, 64), detail: null };
  return noAnswer(answer.reason);
}

export function statusAttempt(answer: StatusAnswer): AttemptResult {
  return answer.kind === "unknown" ? noAnswer(answer.reason) : OK;
}
