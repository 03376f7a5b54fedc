import { beforeAll, describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { afterRedirect, fetchApp, seedDemo, shownOf } from "../setup/seed";
import { playerWithBank, postDeposit } from "../setup/money";
import { seedOwnAccountChannel } from "../setup/own-account";
import { smsForwarderSign } from "../../workers/core/sms-forwarder";
import { createForwarder, decideHold, savePatterns, setForwarderLimits } from "../../workers/services/bank-in";
import { loadDashboard } from "../../workers/services/reports";
import { defaultPatterns, PATTERN_FIELDS } from "../../workers/core/notification-patterns";
import type { AuditActor } from "../../workers/db/audit";
import { postForm } from "../setup/players";
import { createStaff, staffLogin } from "../setup/staff";
import lo from "../../locales/lo/admin.json";
import { formatMoney } from "../../app/lib/format";

/**
 * The notification forwarder against real D1 and real wallets in workerd: posts shaped like
 * SmsForwarder's (form fields from, content, timestamp, sign; the sign URL-encoded by the app
 * and form-encoded again by its HTTP client), through the whole Worker.
 */

const CHANNEL = "OWN-FWD";
const owner: AuditActor = { agencyId: "demo", staffId: "staff-boss", staffUsername: "boss" };
const cashier: AuditActor = { agencyId: "demo", staffId: "staff-cashier", staffUsername: "cashier" };
let token = "";
let secret = "";

beforeAll(async () => {
  await seedDemo();
  await seedOwnAccountChannel("demo", CHANNEL, "derived");
  const created = await createForwarder(env, owner, CHANNEL);
  if (!created.ok) throw new Error(created.code);
  ({ token, secret } = created);
});

async function post(fields: { from?: string; content: string; timestamp?: number; sign?: string; secret?: string }, path = `/api/forwarder/${token}`) {
  const timestamp = String(fields.timestamp ?? Date.now());
  const body = new URLSearchParams({
    from: fields.from ?? "BCEL",
    content: fields.content,
    timestamp,
    sign: fields.sign ?? (await smsForwarderSign(fields.secret ?? secret, timestamp)),
  });
  const res = await fetchApp(`http://localhost${path}`, { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body });
  return { status: res.status, body: (await res.json()) as { ok: boolean; result?: string; error?: string } };
}

const count = async (sql: string) => (await env.DB.prepare(sql).first<{ n: number }>())!.n;
const stored = async () => ({
  deliveries: await count(`SELECT COUNT(*) AS n FROM forwarder_deliveries`),
  holds: await count(`SELECT COUNT(*) AS n FROM forwarder_holds`),
  unmatched: await count(`SELECT COUNT(*) AS n FROM unmatched_payments WHERE agency_id = 'demo'`),
  bankTransactions: await count(`SELECT COUNT(*) AS n FROM bank_transactions`),
  lastMessage: (await env.DB.prepare(`SELECT last_message_at FROM forwarders WHERE channel_code = ?1`)
    .bind(CHANNEL)
    .first<{ last_message_at: number | null }>())!.last_message_at,
});

async function openOwnOrder(amount: string) {
  const p = await playerWithBank();
  const res = await postDeposit(p.cookie, { channelCode: CHANNEL, amount, provider: "betflix" });
  expect(res.status).toBe(302);
  const order = (await p.wallet.openDepositOrder(Date.now()))!;
  expect(order.payAmount).toBeTruthy();
  return { ...p, order };
}

/** "100037.00" -> "100,037.00 LAK" as an English bank text writes it. */
const written = (amount: string) => `${Number(amount).toLocaleString("en-US", { minimumFractionDigits: 2 })} LAK`;
const vientiane = (ms: number) => {
  const d = new Date(ms + 7 * 3600_000);
  const p = (n: number) => String(n).padStart(2, "0");
  return `${p(d.getUTCDate())}/${p(d.getUTCMonth() + 1)}/${d.getUTCFullYear()} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())}`;
};
let ft = 0;
const bankText = (amount: string, extra = "") =>
  `BCEL One: Received ${written(amount)} from SOMPHONE on ${vientiane(Date.now())}. Ref: FT${Date.now()}${(ft += 1)} ${extra}`;

describe("forwarder: what is refused stores nothing", () => {
  it("a bad signature is 401 and stores nothing", async () => {
    const before = await stored();
    const res = await post({ content: bankText("100000"), secret: "not-the-secret" });
    expect(res).toEqual({ status: 401, body: { ok: false, error: "BAD_SIGNATURE" } });
    expect(await stored()).toEqual(before);
  });

  it("a stale (or far future) timestamp is 401, even correctly signed", async () => {
    const before = await stored();
    expect((await post({ content: bankText("100000"), timestamp: Date.now() - 16 * 60_000 })).status).toBe(401);
    expect((await post({ content: bankText("100000"), timestamp: Date.now() + 16 * 60_000 })).body.error).toBe("STALE");
    expect(await stored()).toEqual(before);
  });

  it("an unknown token, another agency's host or a missing sign is 401", async () => {
    expect((await post({ content: "x" }, `/api/forwarder/fwd_${"A".repeat(43)}`)).status).toBe(401);
    expect((await post({ content: "x", sign: "" })).status).toBe(401);
    const res = await fetchApp(`http://disabled.localhost/api/forwarder/${token}`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: "content=x",
    });
    expect([401, 404]).toContain(res.status);
  });
});

