import { z } from "zod";
import { authenticateApiToken } from "@workers/services/staff";
import { decideWithdrawal, type StaffDecision } from "@workers/services/withdrawals";
import { apiJson, readBody } from "~/lib/api.server";
import { getAgency, getBindings } from "~/lib/context.server";
import type { Route } from "./+types/staff-withdrawal";

/**
 * Operator API for withdrawals waiting for review (machine to machine, no cookies): approve
 * (hand the payout to the gateway), reject with a reason, or mark paid by hand. The caller
 * shows a token of THIS agency (created by an owner at /admin/api-tokens). The decision
 * goes through the same path as the back office's (the player's wallet judges it): a
 * refused one answers 409 with the order as it stands, never 200. Every use is audited.
 */
const Body = z.object({ reason: z.string().trim().min(1).max(200).optional(), bankReference: z.string().trim().min(1).max(100).optional() });

export async function action({ request, params, context }: Route.ActionArgs) {
  const env = getBindings(context);
  const agency = getAgency(context);
  const caller = await authenticateApiToken(env.DB, agency.id, request.headers.get("Authorization"));
  if (!caller) return apiJson({ error: { code: "UNAUTHORIZED" } }, { status: 401, headers: { "WWW-Authenticate": "Bearer" } });
  const body = Body.safeParse(await readBody(request));
  if (!body.success) return apiJson({ error: { code: "VALIDATION_FAILED" } }, { status: 400 });
  const decision = toDecision(params.op, body.data);
  if ("error" in decision) return apiJson({ error: decision.error }, { status: decision.status });
  const outcome = await decideWithdrawal(env, agency.id, params.code, decision, {
    via: "api",
    agencyId: agency.id,
    staffId: null,
    staffUsername: `api-token:${caller.name}`,
    ip: request.headers.get("CF-Connecting-IP") ?? "local",
    userAgent: request.headers.get("User-Agent"),
  });
  if (!outcome.ok && outcome.code === "NOT_FOUND") return apiJson({ error: { code: "NOT_FOUND" } }, { status: 404 });
  if (!outcome.ok) return apiJson({ error: { code: "WITHDRAWAL_STATE_CONFLICT" }, order: outcome.order }, { status: 409 });
  return apiJson({ result: outcome.repeated ? "duplicate" : "applied", order: outcome.order });
}

function toDecision(op: string, body: z.infer<typeof Body>): StaffDecision | { error: { code: string; field?: string }; status: number } {
  if (op === "approve") return { action: "approve" };
  if (op === "reject") return body.reason ? { action: "reject", reason: body.reason } : { error: { code: "VALIDATION_FAILED", field: "reason" }, status: 400 };
  if (op === "paid")
    return body.bankReference
      ? { action: "paid", bankReference: body.bankReference }
      : { error: { code: "VALIDATION_FAILED", field: "bankReference" }, status: 400 };
  return { error: { code: "NOT_FOUND" }, status: 404 };
}
