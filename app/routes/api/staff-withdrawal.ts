import { z } from "zod";
import { approveWithdrawal, markWithdrawalPaid, rejectWithdrawal } from "../../../workers/services/withdraw";
import { auditApiWithdrawal, currentWithdrawal } from "../../../workers/services/withdraw-review";
import { apiJson, readBody } from "~/lib/api.server";
import { getAgency, getBindings } from "~/lib/context.server";
import type { Route } from "./+types/staff-withdrawal";

/**
 * Operator API for withdrawals waiting for review (machine to machine, no cookies): approve,
 * reject with a reason, or mark paid by hand. Enabled only when STAFF_API_TOKEN is set
 * (a secret; `npm start` writes one to .dev.vars), answered with 404 otherwise. The back
 * office's screens (staff accounts with TOTP and an audit log) call the same services.
 */
const Body = z.object({ reason: z.string().trim().min(1).max(200).optional(), bankReference: z.string().trim().min(1).max(100).optional() });

export async function action({ request, params, context }: Route.ActionArgs) {
  const env = getBindings(context) as Env & { STAFF_API_TOKEN?: string };
  const token = env.STAFF_API_TOKEN ?? "";
  if (token.length < 32) return new Response("Not found", { status: 404 });
  const given = request.headers.get("Authorization")?.replace(/^Bearer\s+/i, "") ?? "";
  if (!(await sameSecret(given, token))) return apiJson({ error: { code: "UNAUTHORIZED" } }, { status: 401 });
  const body = Body.safeParse(await readBody(request));
  if (!body.success) return apiJson({ error: { code: "VALIDATION_FAILED" } }, { status: 400 });
  const agency = getAgency(context);
  const ref = await env.DB.prepare(`SELECT 1 FROM withdraw_refs WHERE code = ?1 AND agency_id = ?2`).bind(params.code, agency.id).first();
  if (!ref) return apiJson({ error: { code: "NOT_FOUND" } }, { status: 404 });
  // Audited like a staff action (who: the API token), with the wallet's before/after.
  const before = await currentWithdrawal(env, agency.id, params.code);
  const audit = (after: Awaited<ReturnType<typeof currentWithdrawal>>, extra: Record<string, unknown>) =>
    auditApiWithdrawal(env, agency.id, params.code, params.op, before, after, request, extra);
  switch (params.op) {
    case "approve": {
      const order = await approveWithdrawal(env, params.code);
      await audit(order, {});
      return apiJson({ order });
    }
    case "reject": {
      if (!body.data.reason) return apiJson({ error: { code: "VALIDATION_FAILED", field: "reason" } }, { status: 400 });
      const order = await rejectWithdrawal(env, params.code, body.data.reason);
      await audit(order, { requestedReason: body.data.reason });
      return apiJson({ order });
    }
    case "paid": {
      if (!body.data.bankReference) return apiJson({ error: { code: "VALIDATION_FAILED", field: "bankReference" } }, { status: 400 });
      const result = await markWithdrawalPaid(env, params.code, body.data.bankReference);
      await audit(result?.order ?? null, { bankReference: body.data.bankReference, result: result?.kind ?? null });
      return apiJson({ result });
    }
    default:
      return apiJson({ error: { code: "NOT_FOUND" } }, { status: 404 });
  }
}

/** Compares HMACs of both values: equal length, constant time. */
async function sameSecret(a: string, b: string): Promise<boolean> {
  const key = await crypto.subtle.importKey("raw", crypto.getRandomValues(new Uint8Array(32)), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const [x, y] = await Promise.all([a, b].map((v) => crypto.subtle.sign("HMAC", key, new TextEncoder().encode(v))));
  const ux = new Uint8Array(x);
  const uy = new Uint8Array(y);
  let diff = 0;
  for (let i = 0; i < ux.length; i++) diff |= ux[i] ^ uy[i];
  return diff === 0;
}
