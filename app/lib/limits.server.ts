import type { RouterContextProvider } from "react-router";
import { formatAmount } from "@workers/core/money";
import type { Refusal } from "@workers/core/responsible-gaming";
import { errorMessageKey } from "./errors";
import { formatDateTime, formatMoney } from "./format";
import { translate } from "./i18n.server";

/**
 * A responsible-gaming refusal (decision 025) in the player's language: why, and until
 * when (Vientiane time); a deposit limit also says how much is still allowed.
 */
export function limitMessage(context: Readonly<RouterContextProvider>, refusal: Refusal): string {
  const values: Record<string, unknown> = { until: formatDateTime(new Date(refusal.until)) };
  if (refusal.code === "DEPOSIT_LIMIT_REACHED") {
    values.remaining = formatMoney(formatAmount(BigInt(refusal.remainingMinor), "LAK"), "LAK");
    values.period = translate(context, `limits.period.${refusal.period}`);
  }
  if (refusal.code === "PLAY_TIME_LIMIT_REACHED") values.minutes = refusal.minutes;
  return translate(context, errorMessageKey(refusal.code), values);
}

/** The refusal a service result carries beside its error code, if any (deposit: CANNOT_DEPOSIT + limit). */
export function limitOf(result: object): Refusal | null {
  return "limit" in result && result.limit ? (result.limit as Refusal) : null;
}
