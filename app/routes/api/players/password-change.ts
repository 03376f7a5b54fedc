import { changePassword } from "@workers/services/players";
import { apiError, apiJson, fieldErrors, readBody } from "~/lib/api.server";
import { getAgency, getBindings, getPlayer } from "~/lib/context.server";
import { AUTH_LIMITS, ChangePasswordSchema } from "~/lib/schemas/auth";
import { clearSessionCookie, clientOf } from "~/lib/session.server";
import type { Route } from "./+types/password-change";

/** docs/product.md §7 `POST /api/v2/players/security/password/change`. */
export async function action({ request, context }: Route.ActionArgs) {
  const player = getPlayer(context);
  if (!player) return apiError(context, "UNAUTHORIZED", 401);
  const parsed = ChangePasswordSchema.safeParse(await readBody(request));
  if (!parsed.success) return apiError(context, "VALIDATION_FAILED", 400, { fields: fieldErrors(context, parsed.error, AUTH_LIMITS) });
  const outcome = await changePassword(getBindings(context).DB, getAgency(context).id, player, parsed.data, clientOf(request));
  if (!outcome.ok) {
    if (outcome.code === "TOO_MANY_ATTEMPTS") return apiError(context, "TOO_MANY_ATTEMPTS", 429, { retryAfterSeconds: outcome.retryAfterSeconds });
    return apiError(context, "PASSWORD_INCORRECT", 400);
  }
  return apiJson({ ok: true }, { headers: { "Set-Cookie": await clearSessionCookie(request) } });
}
