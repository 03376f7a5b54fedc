import { payoutQrPicture } from "@workers/services/withdrawals";
import { getBindings } from "~/lib/context.server";
import { requireStaff } from "~/lib/staff.server";
import type { Route } from "./+types/withdrawal-qr";

/** A payment request to one player's account: never kept by a shared cache, nor by the browser once the page is gone. */
const PRIVATE = { "Cache-Control": "private, no-store" };

/**
 * `/admin/withdrawals/<code>/payout-qr.png`: the QR the cashier scans to pay the withdrawal
 * (decision 086), the player's receive QR with the amount inserted or as issued, the amount
 * under it. Staff only; 404 when the order is not this agency's, no longer waits for a
 * decision, or its player gave no QR.
 */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const staff = await requireStaff(request, context);
  const png = await payoutQrPicture(getBindings(context), staff.agencyId, params.code);
  if (!png) return new Response("Not Found", { status: 404, headers: { ...PRIVATE, "Content-Type": "text/plain; charset=utf-8" } });
  return new Response(png, { headers: { ...PRIVATE, "Content-Type": "image/png", "X-Content-Type-Options": "nosniff" } });
}
