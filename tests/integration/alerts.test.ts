import { createMessageBatch } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import type { AlertEvent } from "../../workers/core/alerts";
import { SANDBOX_TELEGRAM_TOKEN } from "../../workers/ports/alert-channel-factory";
import {
  alertOrigin,
  alertSettingsScreen,
  buryAlerts,
  clearAlertToken,
  deliverAlerts,
  raiseAlert,
  saveAlertSettings,
  sendTestAlert,
  sweepAlerts,
  type AlertMessageBody,
  type AlertSettingsInput,
} from "../../workers/services/alerts";
import { createForwarder } from "../../workers/services/bank-in";
import { loadDashboard } from "../../workers/services/reports";
import { insertAlertEvent } from "../../workers/db/alerts";
import { recordAudit } from "../../workers/db/audit";
import { insertUnmatchedPayment } from "../../workers/db/payments";
import { newSandboxChat, sandboxTelegram } from "../setup/sandbox-telegram";
import { createApiToken } from "../../workers/services/staff";
import { fundProvider, playerWithBank, postWithdraw } from "../setup/money";
import { seedOwnAccountChannel } from "../setup/own-account";
import { seedDemo } from "../setup/seed";

/**
 * Staff alerts (decision 057) against real D1 and the sandbox Telegram (a real HTTP fake behind
 * its service binding): raised once, queued, delivered per chat, retried after Telegram's
 * retry_after or a backoff, failed for good when Telegram refuses the setup, dead-lettered when
 * the retries run out, held in quiet hours; and the withdrawal that waits for staff raising it.
 */

const owner = { agencyId: "demo", staffId: null, staffUsername: "alerts-owner", ip: "local", userAgent: null };
async function control(path: string, body: object): Promise<void> {
  const res = await sandboxTelegram(path, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`sandbox telegram ${path}: ${res.status} ${await res.text()}`);
}

async function received(chatId: string): Promise<string[]> {
  const res = await sandboxTelegram(`/control/messages?chat=${encodeURIComponent(chatId)}`);
  const body = (await res.json()) as { messages: { text: string }[] };
  return body.messages.map((m) => m.text);
}

function setup(chatIds: string[], change: Partial<AlertSettingsInput> = {}): AlertSettingsInput {
  return {
    token: SANDBOX_TELEGRAM_TOKEN,
    chatIds,
    language: "lo",
    quietStart: null,
    quietEnd: null,
    topics: ["withdrawals", "payments", "providers", "forwarder", "security", "summary"],
    withdrawalReminderMinutes: 15,
    depositWaitMinutes: 10,
    summaryHour: null,
    primaryHost: "localhost",
    ...change,
  };
}

function withdrawalEvent(code: string): AlertEvent<"withdrawal.waiting"> {
  return {
    id: `withdrawal.waiting:${code}`,
    kind: "withdrawal.waiting",
    facts: {
      code,
      username: "somchai",
      credit: "6000.00",
      receivedLak: "3480000.00",
      bankCode: "BCEL",
      accountMasked: "••••••••5678",
      createdAt: new Date(Date.now() - 3 * 60_000).toISOString(),
    },
  };
}

/** An event recorded as raiseAlert does, but with no queue message: the test hands its batch to the consumer itself. */
async function recorded(event: AlertEvent): Promise<void> {
  expect(await insertAlertEvent(env.DB, "demo", event, "queued", new Date().toISOString())).toBe(true);
}

/** Waits for the queue (miniflare's, batches within 5 s) to have run the consumer on the event. */
async function settled(id: string, state = "delivered") {
  await expect.poll(async () => (await eventRow(id))?.state, { timeout: 20_000, interval: 250 }).toBe(state);
}

/**
 * A batch of the queue's messages handed to the consumer, recording what it decided for each
 * (the runtime's MessageBatch interface: ack, retry with a delay). createMessageBatch's result
 * does not say the retry's delay, which is what Telegram's retry_after is about.
 */
async function deliver(ids: string[], attempts = 1) {
  return deliverBodies(
    ids.map((eventId) => ({ agencyId: "demo", eventId })),
    attempts,
  );
}

