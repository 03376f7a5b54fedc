import { checkIn, checkinPage, claimStreak, type CheckinClaimResult } from "@workers/services/promotions";
import { apiError, apiErrorOf, apiJson, apiPlayer, readBody } from "~/lib/api.server";
import { getAgency, getBindings } from "~/lib/context.server";
import { CheckinClaimSchema } from "~/lib/schemas/checkin";
import type { Route } from "./+types/checkin";

/**
 * Check-in and deposit-streak rewards as data (decision 095): GET (either path) is the status
 * the page shows (`offer` null and `offersPaused: { reason, until }` while offers are paused);
 * POST /rewards/checkin checks in, POST /rewards/streak claims the streak, each `{ provider }`.
 * Errors in the spec's style (`{ error: { code, message } }`): `OFFERS_PAUSED` 409 with its
 * reason and end, a refusal 409 by its code (`REWARD_HELD` and `REWARD_REFUSED` too: nothing credited
 * yet), a provider outside the agency's 400, a credit the provider refused 502.
 */
export async function loader({ context }: Route.LoaderArgs) {
  const { player, error } = apiPlayer(context);
  if (error) return error;
  const page = await checkinPage(getBindings(context), getAgency(context), player);
  return apiJson({
    offer: page.offer,
    offersPaused: page.paused && { reason: page.paused.reason, until: new Date(page.paused.until).toISOString() },
    history: page.history.map((r) => ({ ...r, createdAt: new Date(r.createdAt).toISOString(), settledAt: r.settledAt && new Date(r.settledAt).toISOString() })),
  });
}

export async function action({ request, context }: Route.ActionArgs) {
  const { player, error } = apiPlayer(context);
  if (error) return error;
  const parsed = CheckinClaimSchema.safeParse({ provider: (await readBody(request)).provider });
  if (!parsed.success) return apiError(context, "VALIDATION_FAILED", 400, { field: "provider" });
  const claim = new URL(request.url).pathname.endsWith("/streak") ? claimStreak : checkIn;
  return answer(context, await claim(getBindings(context), getAgency(context), player, parsed.data));
}

function answer(context: Route.ActionArgs["context"], result: CheckinClaimResult): Response {
  if (result.ok) return apiJson({ reward: result.reward }, { status: result.repeated ? 200 : 201 });
  switch (result.error) {
    case "OFFERS_PAUSED":
      return apiError(context, "OFFERS_PAUSED", 409, { reason: result.pause.reason, until: new Date(result.pause.until).toISOString() });
    case "PROVIDER_REQUIRED":
      return apiError(context, "VALIDATION_FAILED", 400, { field: "provider" });
    case "REWARD_CREDIT_FAILED":
      return apiErrorOf(context, result.error, `checkin.errors.${result.error}`, 502);
    default:
      // the page's refusals, worded with its keys (not lib/errors.ts: see apiErrorOf)
      return apiErrorOf(context, result.error, `checkin.errors.${result.error}`, 409);
  }
}
