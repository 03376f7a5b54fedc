import { beforeAll, describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { parseWithZod } from "@conform-to/zod/v4";
import { fetchApp, seedDemo } from "../setup/seed";
import { postForm } from "../setup/players";
import { createStaff, staffLogin } from "../setup/staff";
import { playerWithBank, postDeposit, openOrder } from "../setup/money";
import {
  clearProviderCredentials,
  findAgencyByHost,
  loadSettings,
  readProviderCredentials,
  saveChannel,
  setChannelActive,
  setEnabledProviders,
  setExchangeRate,
  setLimits,
  setProfile,
  setProviderCredentials,
} from "../../workers/services/agency";
import type { AuditActor } from "../../workers/db/audit";
import { createPromotion, getPromotion, listPromotions, setPromotionStatus, updatePromotion, type PromotionInput } from "../../workers/services/promotions";
import { ChannelSchema, LimitsSchema, RateSchema } from "../../app/lib/schemas/admin-settings";
import { PromotionSchema } from "../../app/lib/schemas/admin-promotion";
import { creditRate } from "../../workers/services/wallets";

const KEY = (env as unknown as { CREDENTIALS_KEY: string }).CREDENTIALS_KEY;
const owner: AuditActor = { agencyId: "demo", staffId: "s-owner", staffUsername: "boss", ip: "10.77.0.1", userAgent: "vitest" };
const otherOwner: AuditActor = { agencyId: "other", staffId: "s-other", staffUsername: "rival", ip: "10.77.0.2", userAgent: "vitest" };

beforeAll(async () => {
  await seedDemo();
  await env.DB.batch([
    env.DB.prepare(`INSERT INTO agencies (id, name) VALUES ('other', 'Other Agency')`),
    env.DB.prepare(`INSERT INTO agency_domains (host, agency_id) VALUES ('other.localhost', 'other')`),
    env.DB.prepare(`INSERT INTO agency_settings (agency_id, enabled_providers) VALUES ('other', '["gclub"]')`),
    env.DB.prepare(`INSERT INTO exchange_rates (agency_id, currency, buy, sell) VALUES ('other', 'THB', '500', '510')`),
  ]);
});

function form(fields: Record<string, string | string[]>) {
  const fd = new FormData();
  for (const [k, v] of Object.entries(fields)) for (const one of [v].flat()) fd.append(k, one);
  return fd;
}

/** The field errors of a failed parse (undefined when it succeeded). */
function errorsOf(submission: { status?: string } & object): Record<string, string[] | null> | undefined {
  return submission.status === "error" ? ((submission as { error?: Record<string, string[] | null> }).error ?? undefined) : undefined;
}

async function auditRows(agencyId: string, action: string) {
  const { results } = await env.DB.prepare(`SELECT * FROM audit_log WHERE agency_id = ?1 AND action = ?2 ORDER BY id`)
    .bind(agencyId, action)
    .all<Record<string, string | null>>();
  return results;
}

describe("exchange rates", () => {
  it("replaces the current rate, keeps every change in history with who made it, and audits before/after", async () => {
    expect((await setExchangeRate(env.DB, owner, { intent: "rate", currency: "THB", buy: "590", sell: "610.5" })).ok).toBe(true);
    expect((await setExchangeRate(env.DB, owner, { intent: "rate", currency: "THB", buy: "595.000000", sell: "615" })).ok).toBe(true);
    const settings = await loadSettings(env.DB, "demo");
    expect(settings.rates).toEqual([expect.objectContaining({ currency: "THB", buy: "595", sell: "615" })]);
    expect(settings.rateHistory.slice(0, 2).map((h) => [h.buy, h.sell, h.changedBy])).toEqual([
      ["595", "615", "boss"],
      ["590", "610.5", "boss"],
    ]);
    // The deposit path reads the new rate.
    const rate = await creditRate(env.DB, "demo");
    expect(rate?.sell).toBe(615_000000n);
    const audit = await auditRows("demo", "settings.rate");
    expect(audit).toHaveLength(2);
    expect(JSON.parse(audit[0].before_json!)).toEqual({ currency: "THB", buy: "580", sell: "600" });
    expect(JSON.parse(audit[1].after_json!)).toEqual({ currency: "THB", buy: "595", sell: "615" });
    expect(audit[1]).toMatchObject({ staff_id: "s-owner", staff_username: "boss", ip: "10.77.0.1", user_agent: "vitest", target: "THB" });
  });

  it("a new deposit order is priced with the rate the owner set", async () => {
    expect(await setExchangeRate(env.DB, owner, { intent: "rate", currency: "THB", buy: "580", sell: "500" })).toEqual({
      ok: false,
      code: "RATE_BUY_ABOVE_SELL",
      field: "buy",
    });
    expect(await setExchangeRate(env.DB, owner, { intent: "rate", currency: "THB", buy: "480", sell: "500" })).toEqual({ ok: true });
    const p = await playerWithBank();
    expect((await postDeposit(p.cookie, { amount: "50000", provider: "betflix" })).status).toBe(302);
    expect(await openOrder(p.cookie)).toMatchObject({ amount: "50000.00", credit: "100.00" });
  });

  it("refuses a buy rate above the sell rate, zero, negatives and floats in exponent form", () => {
    const bad = (buy: string, sell: string) => parseWithZod(form({ intent: "rate", currency: "THB", buy, sell }), { schema: RateSchema }).status;
    expect(bad("601", "600")).toBe("error");
    expect(bad("0", "600")).toBe("error");
    expect(bad("-1", "600")).toBe("error");
    expect(bad("6e2", "600")).toBe("error");
    expect(bad("1.1234567", "600")).toBe("error");
    expect(bad("580", "600")).toBe("success");
    expect(parseWithZod(form({ intent: "rate", currency: "LAK", buy: "1", sell: "1" }), { schema: RateSchema }).status).toBe("error");
  });
});

describe("limits and the auto-payout threshold", () => {
  const limits = (over: Record<string, string> = {}) =>
    parseWithZod(
      form({ intent: "limits", depositMin: "20000", depositMax: "1000000", withdrawMin: "50", withdrawMax: "20000", withdrawAutoMax: "3000", ...over }),
      { schema: LimitsSchema },
    );

  it("validates min < max and the threshold within the withdraw maximum", () => {
    expect(limits().status).toBe("success");
    expect(errorsOf(limits({ depositMin: "1000000" }))?.depositMax).toEqual(["admin:settings.validation.minBelowMax"]);
    expect(errorsOf(limits({ withdrawMin: "30000" }))?.withdrawMax).toEqual(["admin:settings.validation.minBelowMax"]);
    expect(errorsOf(limits({ withdrawAutoMax: "20000.01" }))?.withdrawAutoMax).toEqual(["admin:settings.validation.autoAboveMax"]);
    expect(limits({ depositMin: "0" }).status).toBe("error");
    expect(limits({ depositMin: "100.5" }).status).toBe("error"); // whole kip
    expect(limits({ withdrawAutoMax: "0" }).status).toBe("success"); // 0 = every payout reviewed
  });

  it("stores them (the agency resolution reads them) and audits before/after", async () => {
    const parsed = limits();
    if (parsed.status !== "success") throw new Error("invalid");
    expect((await setLimits(env.DB, owner, parsed.value)).ok).toBe(true);
    const agency = await findAgencyByHost(env.DB, "localhost");
    expect(agency?.limits).toEqual({ depositMin: "20000", depositMax: "1000000", withdrawMin: "50", withdrawMax: "20000", withdrawAutoMax: "3000" });
    const [audit] = await auditRows("demo", "settings.limits");
    expect(JSON.parse(audit.before_json!)).toMatchObject({ depositMin: "10000", withdrawAutoMax: "5000" });
    expect(JSON.parse(audit.after_json!)).toMatchObject({ depositMin: "20000", withdrawAutoMax: "3000" });
    // other agency untouched
    expect((await findAgencyByHost(env.DB, "other.localhost"))?.limits.depositMin).toBe("10000");
  });
});

describe("payment channels", () => {
  const channel = (over: Record<string, string> = {}) => {
    const parsed = parseWithZod(
      form({
        intent: "channel",
        code: "ldb-qr",
        mid: "LDB0001",
        displayName: "LDB QR",
        currency: "LAK",
        bankCode: "LDB",
        merchantName: "DEMO AGENCY",
        merchantCity: "VIENTIANE",
        active: "on",
        ...over,
      }),
      { schema: ChannelSchema },
    );
    if (parsed.status !== "success") throw new Error(JSON.stringify(parsed.error));
    return parsed.value;
  };

  it("creates (code upper-cased, IIN from the bank), refuses a duplicate code, updates, deactivates; players see active ones only", async () => {
    expect(await saveChannel(env.DB, owner, channel())).toEqual({ ok: true });
    expect(await saveChannel(env.DB, owner, channel())).toEqual({ ok: false, code: "CHANNEL_EXISTS", field: "code" });
    const row = await env.DB.prepare(`SELECT iin, currency, active FROM payment_channels WHERE agency_id = 'demo' AND code = 'LDB-QR'`).first();
    expect(row).toEqual({ iin: "70030418", currency: "LAK", active: 1 });
    expect(await saveChannel(env.DB, owner, channel({ existing: "1", displayName: "LDB OnePay" }))).toEqual({ ok: true });
    expect(await setChannelActive(env.DB, owner, "LDB-QR", false)).toEqual({ ok: true });
    const settings = await loadSettings(env.DB, "demo");
    expect(settings.channels.find((c) => c.code === "LDB-QR")).toMatchObject({ displayName: "LDB OnePay", active: false });
    const { listActivePaymentChannels: listPaymentChannels } = await import("../../workers/db/payments");
    expect((await listPaymentChannels(env.DB, "demo")).map((c) => c.code)).toEqual(["BCEL-QR"]);
    expect((await auditRows("demo", "settings.channel.create")).length).toBe(1);
    expect((await auditRows("demo", "settings.channel.update")).length).toBe(1);
    expect((await auditRows("demo", "settings.channel.deactivate")).length).toBe(1);
  });

  it("two staff creating the same code at once: one channel, one audit row", async () => {
    const results = await Promise.all([
      saveChannel(env.DB, owner, channel({ code: "RACE" })),
      saveChannel(env.DB, owner, channel({ code: "RACE", mid: "OTHER" })),
    ]);
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect((await auditRows("demo", "settings.channel.create")).filter((r) => r.target === "RACE")).toHaveLength(1);
  });

  it("refuses EMV-invalid fields and another currency", () => {
    const status = (over: Record<string, string>) =>
      parseWithZod(
        form({ intent: "channel", code: "X1", mid: "M", displayName: "d", currency: "LAK", bankCode: "BCEL", merchantName: "n", merchantCity: "c", ...over }),
        { schema: ChannelSchema },
      ).status;
    expect(status({})).toBe("success");
    expect(status({ currency: "THB" })).toBe("error");
    expect(status({ merchantName: "x".repeat(26) })).toBe("error");
    expect(status({ merchantCity: "x".repeat(16) })).toBe("error");
    expect(status({ bankCode: "NOPE" })).toBe("error");
    expect(status({ code: "has space" })).toBe("error");
  });

  it("cannot touch another agency's channel", async () => {
    expect(await setChannelActive(env.DB, otherOwner, "BCEL-QR", false)).toEqual({ ok: false, code: "CHANNEL_NOT_FOUND" });
    expect(await saveChannel(env.DB, otherOwner, channel({ code: "BCEL-QR", existing: "1" }))).toEqual({ ok: false, code: "CHANNEL_NOT_FOUND" });
    expect((await env.DB.prepare(`SELECT active FROM payment_channels WHERE agency_id = 'demo' AND code = 'BCEL-QR'`).first())?.active).toBe(1);
  });
});

describe("providers and their credentials", () => {
  it("enables a subset of the known providers, audited", async () => {
    expect(await setEnabledProviders(env.DB, owner, ["gclub", "askmebet"])).toEqual({ ok: true });
    expect((await findAgencyByHost(env.DB, "localhost"))?.enabledProviders).toEqual(["askmebet", "gclub"]);
    expect((await setEnabledProviders(env.DB, owner, [])).ok).toBe(false);
    expect((await setEnabledProviders(env.DB, owner, ["askmebet", "evil"])).ok).toBe(false);
    const [audit] = await auditRows("demo", "settings.providers");
    expect(JSON.parse(audit.after_json!)).toEqual({ providers: ["askmebet", "gclub"] });
    await setEnabledProviders(env.DB, owner, ["askmebet", "betflix", "gclub", "gclub_live", "alphabet"]);
  });

  it("stores credentials encrypted, never returns them, never audits them, and binds the ciphertext to its agency", async () => {
    const secret = "very-secret-provider-key-42";
    const agent = "agencyagent77";
    expect(await setProviderCredentials(env.DB, KEY, owner, { intent: "credentials", provider: "betflix", agent, secret })).toEqual({ ok: true });
    const row = await env.DB.prepare(`SELECT * FROM provider_credentials WHERE agency_id = 'demo' AND provider = 'betflix'`).first<Record<string, string>>();
    expect(JSON.stringify(row)).not.toContain(secret);
    expect(JSON.stringify(row)).not.toContain(agent);
    expect(row!.secret_ciphertext).toMatch(/^v1\.[A-Za-z0-9+/=]+\.[A-Za-z0-9+/=]+$/);
    // The screen gets only the date.
    const settings = await loadSettings(env.DB, "demo");
    expect(JSON.stringify(settings)).not.toContain(secret);
    expect(JSON.stringify(settings)).not.toContain(agent);
    expect(settings.credentials.find((c) => c.provider === "betflix")?.setAt).toMatch(/^\d{4}-/);
    expect(settings.credentials.find((c) => c.provider === "gclub")?.setAt).toBeNull();
    // The audit log says "set", nothing more.
    const audit = await auditRows("demo", "settings.credentials.set");
    expect(JSON.stringify(audit)).not.toContain(secret);
    expect(JSON.stringify(audit)).not.toContain(agent);
    // A server-side adapter can read them back with the key...
    expect(await readProviderCredentials(env.DB, KEY, "demo", "betflix")).toEqual({ agent, secret });
    // ...not with another key, and not once copied into another agency's row.
    expect(await readProviderCredentials(env.DB, btoa("x".repeat(32)), "demo", "betflix")).toBeNull();
    await env.DB.prepare(`INSERT INTO provider_credentials (agency_id, provider, agent, secret_ciphertext) VALUES ('other', 'betflix', 'x', ?1)`)
      .bind(row!.secret_ciphertext)
      .run();
    expect(await readProviderCredentials(env.DB, KEY, "other", "betflix")).toBeNull();
    // Two encryptions of the same value differ (fresh IV).
    await setProviderCredentials(env.DB, KEY, owner, { intent: "credentials", provider: "betflix", agent, secret });
    const again = await env.DB.prepare(`SELECT secret_ciphertext FROM provider_credentials WHERE agency_id = 'demo' AND provider = 'betflix'`).first<{
      secret_ciphertext: string;
    }>();
    expect(again!.secret_ciphertext).not.toBe(row!.secret_ciphertext);
    // Clearing removes them, audited.
    expect(await clearProviderCredentials(env.DB, owner, "betflix")).toEqual({ ok: true });
    expect(await readProviderCredentials(env.DB, KEY, "demo", "betflix")).toBeNull();
    expect(await auditRows("demo", "settings.credentials.clear")).toHaveLength(1);
  });

  it("refuses to store credentials without a valid CREDENTIALS_KEY", async () => {
    await expect(
      setProviderCredentials(env.DB, undefined, owner, { intent: "credentials", provider: "gclub", agent: "a", secret: "12345678" }),
    ).rejects.toThrow(/CREDENTIALS_KEY/);
    expect(await env.DB.prepare(`SELECT 1 FROM provider_credentials WHERE agency_id = 'demo' AND provider = 'gclub'`).first()).toBeNull();
  });
});

describe("social links and fallback language", () => {
  it("updates them for this agency only, audited", async () => {
    expect(
      await setProfile(env.DB, owner, {
        intent: "profile",
        fallbackLanguage: "vn",
        telegram: "https://t.me/new_demo",
        whatsapp: undefined,
        facebook: undefined,
        twitter: undefined,
        line: undefined,
      }),
    ).toEqual({ ok: true });
    const agency = await findAgencyByHost(env.DB, "localhost");
    expect(agency?.fallbackLanguage).toBe("vn");
    expect(agency?.social).toEqual({ telegram: "https://t.me/new_demo", whatsapp: null, facebook: null, twitter: null, line: null });
    expect((await findAgencyByHost(env.DB, "other.localhost"))?.fallbackLanguage).toBe("lo");
    const [audit] = await auditRows("demo", "settings.profile");
    expect(JSON.parse(audit.before_json!)).toMatchObject({ fallbackLanguage: "lo", telegram: "https://t.me/demo_agency" });
    await setProfile(env.DB, owner, {
      intent: "profile",
      fallbackLanguage: "lo",
      telegram: "https://t.me/demo_agency",
      whatsapp: undefined,
      facebook: undefined,
      twitter: undefined,
      line: undefined,
    });
  });
});

describe("promotions", () => {
  const fields = (over: Record<string, string | string[]> = {}) => ({
    titleLo: "ໂບນັດ 10%",
    titleCn: "奖金 10%",
    titleVn: "Thưởng 10%",
    descriptionLo: "ລາຍລະອຽດ",
    bonusKind: "PERCENT",
    bonusValue: "10",
    bonusCap: "500",
    creditThreshold: "10",
    turnoverMultiple: "3",
    providers: ["askmebet", "betflix"],
    status: "ACTIVE",
    sortOrder: "1",
    ...over,
  });
  const parse = (over: Record<string, string | string[]> = {}) => parseWithZod(form(fields(over)), { schema: PromotionSchema });
  const valid = (over: Record<string, string | string[]> = {}): PromotionInput => {
    const p = parse(over);
    if (p.status !== "success") throw new Error(JSON.stringify(p.error));
    return p.value;
  };

  it("validates every rule: lo title, PERCENT needs a cap, FIXED has none, decimal strings, providers", () => {
    expect(parse().status).toBe("success");
    expect(errorsOf(parse({ titleLo: "" }))?.titleLo).toEqual(["admin:promotions.validation.titleLo"]);
    expect(errorsOf(parse({ bonusCap: "" }))?.bonusCap).toEqual(["admin:promotions.validation.capRequired"]);
    expect(errorsOf(parse({ bonusKind: "FIXED", bonusValue: "100" }))?.bonusCap).toEqual(["admin:promotions.validation.capPercentOnly"]);
    expect(parse({ bonusKind: "FIXED", bonusValue: "100", bonusCap: "" }).status).toBe("success");
    expect(parse({ bonusValue: "0" }).status).toBe("error");
    expect(parse({ bonusValue: "1e3" }).status).toBe("error");
    expect(parse({ bonusValue: "10.123" }).status).toBe("error");
    expect(errorsOf(parse({ bonusValue: "1000.01" }))?.bonusValue).toEqual(["admin:promotions.validation.percentMax"]);
    expect(parse({ setAmount: "100.5" }).status).toBe("error");
    expect(parse({ setAmount: "0" }).status).toBe("error");
    expect(parse({ creditThreshold: "-1" }).status).toBe("error");
    expect(parse({ maxWithdrawCredit: "0" }).status).toBe("error");
    expect(parse({ providers: [] }).status).toBe("error");
    expect(parse({ providers: ["nope"] }).status).toBe("error");
    expect(parse({ status: "DELETED" }).status).toBe("error");
    expect(parse({ imageUrlLo: "javascript:alert(1)" }).status).toBe("error");
    expect(parse({ imageUrlLo: '/x.svg"onerror="x' }).status).toBe("error");
    expect(errorsOf(parse({ imageUrlCn: "/cn.svg" }))?.imageUrlLo).toEqual(["admin:promotions.validation.imageLoFirst"]);
  });

  it("creates a promotion in the 0007 shape (languages left empty are left out), audited", async () => {
    const created = await createPromotion(
      env.DB,
      owner,
      valid({ titleVn: "", setAmount: "100000", firstOrderOnly: "on", maxWithdrawCredit: "2000", withdrawAll: "on" }),
    );
    if (!created.ok) throw new Error(created.code);
    const row = await env.DB.prepare(`SELECT * FROM promotions WHERE id = ?1`).bind(created.id).first<Record<string, unknown>>();
    expect(JSON.parse(row!.title as string)).toEqual({ lo: "ໂບນັດ 10%", cn: "奖金 10%" });
    expect(JSON.parse(row!.description as string)).toEqual({ lo: "ລາຍລະອຽດ" });
    expect(row).toMatchObject({
      agency_id: "demo",
      bonus_kind: "PERCENT",
      bonus_value: "10",
      bonus_cap: "500",
      set_amount: "100000",
      first_order_only: 1,
      credit_threshold: "10",
      turnover_multiple: "3",
      max_withdraw_credit: "2000",
      withdraw_all: 1,
      status: "ACTIVE",
      sort_order: 1,
    });
    expect(JSON.parse(row!.providers as string)).toEqual(["askmebet", "betflix"]);
    const [audit] = (await auditRows("demo", "promotion.create")).filter((a) => a.target === created.id);
    expect(JSON.parse(audit.after_json!)).toMatchObject({ id: created.id, bonus_kind: "PERCENT", title: { lo: "ໂບນັດ 10%" } });
  });

  it("banners: one URL for every language, or one per language the player pages read", async () => {
    const { getPlayerPromotion: playerPromotion } = await import("../../workers/services/promotions");
    const { localize } = await import("../../workers/core/promotion");
    const single = await createPromotion(env.DB, owner, valid({ imageUrlLo: "/promotions/daily-10.svg" }));
    const perLanguage = await createPromotion(env.DB, owner, valid({ imageUrlLo: "/lo.svg", imageUrlVn: "https://cdn.example/vn.png" }));
    if (!single.ok || !perLanguage.ok) throw new Error("create failed");
    expect((await env.DB.prepare(`SELECT image_url FROM promotions WHERE id = ?1`).bind(single.id).first())?.image_url).toBe("/promotions/daily-10.svg");
    expect(
      JSON.parse((await env.DB.prepare(`SELECT image_url FROM promotions WHERE id = ?1`).bind(perLanguage.id).first<{ image_url: string }>())!.image_url),
    ).toEqual({ lo: "/lo.svg", vn: "https://cdn.example/vn.png" });
    const seen = (await playerPromotion(env.DB, "demo", perLanguage.id))!;
    expect(["lo", "cn", "vn"].map((lng) => localize(seen.imageUrl!, lng))).toEqual(["/lo.svg", "/lo.svg", "https://cdn.example/vn.png"]);
    expect((await getPromotion(env.DB, "demo", perLanguage.id))?.imageUrl).toEqual({ lo: "/lo.svg", vn: "https://cdn.example/vn.png" });
  });

  it("refuses providers the agency does not offer and a set amount outside the deposit limits", async () => {
    expect(await createPromotion(env.DB, otherOwner, valid({ providers: ["askmebet"] }))).toEqual({
      ok: false,
      code: "PROVIDER_NOT_ENABLED",
      field: "providers",
    });
    expect(await createPromotion(env.DB, otherOwner, valid({ providers: ["gclub"], setAmount: "5000" }))).toEqual({
      ok: false,
      code: "SET_AMOUNT_OUT_OF_LIMITS",
      field: "setAmount",
    });
    expect((await createPromotion(env.DB, otherOwner, valid({ providers: ["gclub"] }))).ok).toBe(true);
  });

  it("edits with the version it was opened at; a concurrent edit is refused, not overwritten", async () => {
    const created = await createPromotion(env.DB, owner, valid());
    if (!created.ok) throw new Error(created.code);
    const p = (await getPromotion(env.DB, "demo", created.id))!;
    const [a, b] = await Promise.all([
      updatePromotion(env.DB, owner, created.id, valid({ version: p.updatedAt, bonusValue: "20" })),
      updatePromotion(env.DB, { ...owner, staffUsername: "second" }, created.id, valid({ version: p.updatedAt, bonusValue: "30" })),
    ]);
    expect([a.ok, b.ok].filter(Boolean)).toHaveLength(1);
    expect([a, b].find((r) => !r.ok)).toEqual({ ok: false, code: "STALE" });
    const after = (await getPromotion(env.DB, "demo", created.id))!;
    expect(after.bonusValue).toBe(a.ok ? "20" : "30");
    expect((await auditRows("demo", "promotion.update")).filter((r) => r.target === created.id)).toHaveLength(1);
    expect(await updatePromotion(env.DB, owner, created.id, valid({ version: p.updatedAt }))).toEqual({ ok: false, code: "STALE" });
  });

  it("activates and deactivates, audited; another agency cannot see or change it", async () => {
    const created = await createPromotion(env.DB, owner, valid());
    if (!created.ok) throw new Error(created.code);
    expect(await setPromotionStatus(env.DB, owner, created.id, "INACTIVE")).toEqual({ ok: true, id: created.id });
    expect((await getPromotion(env.DB, "demo", created.id))?.status).toBe("INACTIVE");
    expect((await auditRows("demo", "promotion.deactivate")).filter((r) => r.target === created.id)).toHaveLength(1);
    expect(await getPromotion(env.DB, "other", created.id)).toBeNull();
    expect((await listPromotions(env.DB, "other")).map((p) => p.id)).not.toContain(created.id);
    expect(await setPromotionStatus(env.DB, otherOwner, created.id, "ACTIVE")).toEqual({ ok: false, code: "NOT_FOUND" });
    expect(await updatePromotion(env.DB, otherOwner, created.id, valid({ providers: ["gclub"] }))).toEqual({ ok: false, code: "NOT_FOUND" });
    expect((await getPromotion(env.DB, "demo", created.id))?.status).toBe("INACTIVE");
  });
});

describe("the audit log stays append-only", () => {
  it("refuses to change or remove a settings audit row", async () => {
    await expect(env.DB.prepare(`UPDATE audit_log SET after_json = '{}' WHERE agency_id = 'demo'`).run()).rejects.toThrow(/append-only/);
    await expect(env.DB.prepare(`DELETE FROM audit_log WHERE agency_id = 'demo'`).run()).rejects.toThrow(/append-only/);
  });
});

describe("the settings and promotions pages (owner only, agency scoped)", () => {
  let ownerCookie: string;
  let cashierCookie: string;
  let otherCookie: string;
  const get = (path: string, cookie: string, host = "localhost") => fetchApp(`http://${host}${path}`, { headers: { Cookie: cookie }, redirect: "manual" });

  beforeAll(async () => {
    const o = await createStaff(env, { agencyId: "demo", username: "route-owner", password: "route-owner-pass-1", role: "owner" });
    const c = await createStaff(env, { agencyId: "demo", username: "route-cashier", password: "route-cashier-pass-1", role: "cashier" });
    const x = await createStaff(env, { agencyId: "other", username: "route-other", password: "route-other-pass-1", role: "owner" });
    ownerCookie = await staffLogin(env, { username: "route-owner", password: "route-owner-pass-1", totpSecret: o.totpSecret });
    cashierCookie = await staffLogin(env, { username: "route-cashier", password: "route-cashier-pass-1", totpSecret: c.totpSecret });
    otherCookie = await staffLogin(env, { host: "other.localhost", username: "route-other", password: "route-other-pass-1", totpSecret: x.totpSecret });
  });

  it("an owner changes the rate through the form; the history and audit name them, with their IP", async () => {
    const res = await postForm("/admin/settings", { intent: "rate", currency: "THB", buy: "570", sell: "590" }, { cookie: ownerCookie, ip: "10.88.1.1" });
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/admin/settings#rates");
    const page = await (await get("/admin/settings", ownerCookie)).text();
    expect(page).toContain('data-testid="rates-history"');
    expect(page).toContain("route-owner");
    const [audit] = (await auditRows("demo", "settings.rate")).slice(-1);
    expect(audit).toMatchObject({ staff_username: "route-owner", ip: "10.88.1.1" });
    expect(JSON.parse(audit.after_json!)).toEqual({ currency: "THB", buy: "570", sell: "590" });
  });

  it("invalid input comes back as field errors (400) and changes nothing", async () => {
    const res = await postForm(
      "/admin/settings",
      { intent: "limits", depositMin: "900", depositMax: "100", withdrawMin: "1", withdrawMax: "2", withdrawAutoMax: "1" },
      { cookie: ownerCookie },
    );
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('data-testid="limits-form"');
    expect((await findAgencyByHost(env.DB, "localhost"))?.limits.depositMin).not.toBe("900");
  });

  it("credentials posted through the form are never in any page", async () => {
    const secret = "form-posted-secret-value-9";
    const res = await postForm("/admin/settings", { intent: "credentials", provider: "gclub", agent: "formagent", secret }, { cookie: ownerCookie });
    expect(res.status).toBe(302);
    const page = await (await get("/admin/settings", ownerCookie)).text();
    expect(page).not.toContain(secret);
    expect(page).not.toContain("formagent");
    expect(page).toMatch(/data-testid="credentials-gclub"/);
    const data = await (await get("/admin/settings.data", ownerCookie)).text();
    expect(data).not.toContain(secret);
    // A refused submission does not echo the secret back either.
    const bad = await postForm("/admin/settings", { intent: "credentials", provider: "nope", agent: "a", secret }, { cookie: ownerCookie });
    expect(bad.status).toBe(400);
    expect(await bad.text()).not.toContain(secret);
  });

  it("a cashier gets 403 on every settings and promotions page and form, and nothing changes", async () => {
    const created = await createPromotion(env.DB, owner, {
      titleLo: "ລັບ",
      bonusKind: "FIXED",
      bonusValue: "5",
      creditThreshold: "10",
      turnoverMultiple: "0",
      providers: ["askmebet"],
      status: "ACTIVE",
      sortOrder: "0",
    } as PromotionInput);
    if (!created.ok) throw new Error(created.code);
    for (const path of ["/admin/settings", "/admin/promotions", "/admin/promotions/new", `/admin/promotions/${created.id}`]) {
      expect((await get(path, cashierCookie)).status, path).toBe(403);
    }
    const before = await env.DB.prepare(`SELECT COUNT(*) AS n FROM audit_log`).first<{ n: number }>();
    expect((await postForm("/admin/settings", { intent: "rate", currency: "THB", buy: "1", sell: "1" }, { cookie: cashierCookie })).status).toBe(403);
    expect((await postForm("/admin/settings", { intent: "providers", providers: "gclub" }, { cookie: cashierCookie })).status).toBe(403);
    expect((await postForm("/admin/promotions", { id: created.id, status: "INACTIVE" }, { cookie: cashierCookie })).status).toBe(403);
    expect(
      (
        await postForm(
          "/admin/promotions/new",
          {
            titleLo: "x",
            bonusKind: "FIXED",
            bonusValue: "1",
            creditThreshold: "1",
            turnoverMultiple: "0",
            providers: "gclub",
            status: "ACTIVE",
            sortOrder: "0",
          },
          { cookie: cashierCookie },
        )
      ).status,
    ).toBe(403);
    expect((await env.DB.prepare(`SELECT COUNT(*) AS n FROM audit_log`).first<{ n: number }>())!.n).toBe(before!.n);
    expect((await creditRate(env.DB, "demo"))?.sell).not.toBe(1_000000n);
  });

  it("a player session or no session is sent to the staff login", async () => {
    const p = await playerWithBank();
    for (const cookie of [p.cookie, ""]) {
      const res = await get("/admin/settings", cookie);
      expect(res.status).toBe(302);
      expect(res.headers.get("Location")).toMatch(/^\/admin\/login/);
      const post = await postForm("/admin/promotions/new", { titleLo: "x" }, { cookie });
      expect(post.status).toBe(302);
    }
  });

  it("an owner creates a promotion through the form, edits it, deactivates it", async () => {
    const res = await postForm(
      "/admin/promotions/new",
      {
        titleLo: "ໂປຣ ໃໝ່",
        titleCn: "新优惠",
        titleVn: "Khuyến mãi mới",
        bonusKind: "PERCENT",
        bonusValue: "15",
        bonusCap: "300",
        creditThreshold: "10",
        turnoverMultiple: "2",
        providers: "betflix",
        status: "ACTIVE",
        sortOrder: "3",
      },
      { cookie: ownerCookie },
    );
    expect(res.status).toBe(302);
    const list = await listPromotions(env.DB, "demo");
    const made = list.find((p) => p.title.cn === "新优惠")!;
    expect(made).toMatchObject({ bonusKind: "PERCENT", bonusValue: "15", bonusCap: "300", providers: ["betflix"], sortOrder: 3 });
    const edit = await get(`/admin/promotions/${made.id}`, ownerCookie);
    expect(edit.status).toBe(200);
    expect(await edit.text()).toContain("Khuyến mãi mới");
    const saved = await postForm(
      `/admin/promotions/${made.id}`,
      {
        intent: "save",
        version: made.updatedAt,
        titleLo: "ໂປຣ ໃໝ່",
        bonusKind: "FIXED",
        bonusValue: "50",
        creditThreshold: "10",
        turnoverMultiple: "2",
        providers: "betflix",
        status: "ACTIVE",
        sortOrder: "3",
      },
      { cookie: ownerCookie },
    );
    expect(saved.status).toBe(302);
    expect(await getPromotion(env.DB, "demo", made.id)).toMatchObject({ bonusKind: "FIXED", bonusValue: "50", bonusCap: null, title: { lo: "ໂປຣ ໃໝ່" } });
    // The same (now stale) version again is refused with a message, not applied.
    const stale = await postForm(
      `/admin/promotions/${made.id}`,
      {
        intent: "save",
        version: made.updatedAt,
        titleLo: "stale",
        bonusKind: "FIXED",
        bonusValue: "1",
        creditThreshold: "10",
        turnoverMultiple: "0",
        providers: "betflix",
        status: "ACTIVE",
        sortOrder: "0",
      },
      { cookie: ownerCookie },
    );
    expect(stale.status).toBe(409);
    const current = (await getPromotion(env.DB, "demo", made.id))!;
    expect(current.title.lo).toBe("ໂປຣ ໃໝ່");
    const off = await postForm(`/admin/promotions/${made.id}`, { intent: "status", status: "INACTIVE", version: current.updatedAt }, { cookie: ownerCookie });
    expect(off.status).toBe(302);
    expect((await getPromotion(env.DB, "demo", made.id))?.status).toBe("INACTIVE");
  });

  it("an owner of another agency sees none of this agency's promotions or settings", async () => {
    const [demoPromotion] = await listPromotions(env.DB, "demo");
    expect((await get(`/admin/promotions/${demoPromotion.id}`, otherCookie, "other.localhost")).status).toBe(404);
    const list = await (await get("/admin/promotions", otherCookie, "other.localhost")).text();
    expect(list).not.toContain(demoPromotion.id);
    const post = await postForm(
      "/admin/promotions",
      { id: demoPromotion.id, status: demoPromotion.status === "ACTIVE" ? "INACTIVE" : "ACTIVE" },
      { cookie: otherCookie, host: "other.localhost" },
    );
    expect(post.status).toBe(404);
    expect((await getPromotion(env.DB, "demo", demoPromotion.id))?.status).toBe(demoPromotion.status);
    const settings = await (await get("/admin/settings", otherCookie, "other.localhost")).text();
    expect(settings).not.toContain("BCEL-QR");
    // A demo staff cookie is not a session at the other agency.
    expect((await get("/admin/settings", ownerCookie, "other.localhost")).status).toBe(302);
  });
});