describe("forwarder: a correctly signed post", () => {
  it("credits the matching order once; the same post again answers 2xx and applies nothing twice", async () => {
    const p = await openOwnOrder("100000");
    const timestamp = Date.now();
    const content = bankText(p.order.payAmount!);
    const first = await post({ content, timestamp });
    expect(first).toEqual({ status: 200, body: { ok: true, result: "applied" } });
    const before = await stored();
    const again = await post({ content, timestamp });
    expect(again).toEqual({ status: 200, body: { ok: true, result: "applied" } });
    // A resend under a new timestamp (the app's manual resend) is the same bank transaction.
    const resent = await post({ content });
    expect(resent).toEqual({ status: 200, body: { ok: true, result: "duplicate" } });
    const after = await stored();
    expect(after.bankTransactions).toBe(before.bankTransactions);
    expect(after.unmatched).toBe(before.unmatched);
    const order = await p.wallet.getDeposit(p.order.code);
    expect(order?.status === "SUCCESS" || order?.status === "PAID").toBe(true);
    expect(after.lastMessage).toBeGreaterThan(0);
  });

  it("the same timestamp + signature with another message is refused (409), nothing applied", async () => {
    const timestamp = Date.now();
    await post({ content: "BCEL: your OTP is 123456", timestamp });
    const before = await stored();
    const res = await post({ content: bankText("5000000"), timestamp });
    expect(res).toEqual({ status: 409, body: { ok: false, error: "REPLAY" } });
    expect(await stored()).toEqual({ ...before, lastMessage: before.lastMessage });
  });

  it("a text no pattern can read goes to the unmatched queue with its raw text", async () => {
    const content = `BCEL: something new ${crypto.randomUUID()}`;
    const res = await post({ content });
    expect(res).toEqual({ status: 200, body: { ok: true, result: "unreadable" } });
    const row = await env.DB.prepare(`SELECT kind, raw, source, channel_code FROM unmatched_payments WHERE agency_id = 'demo' AND instr(raw, ?1) > 0`)
      .bind(content)
      .first();
    expect(row).toMatchObject({ kind: "UNREADABLE", source: "forwarder", channel_code: CHANNEL });
  });

  it("money going out is not a deposit: kept as a bank debit for reconciliation (decision 047), nothing queued", async () => {
    const before = await stored();
    const content = `BCEL: Transfer out 20,000 LAK on ${vientiane(Date.now())}`;
    const res = await post({ content });
    expect(res).toEqual({ status: 200, body: { ok: true, result: "debit" } });
    expect((await stored()).unmatched).toBe(before.unmatched);
    const debit = await env.DB.prepare(
      `SELECT direction, amount, outcome, source, raw FROM bank_transactions WHERE agency_id = 'demo' AND channel_code = ?1 AND direction = 'debit'`,
    )
      .bind(CHANNEL)
      .first();
    expect(debit).toEqual({ direction: "debit", amount: "20000.00", outcome: "DEBIT", source: "forwarder", raw: `BCEL\n${content}` });
  });

  it("reads with the owner's saved patterns for the bank", async () => {
    const text = Object.fromEntries(PATTERN_FIELDS.map((f) => [f, defaultPatterns("BCEL")[f].join("\n")])) as Record<(typeof PATTERN_FIELDS)[number], string>;
    const saved = await savePatterns(env.DB, owner, { ...text, bankCode: "BCEL", amount: "Amt=([0-9]{1,9})" });
    expect(saved.saved).toBe(true);
    const p = await openOwnOrder("120000");
    const whole = p.order.payAmount!.replace(/\.00$/, "");
    const res = await post({ content: `BCEL received Amt=${whole} on ${vientiane(Date.now())} Ref: FT${Date.now()}X` });
    expect(res.body.result).toBe("applied");
    await savePatterns(env.DB, owner, { ...text, bankCode: "BCEL" });
  });
});

