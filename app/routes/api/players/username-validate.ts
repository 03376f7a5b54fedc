import { checkUsernameAvailability } from "@workers/services/players";
import { clientOf } from "~/lib/session.server";
import { apiError, apiJson, fieldErrors, readBody } from "~/lib/api.server";
import { getAgency, getBindings } from "~/lib/context.server";
import { AUTH_LIMITS, UsernameValidateSchema } from "~/lib/schemas/auth";
import type { Route } from "./+types/username-validate";

/** docs/product.md §7 `POST /v2/players/username/validate` `{ username }` -> `{ username, available }`. */
export async function action({ request, context }: Route.ActionArgs) {
  const parsed = UsernameValidateSchema.safeParse(await readBody(request));
  if (!parsed.success) return apiError(context, "VALIDATION_FAILED", 400, { fields: fieldErrors(context, parsed.error, AUTH_LIMITS) });
  const checked = await checkUsernameAvailability(getBindings(context).DB, getAgency(context).id, parsed.data.username, clientOf(request));
  if (!checked.ok) return apiError(context, "TOO_MANY_ATTEMPTS", 429, { retryAfterSeconds: checked.retryAfterSeconds });
  return apiJson({ username: parsed.data.username, available: checked.available });
}