/** As `deliver`, with the queue messages' bodies as they came (a body the consumer must refuse, too). */
async function deliverBodies(bodies: unknown[], attempts = 1) {
  const explicitAcks: string[] = [];
  const retryMessages: { msgId: string; delaySeconds: number | undefined }[] = [];
  const messages = bodies.map((body, i) => {
    const id = `m-${(body as Partial<AlertMessageBody> | null)?.eventId ?? "other"}-${i}`;
    return {
      id,
      timestamp: new Date(),
      attempts,
      body,
      ack: () => void explicitAcks.push(id),
      retry: (options?: { delaySeconds?: number }) => void retryMessages.push({ msgId: id, delaySeconds: options?.delaySeconds }),
    };
  });
  const batch = {
    queue: "staff-alerts",
    messages,
    ackAll: () => {
      for (const m of messages) m.ack();
    },
    retryAll: () => {
      for (const m of messages) m.retry();
    },
  };
  await deliverAlerts(batch as unknown as MessageBatch<AlertMessageBody>, env);
  return { explicitAcks, retryMessages };
}

async function eventRow(id: string) {
  return env.DB.prepare(`SELECT state, attempts, delivered_to, last_error FROM alert_events WHERE agency_id = 'demo' AND id = ?1`)
    .bind(id)
    .first<{ state: string; attempts: number; delivered_to: string; last_error: string | null }>();
}

beforeAll(seedDemo);

