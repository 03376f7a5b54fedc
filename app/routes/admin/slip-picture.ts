import { slipPicture } from "@workers/services/bank-in";
import { getBindings } from "~/lib/context.server";
import { requireStaff } from "~/lib/staff.server";
import type { Route } from "./+types/slip-picture";

/**
 * `GET /admin/slips/<id>`: the picture of a player's transfer slip (decision 087), to the staff of
 * its agency only: the payer's bank screen (names, accounts) is never public, never cached.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const staff = await requireStaff(request, context);
  const picture = await slipPicture(getBindings(context), staff.agencyId, params.id);
  if (!picture)
    return new Response("Not found", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8", "X-Content-Type-Options": "nosniff" } });
  return new Response(picture.body, {
    headers: {
      "Content-Type": picture.contentType,
      "Content-Length": String(picture.size),
      "Cache-Control": "private, no-store",
      "Content-Disposition": "inline",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