describe("forwarder: above the owner's cap, staff confirm", () => {
  it("waits; two staff confirming at once get one outcome; credited once", async () => {
    expect(await setForwarderLimits(env.DB, owner, { channelCode: CHANNEL, autoCap: "200000", silenceMinutes: 60 })).toEqual({ ok: true });
    const p = await openOwnOrder("300000");
    const res = await post({ content: bankText(p.order.payAmount!) });
    expect(res).toEqual({ status: 200, body: { ok: true, result: "held" } });
    expect((await p.wallet.getDeposit(p.order.code))?.status).toBe("OPEN");
    const hold = await env.DB.prepare(`SELECT id FROM forwarder_holds WHERE status = 'WAITING' AND amount = ?1`)
      .bind(p.order.payAmount!.replace(/\.00$/, ""))
      .first<{ id: string }>();
    expect(hold).toBeTruthy();

    const results = await Promise.all([
      decideHold(env, owner, { holdId: hold!.id, decision: "confirm" }),
      decideHold(env, cashier, { holdId: hold!.id, decision: "confirm" }),
    ]);
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.filter((r) => !r.ok)).toEqual([{ ok: false, code: "ALREADY_DECIDED" }]);
    const done = results.find((r) => r.ok)!;
    expect(done).toMatchObject({ ok: true, decision: "confirm", outcome: `applied:${p.order.code}` });
    const order = await p.wallet.getDeposit(p.order.code);
    expect(order?.status === "SUCCESS" || order?.status === "PAID").toBe(true);
    expect(await decideHold(env, cashier, { holdId: hold!.id, decision: "reject" })).toEqual({ ok: false, code: "ALREADY_DECIDED" });
    const audited = await count(`SELECT COUNT(*) AS n FROM audit_log WHERE action = 'forwarder.hold.confirm' AND target = 'forwarder-hold:${hold!.id}'`);
    expect(audited).toBe(1);
    await setForwarderLimits(env.DB, owner, { channelCode: CHANNEL, autoCap: "1000000", silenceMinutes: 60 });
  });

  it("the cap is whole kip as typed: digit groups read, decimals refused (never a hundred times the cap)", async () => {
    const cap = async () =>
      (await env.DB.prepare(`SELECT auto_cap FROM forwarders WHERE agency_id = 'demo' AND channel_code = ?1`).bind(CHANNEL).first<{ auto_cap: string }>())
        ?.auto_cap;
    expect(await setForwarderLimits(env.DB, owner, { channelCode: CHANNEL, autoCap: "1.500.000", silenceMinutes: 60 })).toEqual({ ok: true });
    expect(await cap()).toBe("1500000");
    // read before by dropping every dot and comma: 150000000
    expect(await setForwarderLimits(env.DB, owner, { channelCode: CHANNEL, autoCap: "1500000.00", silenceMinutes: 60 })).toEqual({
      ok: false,
      code: "CAP_INVALID",
    });
    expect(await setForwarderLimits(env.DB, owner, { channelCode: CHANNEL, autoCap: "-5", silenceMinutes: 60 })).toEqual({ ok: false, code: "CAP_INVALID" });
    expect(await cap()).toBe("1500000");
    await setForwarderLimits(env.DB, owner, { channelCode: CHANNEL, autoCap: "1000000", silenceMinutes: 60 });
  });

  it("a rejected hold credits nothing", async () => {
    await setForwarderLimits(env.DB, owner, { channelCode: CHANNEL, autoCap: "0", silenceMinutes: 60 });
    const p = await openOwnOrder("50000");
    expect((await post({ content: bankText(p.order.payAmount!) })).body.result).toBe("held");
    const hold = await env.DB.prepare(`SELECT id FROM forwarder_holds WHERE status = 'WAITING' ORDER BY received_at DESC`).first<{ id: string }>();
    expect(await decideHold(env, cashier, { holdId: hold!.id, decision: "reject" })).toEqual({ ok: true, decision: "reject" });
    expect((await p.wallet.getDeposit(p.order.code))?.status).toBe("OPEN");
    await setForwarderLimits(env.DB, owner, { channelCode: CHANNEL, autoCap: "1000000", silenceMinutes: 60 });
  });
});