describe("staff alerts", () => {
  it("an event is recorded once and queued; the queue's consumer delivers it to each chat with its facts and a link; a second delivery sends nothing", async () => {
    const [a, b] = [await newSandboxChat(), await newSandboxChat()];
    expect(await saveAlertSettings(env, owner, setup([a, b]))).toEqual({ ok: true });
    const event = withdrawalEvent(`WALERT${Date.now()}`);
    expect(await raiseAlert(env, "demo", event)).toBe("queued");
    expect(await raiseAlert(env, "demo", event)).toBe("repeated");
    await settled(event.id); // through the real queue and consumer (workers/app.ts queue())
    for (const chat of [a, b]) {
      const texts = await received(chat);
      expect(texts).toHaveLength(1);
      expect(texts[0]).toContain("ການຖອນລໍຖ້າພະນັກງານ");
      expect(texts[0]).toContain("₭3.480.000");
      expect(texts[0]).toContain("somchai");
      expect(texts[0]).toContain("BCEL ••••••••5678");
      expect(texts[0]).toContain(`http://localhost:5173/admin/withdrawals/${event.facts.code}`);
    }
    expect(await eventRow(event.id)).toMatchObject({ state: "delivered", last_error: null });

    // the queue delivers the same message again (at least once): nothing is sent twice
    const again = await deliver([event.id], 2);
    expect(again.explicitAcks).toHaveLength(1);
    expect(again.retryMessages).toEqual([]);
    expect(await received(a)).toHaveLength(1);
  });

  it("Telegram's 429: the message is retried after its retry_after, only to the chat that did not take it", async () => {
    const [a, b] = [await newSandboxChat(), await newSandboxChat()];
    await saveAlertSettings(env, owner, setup([a, b]));
    const event = withdrawalEvent(`WRATE${Date.now()}`);
    await recorded(event);
    await control("/control/faults", { mode: "rate-limit", retryAfter: 37, count: 1, chatId: b });
    const result = await deliver([event.id]);
    expect(result.retryMessages).toEqual([{ msgId: `m-${event.id}-0`, delaySeconds: 37 }]);
    const row = await eventRow(event.id);
    expect(row).toMatchObject({ state: "queued", attempts: 1 });
    expect(JSON.parse(row!.delivered_to)).toEqual([a]);
    expect(row!.last_error).toContain("Too Many Requests");

    const retried = await deliver([event.id], 2);
    expect(retried.explicitAcks).toHaveLength(1);
    expect(await received(a)).toHaveLength(1);
    expect(await received(b)).toHaveLength(1);
    expect(await eventRow(event.id)).toMatchObject({ state: "delivered" });
  });

  it("no answer or a 5xx: retried with a growing backoff; retries run out: the dead-letter queue marks it on the dashboard", async () => {
    const chat = await newSandboxChat();
    await saveAlertSettings(env, owner, setup([chat]));
    const before = (await loadDashboard(env.DB, "demo")).alertsNotDelivered;
    const event = withdrawalEvent(`WDOWN${Date.now()}`);
    await recorded(event);
    await control("/control/faults", { mode: "error", count: 2, chatId: chat });
    expect((await deliver([event.id], 1)).retryMessages).toEqual([{ msgId: `m-${event.id}-0`, delaySeconds: 30 }]);
    expect((await deliver([event.id], 3)).retryMessages).toEqual([{ msgId: `m-${event.id}-0`, delaySeconds: 120 }]);
    expect(await eventRow(event.id)).toMatchObject({ state: "queued", attempts: 2 });

    const dead = createMessageBatch<AlertMessageBody>("staff-alerts-dead", [
      { id: "dead-1", timestamp: new Date(), attempts: 7, body: { agencyId: "demo", eventId: event.id } },
    ]);
    await buryAlerts(dead, env);
    expect(await eventRow(event.id)).toMatchObject({ state: "failed" });
    expect((await loadDashboard(env.DB, "demo")).alertsNotDelivered).toBe(before + 1);
    expect((await alertSettingsScreen(env, "demo")).undelivered.latest.map((e) => e.id)).toContain(event.id);
    expect(await received(chat)).toEqual([]);
  });

  it("a chat the bot is not in: failed at once (retrying cannot help), with Telegram's words for the owner", async () => {
    const chat = await newSandboxChat();
    await saveAlertSettings(env, owner, setup([chat, "-1009999999999"]));
    const event = withdrawalEvent(`WNOCHAT${Date.now()}`);
    await recorded(event);
    const result = await deliver([event.id]);
    expect(result.retryMessages).toEqual([]);
    expect(result.explicitAcks).toHaveLength(1);
    const row = await eventRow(event.id);
    expect(row).toMatchObject({ state: "failed" });
    expect(row!.last_error).toContain("chat not found");
    expect(JSON.parse(row!.delivered_to)).toEqual([chat]);
  });

  it("quiet hours hold events; when they end the cron sends them together", async () => {
    const chat = await newSandboxChat();
    // quiet from in an hour to in two hours (Vientiane clock, UTC+7): events raised at +90 min
    // are held; the sweep at +2 h releases them (the consumer runs now, outside the window)
    const clock = (ms: number) => new Date(ms + 7 * 3600_000).toISOString().slice(11, 16);
    const now = Date.now();
    await saveAlertSettings(env, owner, setup([chat], { quietStart: clock(now + 3600_000), quietEnd: clock(now + 2 * 3600_000), topics: ["withdrawals"] }));
    const quiet = now + 90 * 60_000;
    const events = [withdrawalEvent(`WQUIET${now}A`), withdrawalEvent(`WQUIET${now}B`)];
    for (const e of events) expect(await raiseAlert(env, "demo", e, quiet)).toBe("held");
    await sweepAlerts(env, quiet + 60_000);
    expect(await eventRow(events[0].id)).toMatchObject({ state: "held" }); // still quiet

    const after = now + 2 * 3600_000 + 60_000;
    await sweepAlerts(env, after); // queued again, together: the queue's consumer sends them
    for (const e of events) await settled(e.id);
    const texts = await received(chat);
    expect(texts).toHaveLength(1); // one message for the batch
    expect(texts[0]).toContain(events[0].facts.code);
    expect(texts[0]).toContain(events[1].facts.code);
  });

  it("a player's withdrawal above the automatic threshold raises its alert in the request; the cron adds the reminder once it waited N minutes", async () => {
    const chat = await newSandboxChat();
    await saveAlertSettings(env, owner, setup([chat], { withdrawalReminderMinutes: 5 }));
    const p = await playerWithBank();
    await fundProvider("betflix", p.username, "9000.00");
    await postWithdraw(p.cookie, { provider: "betflix", amount: "6000" });
    // the back office's queue is the read model the wallet projects to
    await expect
      .poll(
        async () =>
          (
            await env.DB.prepare(`SELECT COUNT(*) AS n FROM withdraw_orders_view WHERE player_id = ?1 AND review = 'MANUAL'`)
              .bind(p.playerId)
              .first<{ n: number }>()
          )?.n,
        { timeout: 15_000 },
      )
      .toBe(1);
    const { results } = await env.DB.prepare(`SELECT id, state FROM alert_events WHERE agency_id = 'demo' AND facts LIKE ?1`)
      .bind(`%${p.username}%`)
      .all<{ id: string; state: string }>();
    expect(results).toHaveLength(1);
    expect(results[0].id).toMatch(/^withdrawal\.waiting:W/);

    await sweepAlerts(env, Date.now() + 6 * 60_000);
    const after = await env.DB.prepare(`SELECT id FROM alert_events WHERE agency_id = 'demo' AND facts LIKE ?1 ORDER BY id`)
      .bind(`%${p.username}%`)
      .all<{ id: string }>();
    expect(after.results.map((r) => r.id.split(":")[0])).toEqual(["withdrawal.reminder", "withdrawal.waiting"]);
  });

  it("the owner's setup: a token Telegram refuses is not kept; the token is never shown back nor audited; the test message shows Telegram's answer per chat", async () => {
    const chat = await newSandboxChat();
    // (a token of a bot the sandbox does not know would go to api.telegram.org: not from a test)
    const refused = await saveAlertSettings(env, owner, setup([chat], { token: "not-a-bot-token" }));
    expect(refused).toMatchObject({ ok: false, code: "ALERT_TOKEN_REFUSED", field: "token" });
    expect(await saveAlertSettings(env, owner, setup([chat, "-1009999999998"]))).toEqual({ ok: true });
    const screen = await alertSettingsScreen(env, "demo");
    expect(screen).toMatchObject({ tokenSet: true, chatIds: [chat, "-1009999999998"] });
    expect(JSON.stringify(screen)).not.toContain(SANDBOX_TELEGRAM_TOKEN);
    const audit = await env.DB.prepare(`SELECT before_json, after_json FROM audit_log WHERE agency_id = 'demo' AND action = 'settings.alerts'`).all<
      Record<string, string>
    >();
    expect(audit.results.length).toBeGreaterThan(0);
    expect(JSON.stringify(audit.results)).not.toContain("sandbox-demo-bot-token");
    const stored = await env.DB.prepare(`SELECT bot_token_sealed FROM alert_settings WHERE agency_id = 'demo'`).first<{ bot_token_sealed: string }>();
    expect(stored!.bot_token_sealed).toMatch(/^v1\./);

    const test = await sendTestAlert(env, "demo", "Demo Agency");
    expect(test).toMatchObject({
      ok: true,
      answers: [
        { chatId: chat, ok: true },
        { chatId: "-1009999999998", ok: false },
      ],
    });
    if (test.ok) expect(test.answers[1].answer).toContain("chat not found");
    expect((await received(chat))[0]).toContain("Demo Agency");
  });

  it("the every-minute sweep announces, once each: a payment that matched no order, a provider failing then recovered, an API token created, a staff login from a new device", async () => {
    const chat = await newSandboxChat();
    await saveAlertSettings(env, owner, setup([chat], { topics: ["payments", "providers", "security"] }));
    const reference = `ALERTREF${Date.now()}`;
    await insertUnmatchedPayment(env.DB, {
      agencyId: "demo",
      kind: "UNKNOWN_REFERENCE",
      reference,
      transactionId: `TX${Date.now()}`,
      amount: "250000.00",
      orderPlayerId: null,
    });
    const now = Date.now();
    const failedAt = new Date(now - 60_000).toISOString();
    await env.DB.prepare(
      `INSERT INTO provider_attempts (agency_id, player_id, seq, provider, order_code, reference, op, outcome, at) VALUES ('demo', ?1, 1, 'gclub', 'DALERT', 'DALERT', 'transfer_in', 'timeout', ?2)`,
    )
      .bind(`alerts-player-${now}`, failedAt)
      .run();
    await createApiToken(env.DB, owner, "ledger sync");
    await recordAudit(
      env.DB,
      { ...owner, staffUsername: "cashier-new-phone", ip: "203.0.113.9", userAgent: "Mozilla/5.0 (Linux; Android 14)" },
      { action: "auth.login", target: "staff:x", after: { newDevice: true } },
    );
    await recordAudit(env.DB, { ...owner, staffUsername: "cashier-same-phone" }, { action: "auth.login", target: "staff:y", after: { newDevice: false } });

    await sweepAlerts(env, now);
    await sweepAlerts(env, now + 30_000); // nothing new: each is raised once
    const ids = async () =>
      (
        await env.DB.prepare(`SELECT id FROM alert_events WHERE agency_id = 'demo' AND created_at >= ?1 ORDER BY id`)
          .bind(new Date(now - 1).toISOString())
          .all<{ id: string }>()
      ).results.map((r) => r.id.split(":")[0]);
    const first = await ids();
    expect(first.filter((k) => k === "payment.unmatched").length).toBeGreaterThanOrEqual(1);
    expect(first.filter((k) => k === "provider.failing")).toEqual(["provider.failing"]);
    expect(first.filter((k) => k === "api-token")).toEqual(["api-token"]);
    expect(first.filter((k) => k === "staff.new-device")).toEqual(["staff.new-device"]);

    // 16 minutes later the provider has had no failure in its window: recovered, once
    await sweepAlerts(env, now + 16 * 60_000);
    await sweepAlerts(env, now + 17 * 60_000);
    expect((await ids()).filter((k) => k === "provider.recovered")).toEqual(["provider.recovered"]);
  });

  it("the daily summary goes once, in its hour: yesterday's report figures and what waits now", async () => {
    const chat = await newSandboxChat();
    const now = Date.now();
    const hour = new Date(now + 7 * 3600_000).getUTCHours(); // Vientiane's hour now
    await saveAlertSettings(env, owner, setup([chat], { topics: ["summary"], summaryHour: (hour + 1) % 24 }));
    await sweepAlerts(env, now);
    const summaries = async () =>
      (await env.DB.prepare(`SELECT id, facts FROM alert_events WHERE agency_id = 'demo' AND kind = 'summary.daily'`).all<{ id: string; facts: string }>())
        .results;
    expect(await summaries()).toEqual([]); // not its hour

    await saveAlertSettings(env, owner, setup([chat], { topics: ["summary"], summaryHour: hour }));
    await sweepAlerts(env, now);
    await sweepAlerts(env, now + 60_000);
    const [summary, ...more] = await summaries();
    expect(more).toEqual([]);
    const yesterday = new Date(now + 7 * 3600_000 - 86_400_000).toISOString().slice(0, 10);
    expect(summary.id).toBe(`summary.daily:${yesterday}`);
    const facts = JSON.parse(summary.facts) as Record<string, unknown>;
    expect(facts).toMatchObject({
      date: yesterday,
      waitingWithdrawals: expect.any(Number),
      newPlayers: expect.any(Number),
      depositLak: expect.stringMatching(/^\d+\.\d{2}$/),
    });
    expect(facts.waitingWithdrawals).toBeGreaterThanOrEqual(1); // the withdrawal of the test above still waits
    await settled(summary.id);
    // (messages queued by the tests above may share its batch: the consumer reads the chats when it sends)
    expect((await received(chat)).some((text) => text.includes("ສະຫຼຸບປະຈຳວັນ"))).toBe(true);
  });
});

