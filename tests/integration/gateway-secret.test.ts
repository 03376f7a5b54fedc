import { beforeAll, describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { seedDemo, shownOf } from "../setup/seed";
import type { AuditActor } from "../../workers/db/audit";
import { changeSettings, type ChannelInput } from "../../workers/services/agency";
import { handlePaymentWebhook } from "../../workers/services/bank-in";
import { createStaff, staffLogin } from "../setup/staff";
import worker from "../../workers/app";
import { serializeLanguageCookie } from "../../app/middleware/i18next.server";

/**
 * GATEWAY_WEBHOOK_SECRET is no longer required of every agency (an agency
 * paid into its own account has no gateway to sign anything). Instead a gateway channel is
 * refused while the secret is unset, and the webhook still refuses every delivery then.
 */

const owner: AuditActor = { agencyId: "demo", staffId: "s-owner", staffUsername: "boss", ip: "10.82.0.1", userAgent: "vitest" };
/** A deployed agency without the secret: no gateway secret, and no sandbox bank either. */
const unset = { ...env, GATEWAY_WEBHOOK_SECRET: undefined, SANDBOX_WEBHOOK_SECRET: undefined } as unknown as Env;
const channel = (over: Partial<ChannelInput> = {}): ChannelInput => ({
  intent: "channel",
  code: "GW-NEW",
  mid: "GW0001",
  displayName: "Gateway",
  currency: "LAK",
  bankCode: "LDB",
  merchantName: "DEMO AGENCY",
  merchantCity: "VIENTIANE",
  active: "on",
  ...over,
});
const channelRow = (code: string) => env.DB.prepare(`SELECT code, active FROM payment_channels WHERE agency_id = 'demo' AND code = ?1`).bind(code).first();

beforeAll(seedDemo);

describe("a gateway channel while GATEWAY_WEBHOOK_SECRET is unset", () => {
  it("is refused, created or edited, and nothing is written", async () => {
    expect(await changeSettings(unset, owner, channel())).toEqual({ ok: false, code: "GATEWAY_SECRET_UNSET" });
    expect(await channelRow("GW-NEW")).toBeNull();
    expect(await changeSettings(unset, owner, channel({ existing: "1", code: "BCEL-QR", displayName: "changed" }))).toEqual({
      ok: false,
      code: "GATEWAY_SECRET_UNSET",
    });
    expect(await env.DB.prepare(`SELECT display_name AS d FROM payment_channels WHERE agency_id = 'demo' AND code = 'BCEL-QR'`).first()).not.toEqual({
      d: "changed",
    });
  });

  it("cannot be switched on; switching one off is still allowed", async () => {
    expect(await changeSettings(unset, owner, { intent: "channel-active", code: "BCEL-QR", active: "0" })).toEqual({ ok: true });
    expect(await changeSettings(unset, owner, { intent: "channel-active", code: "BCEL-QR", active: "1" })).toEqual({ ok: false, code: "GATEWAY_SECRET_UNSET" });
    expect(await channelRow("BCEL-QR")).toEqual({ code: "BCEL-QR", active: 0 });
  });

  it("is saved once the secret is set", async () => {
    expect(await changeSettings(env, owner, channel())).toEqual({ ok: true });
    expect(await changeSettings(env, owner, { intent: "channel-active", code: "BCEL-QR", active: "1" })).toEqual({ ok: true });
  });
});

describe("the payment webhook while the secret is unset", () => {
  it("refuses every delivery, even one signed with a value that would have been right", async () => {
    const event = {
      event: "payment.succeeded",
      reference: "D000000AAAAA",
      transactionId: "T1",
      amount: "100000",
      currency: "LAK",
      paidAt: new Date().toISOString(),
    };
    const raw = JSON.stringify(event);
    const t = Math.floor(Date.now() / 1000);
    const key = await crypto.subtle.importKey("raw", new TextEncoder().encode(env.SANDBOX_WEBHOOK_SECRET), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
    const v1 = [...new Uint8Array(await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(`${t}.${raw}`)))]
      .map((b) => b.toString(16).padStart(2, "0"))
      .join("");
    const request = new Request("http://localhost/api/v2/payments/webhook", {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Sandbox-Signature": `t=${t},v1=${v1}` },
      body: raw,
    });
    const result = await handlePaymentWebhook(unset, request);
    expect(result.status).toBe(503);
  });
});

describe("the settings page while the secret is unset", () => {
  it("says why a new gateway channel is not saved, in the staff's language", async () => {
    await createStaff(env, { agencyId: "demo", username: "gw-owner", password: "gw-owner-pass-1", role: "owner" }).then((o) =>
      staffLogin(env, { username: "gw-owner", password: "gw-owner-pass-1", totpSecret: o.totpSecret }).then((cookie) => (ownerCookie = cookie)),
    );
    const ctx = { waitUntil() {}, passThroughOnException() {}, props: {} } as unknown as ExecutionContext;
    const body = new URLSearchParams({
      intent: "channel",
      code: "GW-PAGE",
      mid: "GW0002",
      displayName: "Gateway",
      currency: "LAK",
      bankCode: "LDB",
      merchantName: "DEMO AGENCY",
      merchantCity: "VIENTIANE",
      active: "on",
    });
    const post = async (lng: "lo" | "cn" | "vn") =>
      worker.fetch!(
        new Request("http://localhost/admin/settings", {
          method: "POST",
          headers: {
            Origin: "http://localhost",
            "Content-Type": "application/x-www-form-urlencoded",
            Cookie: `${ownerCookie}; ${(await serializeLanguageCookie(lng, false)).split(";")[0]}`,
          },
          body,
        }) as never,
        unset,
        ctx,
      );
    const lo = await post("lo");
    expect(lo.status).toBe(409);
    expect(await shownOf(lo)).toContain("GATEWAY_WEBHOOK_SECRET");
    expect(await shownOf(await post("cn"))).toContain("无法保存或启用支付网关渠道");
    expect(await shownOf(await post("vn"))).toContain("Không thể lưu hoặc bật kênh của cổng thanh toán");
    expect(await channelRow("GW-PAGE")).toBeNull();
  }, 60_000);
});

let ownerCookie = "";
