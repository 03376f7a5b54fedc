import { registerPlayer } from "@workers/services/players";
import { apiError, apiJson, fieldErrors, readBody } from "~/lib/api.server";
import { getAgency, getBindings } from "~/lib/context.server";
import { AUTH_LIMITS, RegisterSchema } from "~/lib/schemas/auth";
import { clientOf } from "~/lib/session.server";
import { errorMessageKey } from "~/lib/errors";
import { getInstance } from "~/middleware/i18next.server";
import { HONEYPOT_FIELD } from "~/components/forms";
import type { Route } from "./+types/register";

/**
 * docs/product.md §7 `POST /v2/players/register`: the fingerprint comes in the body and/or the
 * X-Fingerprint header. `ref` is the referral code, the register form's own field (decision
 * 030): the same schema, the same tie with the same fingerprint, and like the form a code
 * never refuses a registration. The answer says whether the code was taken ("accepted") or
 * not ("invalid"), as the form's toast does, and no more: whether the referral counts is the
 * agency's fraud rule, not the newcomer's business.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const body = await readBody(request);
  if (body[HONEYPOT_FIELD]) return apiError(context, "VALIDATION_FAILED", 400);
  const parsed = RegisterSchema.safeParse({ ...body, fingerprint: body.fingerprint ?? request.headers.get("X-Fingerprint") ?? undefined });
  if (!parsed.success) return apiError(context, "VALIDATION_FAILED", 400, { fields: fieldErrors(context, parsed.error, AUTH_LIMITS) });
  const { username, password, displayName, phone, ref, fingerprint } = parsed.data;
  const outcome = await registerPlayer(
    getBindings(context).DB,
    getAgency(context).id,
    { username, password, displayName, phone, ref, fingerprint },
    clientOf(request),
  );
  if (!outcome.ok) {
    if (outcome.code === "NAME_CHARACTERS") {
      return apiError(context, "VALIDATION_FAILED", 400, { fields: { displayName: [getInstance(context).t(errorMessageKey(outcome.code))] } });
    }
    if (outcome.code === "TOO_MANY_ATTEMPTS") return apiError(context, "TOO_MANY_ATTEMPTS", 429, { retryAfterSeconds: outcome.retryAfterSeconds });
    if (outcome.code === "REGISTRATION_REFUSED") return apiError(context, "REGISTRATION_REFUSED", 403);
    return apiError(context, "USERNAME_EXISTS", 409);
  }
  const referral = outcome.referral === null ? {} : { referral: outcome.referral === "tied" || outcome.referral === "not_counting" ? "accepted" : "invalid" };
  return apiJson({ player: { id: outcome.playerId }, ...referral }, { status: 201 });
}
