import { parseWithZod } from "@conform-to/zod/v4";
import type { RouterContextProvider } from "react-router";
import type { RewardKind } from "@workers/core/reward";
import { retryRewardClaim, type RewardRetryOutcome } from "@workers/services/promotions";
import { getBindings } from "./context.server";
import { translate } from "./i18n.server";
import { RewardRetrySchema } from "./schemas/reward-retry";
import { auditContext, type StaffMember } from "./staff.server";
import { redirectWithToast } from "./toast.server";

const OUTCOME_TOAST: Record<RewardRetryOutcome, "success" | "info" | "error"> = {
  retried: "success",
  "already-applied": "success",
  "not-failed": "info",
  stale: "info",
  "claimed-again": "info",
  unavailable: "error",
  "not-found": "error",
};

/**
 * The retry button of a FAILED reward on the two claims lists (/admin/cashback, /admin/referrals):
 * one service call, then back to the list with the outcome as a toast (Post/Redirect/Get, so it
 * works without JavaScript). `kind` is the list's own: a code of the other list is not found.
 */
export async function rewardRetryAction(
  args: { request: Request; context: Readonly<RouterContextProvider> },
  staff: StaffMember,
  form: FormData,
  kind: RewardKind,
  back: string,
): Promise<Response> {
  const submission = parseWithZod(form, { schema: RewardRetrySchema });
  if (submission.status !== "success") throw new Response("Bad request", { status: 400 });
  const result = await retryRewardClaim(getBindings(args.context), auditContext(args.request, staff), kind, submission.value.code, submission.value.retries);
  const status = result.reward ? translate(args.context, `admin:cashback.status.${result.reward.status}`) : "";
  return redirectWithToast(args, back, {
    type: OUTCOME_TOAST[result.kind],
    message: translate(args.context, `admin:reward.retry.outcome.${result.kind}`, { status }),
  });
}