describe("forwarder: silence", () => {
  it("the dashboard says so when orders of the channel wait and the forwarder has been silent longer than the owner's time", async () => {
    await setForwarderLimits(env.DB, owner, { channelCode: CHANNEL, autoCap: "1000000", silenceMinutes: 30 });
    const now = Date.now();
    await env.DB.prepare(`UPDATE forwarders SET last_message_at = ?1 WHERE channel_code = ?2`)
      .bind(now - 29 * 60_000, CHANNEL)
      .run();
    const p = await openOwnOrder("70000");
    expect((await loadDashboard(env.DB, "demo", now)).silentForwarders).toEqual([]);
    await env.DB.prepare(`UPDATE forwarders SET last_message_at = ?1 WHERE channel_code = ?2`)
      .bind(now - 31 * 60_000, CHANNEL)
      .run();
    expect((await loadDashboard(env.DB, "demo", now)).silentForwarders).toEqual([
      { channelCode: CHANNEL, lastMessageAt: now - 31 * 60_000, silenceMinutes: 30 },
    ]);
    // no open order of the channel: nothing to say
    await env.DB.prepare(`UPDATE pay_amount_reservations SET ended_at = ?1 WHERE channel_code = ?2`).bind(now, CHANNEL).run();
    expect((await loadDashboard(env.DB, "demo", now)).silentForwarders).toEqual([]);
    expect(p.order.code).toBeTruthy();
  });
});

