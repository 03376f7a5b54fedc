import { handlePaymentWebhook } from "@workers/services/bank-in";
import { getBindings } from "~/lib/context.server";
import type { Route } from "./+types/payment-webhook";

/** The gateway's signed payment confirmation (no session, no cookies: the signature is the proof). */
export async function action({ request, context }: Route.ActionArgs) {
  const result = await handlePaymentWebhook(getBindings(context), request);
  return Response.json(result.body, { status: result.status, headers: { "Cache-Control": "no-store" } });
}