describe("staff alerts when the setup or the platform changes under them", () => {
  const clock = (ms: number) => new Date(ms + 7 * 3600_000).toISOString().slice(11, 16);

  it("a kind the owner turned off, or an agency with no bot token, records and sends nothing", async () => {
    const chat = await newSandboxChat();
    await saveAlertSettings(env, owner, setup([chat], { topics: ["withdrawals"] }));
    const unmatched: AlertEvent<"payment.unmatched"> = {
      id: `payment.unmatched:OFF${Date.now()}`,
      kind: "payment.unmatched",
      facts: { id: "OFF", reason: "UNKNOWN_REFERENCE", amountLak: "1000.00", reference: null, channelCode: null, receivedAt: new Date().toISOString() },
    };
    expect(await raiseAlert(env, "demo", unmatched)).toBe("off");
    await clearAlertToken(env, owner);
    const withdrawal = withdrawalEvent(`WNOTOKEN${Date.now()}`);
    expect(await raiseAlert(env, "demo", withdrawal)).toBe("off");
    expect(await eventRow(unmatched.id)).toBeNull();
    expect(await eventRow(withdrawal.id)).toBeNull();
  });

  it("the bot token is removed after an event was queued: the consumer fails it as not set up instead of retrying for ever", async () => {
    const chat = await newSandboxChat();
    await saveAlertSettings(env, owner, setup([chat]));
    const event = withdrawalEvent(`WCLEARED${Date.now()}`);
    await recorded(event);
    await clearAlertToken(env, owner);
    const result = await deliver([event.id]);
    expect(result.explicitAcks).toHaveLength(1);
    expect(result.retryMessages).toEqual([]);
    expect(await eventRow(event.id)).toMatchObject({ state: "failed", last_error: "alerts are not set up (no bot token or chat)" });
    expect(await received(chat)).toEqual([]);
  });

  it("quiet hours that began after an event was queued: the consumer holds it for the digest rather than waking staff", async () => {
    const chat = await newSandboxChat();
    const now = Date.now();
    await saveAlertSettings(env, owner, setup([chat], { quietStart: clock(now - 3600_000), quietEnd: clock(now + 3600_000) }));
    const event = withdrawalEvent(`WLATEQUIET${now}`);
    await recorded(event);
    const result = await deliver([event.id]);
    expect(result.explicitAcks).toHaveLength(1);
    expect(result.retryMessages).toEqual([]);
    expect(await eventRow(event.id)).toMatchObject({ state: "held" });
    expect(await received(chat)).toEqual([]);
  });

  it("the owner drops a chat that kept refusing: the chat that has the alert does not get it twice, and it counts as delivered", async () => {
    const [a, b] = [await newSandboxChat(), await newSandboxChat()];
    await saveAlertSettings(env, owner, setup([a, b]));
    const event = withdrawalEvent(`WDROPPED${Date.now()}`);
    await recorded(event);
    await control("/control/faults", { mode: "error", count: 1, chatId: b });
    expect((await deliver([event.id])).retryMessages).toHaveLength(1);
    expect(await eventRow(event.id)).toMatchObject({ state: "queued" });

    await saveAlertSettings(env, owner, setup([a]));
    const retried = await deliver([event.id], 2);
    expect(retried.explicitAcks).toHaveLength(1);
    expect(retried.retryMessages).toEqual([]);
    expect(await eventRow(event.id)).toMatchObject({ state: "delivered", last_error: null });
    expect(await received(a)).toHaveLength(1);
  });

  it("a message on the staff alerts queue that is not an alert is dropped, not retried", async () => {
    const result = await deliverBodies([null, { agencyId: "demo" }, { agencyId: 7, eventId: "x" }]);
    expect(result.explicitAcks).toHaveLength(3);
    expect(result.retryMessages).toEqual([]);
  });

  it("the queue refuses messages: the alert stays queued, a sweep during the outage does not fail, and the first sweep after it counts the message lost sends it", async () => {
    const chat = await newSandboxChat();
    await saveAlertSettings(env, owner, setup([chat], { topics: ["withdrawals"] }));
    const down = () => Promise.reject(new Error("queue unavailable"));
    const queueDown = { ...env, STAFF_ALERTS: { send: down, sendBatch: down } } as unknown as Env;
    const now = Date.now();
    const event = withdrawalEvent(`WQUEUEDOWN${now}`);
    expect(await raiseAlert(queueDown, "demo", event, now)).toBe("queued");
    expect(await eventRow(event.id)).toMatchObject({ state: "queued", attempts: 0 });

    const lost = now + 31 * 60_000; // past twice the longest backoff: the message counts as lost
    await expect(sweepAlerts(queueDown, lost)).resolves.toBeUndefined();
    expect(await eventRow(event.id)).toMatchObject({ state: "queued" });

    await sweepAlerts(env, lost);
    await settled(event.id);
    expect((await received(chat)).some((text) => text.includes(event.facts.code))).toBe(true);
  });

  it("alert links point at the agency's primary domain over https once deployed, and at npm start's address locally", async () => {
    await saveAlertSettings(env, owner, setup([await newSandboxChat()], { primaryHost: "localhost" }));
    expect(await alertOrigin({ ...env, ENVIRONMENT: "production" } as Env, "demo")).toBe("https://localhost");
    expect(await alertOrigin(env, "demo")).toBe("http://localhost:5173");
  });

  it("the sweep announces, once each: paid deposits waiting for their provider past the owner's minutes, a forwarder that never sent anything while a player waits to pay on its channel, a credit held above the channel's cap", async () => {
    const chat = await newSandboxChat();
    await saveAlertSettings(env, owner, setup([chat], { topics: ["payments", "providers", "forwarder"], depositWaitMinutes: 10 }));
    const now = Date.now();
    const channel = "OWN-ALERTS";
    await seedOwnAccountChannel("demo", channel);
    // set up two hours ago with the default 60 minutes of allowed silence, and never heard from
    expect(await createForwarder(env, owner, channel, now - 2 * 3600_000)).toMatchObject({ ok: true });
    const paidAt = new Date(now - 25 * 60_000).toISOString();
    await env.DB.batch([
      // a player's order open on the channel: the forwarder's silence now matters
      env.DB.prepare(
        `INSERT INTO pay_amount_reservations (agency_id, channel_code, pay_amount, order_code, player_id, asked_amount, created_at, expires_at)
         VALUES ('demo', ?1, '100037.00', ?2, 'alerts-player', '100000.00', ?3, ?4)`,
      ).bind(channel, `DRES${now}`, now - 60_000, now + 20 * 60_000),
      // as the forwarder holds a credit above the channel's automatic cap
      env.DB.prepare(
        `INSERT INTO forwarder_holds (id, agency_id, channel_code, bank_transaction_id, amount, bank_time, reference, sender, raw, received_at)
         VALUES (?1, 'demo', ?2, ?3, '9000000.00', ?4, NULL, 'BCEL', 'BCEL One: Received 9,000,000.00 LAK', ?4)`,
      ).bind(`HALERT${now}`, channel, `FTALERT${now}`, now - 60_000),
      // as the projection writes a deposit paid at the bank, still waiting for the provider's credit
      env.DB.prepare(
        `INSERT INTO deposit_orders_view (code, agency_id, player_id, provider, amount, credit, status, flag, created_at, updated_at, paid_at)
         VALUES (?1, 'demo', 'alerts-player', 'betflix', '100000.00', '172.41', 'PAID', NULL, ?2, ?2, ?2)`,
      ).bind(`DPAIDALERT${now}`, paidAt),
    ]);

    await sweepAlerts(env, now);
    await sweepAlerts(env, now + 30_000); // nothing new: each is raised once
    const { results } = await env.DB.prepare(`SELECT id FROM alert_events WHERE agency_id = 'demo' AND created_at >= ?1 ORDER BY id`)
      .bind(new Date(now - 1).toISOString())
      .all<{ id: string }>();
    const ids = results.map((r) => r.id);
    expect(ids.filter((id) => id.startsWith("deposits.waiting:"))).toHaveLength(1);
    expect(ids.filter((id) => id.startsWith("forwarder.silent:"))).toEqual([`forwarder.silent:${channel}:never`]);
    expect(ids.filter((id) => id.startsWith("payment.held:"))).toEqual([`payment.held:HALERT${now}`]);

    await settled(`forwarder.silent:${channel}:never`);
    await settled(`payment.held:HALERT${now}`);
    const texts = (await received(chat)).join("\n");
    expect(texts).toContain(`${channel}`);
    expect(texts).toContain("₭9.000.000");
    expect(texts).toContain("/admin/deposits?status=PAID");
  });
});
