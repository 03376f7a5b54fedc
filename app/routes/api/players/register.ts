import { registerPlayer } from "../../../../workers/services/auth";
import { apiError, apiJson, fieldErrors, readBody } from "~/lib/api.server";
import { getAgency, getBindings } from "~/lib/context.server";
import { AUTH_LIMITS, RegisterSchema } from "~/lib/schemas/auth";
import { clientOf } from "~/lib/session.server";
import { errorMessageKey } from "~/lib/errors";
import { getInstance } from "~/middleware/i18next.server";
import { HONEYPOT_FIELD } from "~/components/forms";
import type { Route } from "./+types/register";

/** SPEC §7 `POST /v2/players/register`: the fingerprint comes in the body and/or the X-Fingerprint header. */
export async function action({ request, context }: Route.ActionArgs) {
  const body = await readBody(request);
  if (body[HONEYPOT_FIELD]) return apiError(context, "VALIDATION_FAILED", 400);
  const parsed = RegisterSchema.safeParse({ ...body, fingerprint: body.fingerprint ?? request.headers.get("X-Fingerprint") ?? undefined });
  if (!parsed.success) return apiError(context, "VALIDATION_FAILED", 400, { fields: fieldErrors(context, parsed.error, AUTH_LIMITS) });
  const { username, password, displayName, phone } = parsed.data;
  const outcome = await registerPlayer(getBindings(context).DB, getAgency(context).id, { username, password, displayName, phone }, clientOf(request));
  if (!outcome.ok) {
    if (outcome.code === "NAME_CHARACTERS") {
      return apiError(context, "VALIDATION_FAILED", 400, { fields: { displayName: [getInstance(context).t(errorMessageKey(outcome.code))] } });
    }
    if (outcome.code === "TOO_MANY_ATTEMPTS") return apiError(context, "TOO_MANY_ATTEMPTS", 429, { retryAfterSeconds: outcome.retryAfterSeconds });
    return apiError(context, "USERNAME_EXISTS", 409);
  }
  return apiJson({ player: { id: outcome.playerId } }, { status: 201 });
}