describe("forwarder page: what staff see and press", () => {
  const password = "forwarder-page-pass-1";
  let ownerCookie = "";
  let cashierCookie = "";
  const SECOND = "OWN-FWD2";

  beforeAll(async () => {
    await seedOwnAccountChannel("demo", SECOND, "static");
    const o = await createStaff(env, { agencyId: "demo", username: "fwd-owner", password, role: "owner" });
    const c = await createStaff(env, { agencyId: "demo", username: "fwd-cashier", password, role: "cashier" });
    ownerCookie = await staffLogin(env, { username: "fwd-owner", password, totpSecret: o.totpSecret });
    cashierCookie = await staffLogin(env, { username: "fwd-cashier", password, totpSecret: c.totpSecret });
  }, 120_000);

  const page = (cookie: string, query = "") => fetchApp(`http://localhost/admin/forwarder${query}`, { headers: { Cookie: cookie }, redirect: "manual" });
  const press = (cookie: string, fields: Record<string, string>) => postForm("/admin/forwarder", fields, { cookie });
  const landing = async (res: Response, cookie: string) => (await afterRedirect(res, cookie)).html;
  const forwarderOf = (channel: string) =>
    env.DB.prepare(`SELECT auto_cap, silence_minutes FROM forwarders WHERE agency_id = 'demo' AND channel_code = ?1`)
      .bind(channel)
      .first<{ auto_cap: string; silence_minutes: number }>();
  const waitingHold = (amount: string) =>
    env.DB.prepare(`SELECT id FROM forwarder_holds WHERE status = 'WAITING' AND amount = ?1`).bind(amount.replace(/\.00$/, "")).first<{ id: string }>();

  it("the owner sees each own-account channel: the active forwarder with its limits, the others with 'create'", async () => {
    const html = await shownOf(await page(ownerCookie));
    const active = html.slice(html.indexOf(`data-channel="${CHANNEL}"`), html.indexOf("</li>", html.indexOf(`data-channel="${CHANNEL}"`)));
    // the forwarder of these tests has had messages: the last one's time is shown, with its limits form and "renew"
    expect(active).toContain(lo.forwarder.lastMessage.split("{{")[0]);
    expect(active).toContain('data-testid="forwarder-limits"');
    expect(active).toContain(lo.forwarder.renew);
    expect(active).toContain(lo.forwarder.remove);
    const other = html.slice(html.indexOf(`data-channel="${SECOND}"`), html.indexOf("</li>", html.indexOf(`data-channel="${SECOND}"`)));
    expect(other).toContain(lo.forwarder.none);
    expect(other).toContain(lo.forwarder.create);
    expect(other).not.toContain('data-testid="forwarder-limits"');
    // no credit waits: the holds table says so; the patterns shown are BCEL's saved ones (an earlier test saved them)
    expect(html).toContain('data-testid="forwarder-no-holds"');
    expect(html).toContain(lo.forwarder.stored.replace("{{bank}}", "BCEL"));
    // another bank never saved: its example defaults, said so
    expect(await shownOf(await page(ownerCookie, "?bank=LDB"))).toContain(lo.forwarder.defaults.replace("{{bank}}", "LDB"));
  });

  it("creating a forwarder shows its URL and secret once; the new pair works, 'no message yet' until one comes", async () => {
    const res = await press(ownerCookie, { intent: "create", channelCode: SECOND });
    expect(res.status).toBe(200);
    const html = await shownOf(res);
    expect(html).toContain(lo.forwarder.shownTitle.replace("{{channel}}", SECOND));
    const url = /data-testid="forwarder-url" value="([^"]+)"/.exec(html)?.[1] ?? /value="([^"]+)"[^>]*data-testid="forwarder-url"/.exec(html)?.[1];
    const shownSecret =
      /value="([^"]+)"[^>]*data-testid="forwarder-secret"/.exec(html)?.[1] ?? /data-testid="forwarder-secret" value="([^"]+)"/.exec(html)?.[1];
    expect(url).toMatch(/^http:\/\/localhost\/api\/forwarder\/fwd_/);
    expect(shownSecret).toBeTruthy();
    const path = new URL(url!).pathname;
    expect((await post({ content: `BCEL: hello ${crypto.randomUUID()}`, secret: shownSecret }, path)).status).toBe(200);
    expect((await post({ content: "x", secret: "not-the-secret" }, path)).status).toBe(401);
    // the page afterwards: the secret is never shown again
    const after = await shownOf(await page(ownerCookie));
    expect(after).not.toContain(shownSecret!);
    expect(after).not.toContain('data-testid="forwarder-shown"');
  });

  it("refuses a forwarder for a channel that is not the agency's own account, creating nothing", async () => {
    const html = await landing(await press(ownerCookie, { intent: "create", channelCode: "BCEL-QR" }), ownerCookie);
    expect(html).toContain(lo.forwarder.errors.NOT_OWN_ACCOUNT);
    expect(await forwarderOf("BCEL-QR")).toBeNull();
  });

  it("limits: a decimal cap or a silence under 5 minutes is refused and nothing changes; valid limits are saved", async () => {
    const before = await forwarderOf(SECOND);
    for (const bad of [
      { autoCap: "1500000.50", silenceMinutes: "60" },
      { autoCap: "1500000", silenceMinutes: "3" },
    ]) {
      const html = await landing(await press(ownerCookie, { intent: "limits", channelCode: SECOND, ...bad }), ownerCookie);
      expect(html).toContain(lo.forwarder.errors.limits);
    }
    expect(await forwarderOf(SECOND)).toEqual(before);
    const saved = await landing(await press(ownerCookie, { intent: "limits", channelCode: SECOND, autoCap: "2.000.000", silenceMinutes: "45" }), ownerCookie);
    expect(saved).toContain(lo.forwarder.limitsSaved);
    expect(await forwarderOf(SECOND)).toEqual({ auto_cap: "2000000", silence_minutes: 45 });
    // limits of a channel with no forwarder: not found
    const none = await landing(await press(ownerCookie, { intent: "limits", channelCode: "NO-SUCH", autoCap: "1", silenceMinutes: "60" }), ownerCookie);
    expect(none).toContain(lo.forwarder.errors.NOT_FOUND);
  });

  it("removing a forwarder stops its URL; the channel shows 'create' again", async () => {
    const html = await landing(await press(ownerCookie, { intent: "remove", channelCode: SECOND }), ownerCookie);
    expect(html).toContain(lo.forwarder.removed);
    expect(await forwarderOf(SECOND)).toBeNull();
    expect((await landing(await press(ownerCookie, { intent: "remove", channelCode: "" }), ownerCookie)).includes(lo.forwarder.errors.invalid)).toBe(true);
    expect((await landing(await press(ownerCookie, { intent: "nonsense" }), ownerCookie)).includes(lo.forwarder.errors.invalid)).toBe(true);
  });

  it("a cashier sees the credits waiting but not the owner's setup, and cannot change it (403)", async () => {
    const html = await shownOf(await page(cashierCookie));
    expect(html).toContain(lo.forwarder.holdsTitle);
    expect(html).not.toContain('data-testid="forwarder-channels"');
    expect(html).not.toContain('data-testid="forwarder-patterns"');
    const before = await forwarderOf(CHANNEL);
    expect((await press(cashierCookie, { intent: "limits", channelCode: CHANNEL, autoCap: "1", silenceMinutes: "60" })).status).toBe(403);
    expect((await press(cashierCookie, { intent: "create", channelCode: SECOND })).status).toBe(403);
    expect(await forwarderOf(CHANNEL)).toEqual(before);
    expect(await forwarderOf(SECOND)).toBeNull();
  });

  it("a credit above the cap is listed; the cashier confirms it (credited) and a second press says it is already decided", async () => {
    await setForwarderLimits(env.DB, owner, { channelCode: CHANNEL, autoCap: "0", silenceMinutes: 60 });
    try {
      const p = await openOwnOrder("80000");
      expect((await post({ content: bankText(p.order.payAmount!) })).body.result).toBe("held");
      const hold = (await waitingHold(p.order.payAmount!))!;
      const listed = await shownOf(await page(cashierCookie));
      expect(listed).toContain(`data-hold="${hold.id}"`);
      expect(listed).toContain(lo.forwarder.confirm);
      const done = await landing(await press(cashierCookie, { intent: "hold", holdId: hold.id, decision: "confirm" }), cashierCookie);
      expect(done).toContain(lo.forwarder.confirmed);
      expect(done).not.toContain(`data-hold="${hold.id}"`);
      const order = await p.wallet.getDeposit(p.order.code);
      expect(order?.status === "SUCCESS" || order?.status === "PAID").toBe(true);
      const again = await landing(await press(cashierCookie, { intent: "hold", holdId: hold.id, decision: "reject" }), cashierCookie);
      expect(again).toContain(lo.forwarder.errors.ALREADY_DECIDED);
      // a hold id that is no id at all
      expect(await landing(await press(cashierCookie, { intent: "hold", holdId: "x", decision: "confirm" }), cashierCookie)).toContain(
        lo.forwarder.errors.invalid,
      );
      expect(await landing(await press(cashierCookie, { intent: "hold", holdId: crypto.randomUUID(), decision: "confirm" }), cashierCookie)).toContain(
        lo.forwarder.errors.NOT_FOUND,
      );
    } finally {
      await setForwarderLimits(env.DB, owner, { channelCode: CHANNEL, autoCap: "1000000", silenceMinutes: 60 });
    }
  });

  it("a held credit matching no order, confirmed, goes to the unmatched queue; a rejected one credits nothing", async () => {
    await setForwarderLimits(env.DB, owner, { channelCode: CHANNEL, autoCap: "0", silenceMinutes: 60 });
    try {
      expect((await post({ content: bankText("91234") })).body.result).toBe("held");
      const hold = (await waitingHold("91234"))!;
      expect(await landing(await press(cashierCookie, { intent: "hold", holdId: hold.id, decision: "confirm" }), cashierCookie)).toContain(
        lo.forwarder.confirmedUnmatched,
      );
      expect((await post({ content: bankText("91235") })).body.result).toBe("held");
      const second = (await waitingHold("91235"))!;
      expect(await landing(await press(ownerCookie, { intent: "hold", holdId: second.id, decision: "reject" }), ownerCookie)).toContain(lo.forwarder.rejected);
      const status = await env.DB.prepare(`SELECT status FROM forwarder_holds WHERE id = ?1`).bind(second.id).first<{ status: string }>();
      expect(status?.status).not.toBe("WAITING");
    } finally {
      await setForwarderLimits(env.DB, owner, { channelCode: CHANNEL, autoCap: "1000000", silenceMinutes: 60 });
    }
  });

  describe("patterns: try on a sample, then save", () => {
    const defaults = Object.fromEntries(PATTERN_FIELDS.map((f) => [f, defaultPatterns("LDB")[f].join("\n")]));
    const tryOn = (fields: Record<string, string>, intent = "try") => press(ownerCookie, { intent, bankCode: "LDB", ...defaults, ...fields });

    it("reads a credit sample: amount, bank time, reference and transaction id shown", async () => {
      const res = await tryOn({ sampleFrom: "LDB", sample: `LDB: Received 250,000.00 LAK on ${vientiane(Date.now())}. Ref: FT123456789` });
      expect(res.status).toBe(200);
      const html = await shownOf(res);
      expect(html).toContain('data-testid="patterns-reading"');
      expect(/data-testid="reading-amount">([^<]+)</.exec(html)?.[1]).toBe(formatMoney("250000.00", "LAK"));
      expect(/data-testid="reading-transaction">([^<]+)</.exec(html)?.[1]).toBe("FT123456789");
      expect(html).not.toContain('data-testid="patterns-saved"');
    });

    it("says a debit is skipped, a sender not listed goes to the unmatched list, and no sample means the patterns are valid", async () => {
      const debit = await shownOf(await tryOn({ sampleFrom: "LDB", sample: `LDB: Transfer out 20,000 LAK on ${vientiane(Date.now())}` }));
      expect(debit).toContain(lo.forwarder.readDebit);
      const stranger = await shownOf(await tryOn({ sampleFrom: "+8562099999", sample: "Received 20,000 LAK" }));
      expect(stranger).toContain(lo.forwarder.unreadable.SENDER);
      const noAmount = await shownOf(await tryOn({ sampleFrom: "LDB", sample: "LDB: Received money" }));
      expect(noAmount).toContain(lo.forwarder.unreadable.NO_AMOUNT);
      const empty = await shownOf(await tryOn({}));
      expect(empty).toContain(lo.forwarder.noSample);
    });

    it("a broken pattern is named with its field and row (400), and is not saved", async () => {
      const res = await tryOn({ amount: "Amt=([0-9]+)\n(unclosed" }, "save-patterns");
      expect(res.status).toBe(400);
      const html = await shownOf(res);
      expect(html).toContain(lo.forwarder.problems.INVALID.replace("{{field}}", lo.forwarder.fields.amount).replace("{{row}}", "2"));
      // what was typed is kept in the form
      expect(html).toContain("(unclosed");
      expect(await shownOf(await page(ownerCookie, "?bank=LDB"))).toContain(lo.forwarder.defaults.replace("{{bank}}", "LDB"));
      // a bank code that is no bank code: the request is refused
      const bad = await press(ownerCookie, { intent: "try", bankCode: "ldb", ...defaults });
      expect(bad.status).toBe(400);
      expect(await shownOf(bad)).toContain(lo.forwarder.errors.invalid);
    });

    it("saving valid patterns says so, and the bank's patterns are then the stored ones", async () => {
      const res = await tryOn({ senders: "LDB\ncom.ldb\nLDB-TEST" }, "save-patterns");
      expect(res.status).toBe(200);
      expect(await shownOf(res)).toContain(lo.forwarder.patternsSaved);
      const html = await shownOf(await page(ownerCookie, "?bank=LDB"));
      expect(html).toContain(lo.forwarder.stored.replace("{{bank}}", "LDB"));
      expect(html).toContain("LDB-TEST");
    });
  });
});
