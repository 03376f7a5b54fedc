import { receiveForwardedMessage } from "@workers/services/bank-in";
import { getAgency, getBindings } from "~/lib/context.server";
import type { Route } from "./+types/forwarder";

/**
 * The notification forwarder's endpoint (decision 016): the SmsForwarder app on the agency's
 * phone posts each bank SMS / notification here as a form (from, content, timestamp, sign;
 * its doc/POST_WEB.md). No session, no cookies: the URL token and the signature are the proof.
 */
export async function action({ request, params, context }: Route.ActionArgs) {
  const form = await request.formData().catch(() => null);
  const field = (name: string) => {
    const value = form?.get(name);
    return typeof value === "string" ? value : null;
  };
  const result = await receiveForwardedMessage(getBindings(context), getAgency(context).id, {
    token: params.token,
    from: field("from"),
    content: field("content"),
    timestamp: field("timestamp"),
    sign: field("sign"),
  });
  return Response.json(result.body, { status: result.status, headers: { "Cache-Control": "no-store" } });
}
