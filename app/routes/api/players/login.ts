import { login } from "@workers/services/players";
import { apiError, apiJson, fieldErrors, readBody } from "~/lib/api.server";
import { getAgency, getBindings } from "~/lib/context.server";
import { AUTH_LIMITS, LoginSchema } from "~/lib/schemas/auth";
import { clientOf, readSessionId, sessionCookie } from "~/lib/session.server";
import { deviceCookieHeader, loginDevice } from "~/lib/device.server";
import type { Route } from "./+types/login";

/** docs/product.md §7 `POST /v2/players/login`: same service, same throttling as the login page. */
export async function action({ request, context }: Route.ActionArgs) {
  const parsed = LoginSchema.safeParse(await readBody(request));
  if (!parsed.success) return apiError(context, "VALIDATION_FAILED", 400, { fields: fieldErrors(context, parsed.error, AUTH_LIMITS) });
  const agency = getAgency(context);
  const device = await loginDevice(request, context);
  const outcome = await login(
    getBindings(context).DB,
    agency.id,
    { ...parsed.data, replacesSessionId: await readSessionId(request) },
    { ...clientOf(request), device },
  );
  if (!outcome.ok) {
    if (outcome.code === "TOO_MANY_ATTEMPTS") {
      return apiError(context, "TOO_MANY_ATTEMPTS", 429, { retryAfterSeconds: outcome.retryAfterSeconds });
    }
    if (outcome.code === "ACCOUNT_LOCKED") return apiError(context, "ACCOUNT_LOCKED", 403);
    return apiError(context, "INVALID_CREDENTIALS", 401);
  }
  return apiJson(
    { player: { id: outcome.player.id, displayName: outcome.player.displayName } },
    {
      headers: [
        ["Set-Cookie", await sessionCookie(request, outcome.sessionId)],
        ["Set-Cookie", await deviceCookieHeader(request, context, device, { realm: "player", agencyId: agency.id, username: outcome.player.username })],
      ],
    },
  );
}
