import {
  ALERT_KIND_TOPIC,
  combinedText,
  inQuietHours,
  retryDelaySeconds,
  vientianeMinutes,
  type AlertEvent,
  type AlertFacts,
  type AlertKind,
  type AlertTopic,
} from "../../core/alerts";
import { maskAccountNumber } from "../../core/banks";
import { firstListPage } from "../../core/keyset";
import { isLocalEnvironment } from "../../core/provider-setup";
import { openSecret } from "../../core/secret-box";
import {
  alertsToSendAgain,
  insertAlertEvent,
  insertAlertEventStatement,
  knownAlertIds,
  lastProviderEpisodes,
  listAlertingAgencies,
  loadAlertEvents,
  markAlertFailedStatement,
  readAlertSettings,
  recordAlertAttemptStatement,
  releaseHeldAlerts,
  type AlertSettings,
  type StoredAlertEvent,
} from "../../db/alerts";
import { listAgencyHosts } from "../../db/agencies";
import { recentSecurityAudit } from "../../db/audit";
import { listSilentForwarders, listWaitingHolds } from "../../db/forwarder";
import { listManualQueue, type ManualQueueItem } from "../../db/orders";
import { listUnmatchedPayments } from "../../db/payments";
import { recentProviderFailures, waitingDeposits } from "../../db/provider-attempts";
import { loadDashboard, moneyReport, playersReport } from "../reports";
import { formatAmount } from "../../core/money";
import { PROVIDER_FAILURE_WINDOW_MS } from "../../core/provider-attempts";
import { presetRange } from "../../core/report-range";
import { alertChannelFor } from "../../ports/alert-channel-factory";
import type { AlertSendResult } from "../../ports/alerts";
import type { WithdrawOrder } from "../../wallet/types";

/**
 * Staff alerts (decision 057). A request or the cron that sees an event only
 * records it and puts its id on the STAFF_ALERTS queue (`raiseAlert`); it never waits for
 * Telegram. The queue's consumer (`deliverAlerts`) sends, one message per chat per batch, and
 * retries; what still fails after the queue's retries reaches the dead-letter queue
 * (`buryAlerts`) and the dashboard. Delivery is at least once (ports/alerts.ts).
 */

/** What goes on the queue: which event of which agency. The facts stay in D1 (no secret travels). */
export type AlertMessageBody = { agencyId: string; eventId: string };

/** The sealed token's associated data: a token copied to another agency's row does not open. */
export function alertTokenAad(agencyId: string): string {
  return `alerts:${agencyId}`;
}

const iso = (ms: number) => new Date(ms).toISOString();

function topicOn(settings: AlertSettings, kind: AlertKind): boolean {
  const topic = ALERT_KIND_TOPIC[kind];
  return topic === null || settings.topics.includes(topic);
}

function canSend(settings: AlertSettings | null): settings is AlertSettings & { botTokenSealed: string } {
  return settings !== null && settings.botTokenSealed !== null && settings.chatIds.length > 0;
}

/**
 * Records `event` for the agency's staff and queues it: "off" when the agency sends nothing of
 * that kind, "repeated" when the same event was raised before (nothing new is sent), "held"
 * in quiet hours (sent in the digest when they end).
 */
export async function raiseAlert(env: Env, agencyId: string, event: AlertEvent, now = Date.now()): Promise<"queued" | "held" | "off" | "repeated"> {
  const settings = await readAlertSettings(env.DB, agencyId);
  if (!canSend(settings) || !topicOn(settings, event.kind)) return "off";
  const held = inQuietHours(now, settings.quietStart, settings.quietEnd);
  if (!(await insertAlertEvent(env.DB, agencyId, event, held ? "held" : "queued", iso(now)))) return "repeated";
  if (held) return "held";
  // A send the queue refuses leaves the event queued: the cron's sweep sends it again.
  await env.STAFF_ALERTS.send({ agencyId, eventId: event.id } satisfies AlertMessageBody).catch((error: unknown) =>
    console.error("staff alert not queued", error),
  );
  return "queued";
}

/** The origin alert links point at: the agency's primary domain (https), or npm start's address locally. */
export async function alertOrigin(env: Env, agencyId: string): Promise<string> {
  const [primary] = await listAgencyHosts(env.DB, agencyId);
  const host = primary?.host ?? "localhost";
  if (isLocalEnvironment(env.ENVIRONMENT)) return `http://${host}${env.LOCAL_PORTAL_PORT ? `:${env.LOCAL_PORTAL_PORT}` : ""}`;
  return `https://${host}`;
}

/** The agency's bot token, opened; null when none is set or it does not open with this key. */
export async function openAlertToken(env: Env, settings: AlertSettings): Promise<string | null> {
  return settings.botTokenSealed === null ? null : openSecret(env.CREDENTIALS_KEY, settings.botTokenSealed, alertTokenAad(settings.agencyId));
}

/** The messages of one agency in one batch: the events still to send, and what became of each. */
async function deliverForAgency(env: Env, agencyId: string, messages: Message<AlertMessageBody>[], now: number): Promise<void> {
  const settings = await readAlertSettings(env.DB, agencyId);
  const events = new Map(
    (
      await loadAlertEvents(
        env.DB,
        agencyId,
        messages.map((m) => m.body.eventId),
      )
    ).map((e) => [e.id, e]),
  );
  // Delivered, failed, held or unknown: nothing to send (a second delivery of the same message ends here).
  const pending = messages.filter((m) => events.get(m.body.eventId)?.state === "queued");
  for (const m of messages) if (!pending.includes(m)) m.ack();
  if (pending.length === 0) return;
  const token = canSend(settings) ? await openAlertToken(env, settings) : null;
  if (!settings || !token) {
    await env.DB.batch(
      pending.map((m) =>
        recordAlertAttemptStatement(
          env.DB,
          agencyId,
          m.body.eventId,
          { state: "failed", deliveredTo: [], error: "alerts are not set up (no bot token or chat)" },
          iso(now),
        ),
      ),
    );
    for (const m of pending) m.ack();
    return;
  }
  if (inQuietHours(now, settings.quietStart, settings.quietEnd)) {
    await env.DB.batch(
      pending.map((m) =>
        recordAlertAttemptStatement(
          env.DB,
          agencyId,
          m.body.eventId,
          { state: "held", deliveredTo: events.get(m.body.eventId)!.deliveredTo, error: null },
          iso(now),
        ),
      ),
    );
    for (const m of pending) m.ack();
    return;
  }
  const channel = alertChannelFor(env, token);
  const origin = await alertOrigin(env, agencyId);
  const pendingEvents = pending.map((m) => events.get(m.body.eventId)!);
  const results = new Map<string, AlertSendResult>();
  for (const chatId of settings.chatIds) {
    const forChat = pendingEvents.filter((e) => !e.deliveredTo.includes(chatId));
    if (forChat.length === 0) continue;
    results.set(chatId, await channel.send({ chatId, text: combinedText(forChat, settings.language, origin, now) }));
  }
  const statements: D1PreparedStatement[] = [];
  for (const message of pending) {
    const event = events.get(message.body.eventId)!;
    const outcome = outcomeOf(event, settings.chatIds, results);
    statements.push(
      recordAlertAttemptStatement(env.DB, agencyId, event.id, { state: outcome.state, deliveredTo: outcome.deliveredTo, error: outcome.error }, iso(now)),
    );
    if (outcome.retryAfterSeconds === null) message.ack();
    else message.retry({ delaySeconds: outcome.retryAfterSeconds ?? retryDelaySeconds(message.attempts) });
  }
  await env.DB.batch(statements);
}

type Outcome = { state: "queued" | "delivered" | "failed"; deliveredTo: string[]; error: string | null; retryAfterSeconds: number | null | undefined };

/**
 * One event after the sends of a batch: delivered when every chat has it; failed when a chat
 * refused it for good (a wrong token, a chat the bot is not in: staff must fix the setup, and
 * the dashboard says so); otherwise retried, after what Telegram asked (429) or the backoff
 * (`retryAfterSeconds` undefined), only to the chats that do not have it yet.
 */
function outcomeOf(event: StoredAlertEvent, chatIds: string[], results: Map<string, AlertSendResult>): Outcome {
  const deliveredTo = [...event.deliveredTo];
  const errors: string[] = [];
  let rejected = false;
  let waitSeconds: number | undefined;
  for (const chatId of chatIds) {
    if (deliveredTo.includes(chatId)) continue;
    const result = results.get(chatId);
    if (!result) continue;
    if (result.kind === "sent") deliveredTo.push(chatId);
    else {
      errors.push(`${chatId}: ${result.description}`);
      if (result.kind === "rejected") rejected = true;
      if (result.kind === "rate-limited") waitSeconds = Math.max(waitSeconds ?? 0, result.retryAfterSeconds);
    }
  }
  const error = errors.length > 0 ? errors.join("; ").slice(0, 500) : null;
  if (chatIds.every((c) => deliveredTo.includes(c))) return { state: "delivered", deliveredTo, error: null, retryAfterSeconds: null };
  if (rejected) return { state: "failed", deliveredTo, error, retryAfterSeconds: null };
  return { state: "queued", deliveredTo, error, retryAfterSeconds: waitSeconds };
}

/** The STAFF_ALERTS queue's consumer: each agency's messages of the batch together. */
export async function deliverAlerts(batch: MessageBatch<AlertMessageBody>, env: Env, now = Date.now()): Promise<void> {
  const byAgency = new Map<string, Message<AlertMessageBody>[]>();
  for (const message of batch.messages) {
    const body = message.body;
    if (!body || typeof body.agencyId !== "string" || typeof body.eventId !== "string") {
      message.ack(); // not ours: nothing could ever send it
      continue;
    }
    byAgency.set(body.agencyId, [...(byAgency.get(body.agencyId) ?? []), message]);
  }
  for (const [agencyId, messages] of byAgency) {
    try {
      await deliverForAgency(env, agencyId, messages, now);
    } catch (error) {
      // D1 or the channel threw: the queue tries these messages again later
      console.error("staff alerts of", agencyId, "not delivered", error);
      for (const m of messages) m.retry({ delaySeconds: retryDelaySeconds(m.attempts) });
    }
  }
}

/** The dead-letter queue's consumer: the events whose retries ran out, on the dashboard. */
export async function buryAlerts(batch: MessageBatch<AlertMessageBody>, env: Env, now = Date.now()): Promise<void> {
  const statements = batch.messages
    .filter((m) => typeof m.body?.agencyId === "string" && typeof m.body?.eventId === "string")
    .map((m) => markAlertFailedStatement(env.DB, m.body.agencyId, m.body.eventId, "retries ran out", iso(now)));
  if (statements.length > 0) await env.DB.batch(statements);
  batch.ackAll();
}

/**
 * A withdrawal that now waits for staff (services/withdrawals/withdraw.ts): queued for the agency's staff.
 * Never fails the withdrawal: an alert that cannot be queued is the cron's to raise again.
 */
export async function announceWaitingWithdrawal(env: Env, agencyId: string, username: string, order: WithdrawOrder, now = Date.now()): Promise<void> {
  const facts: AlertFacts["withdrawal.waiting"] = {
    code: order.code,
    username,
    credit: order.credit,
    receivedLak: order.receivedLak,
    bankCode: order.bankCode,
    accountMasked: maskAccountNumber(order.accountNumber),
    createdAt: iso(order.createdAt),
  };
  try {
    await raiseAlert(env, agencyId, { id: `withdrawal.waiting:${order.code}`, kind: "withdrawal.waiting", facts }, now);
  } catch (error) {
    console.error("staff alert of withdrawal", order.code, "not raised", error);
  }
}

// ---- the cron's sweep (every minute): timed events, quiet hours' end, lost messages

/** A withdrawal's facts for its message (the account masked as on the player pages). */
function withdrawalFacts(item: ManualQueueItem): AlertFacts["withdrawal.waiting"] {
  return {
    code: item.code,
    username: item.username,
    credit: item.credit,
    receivedLak: item.received,
    bankCode: item.bankCode,
    accountMasked: item.accountNumber ? maskAccountNumber(item.accountNumber) : null,
    createdAt: item.createdAt,
  };
}

/** A queued message not tried for this long (twice the longest backoff) was lost: sent again. */
const LOST_AFTER_MS = 30 * 60_000;
/** Messages per sendBatch, and statements per D1 batch of new events. */
const PER_BATCH = 100;

/**
 * Worst-case delays (ALERTS_CRON runs every minute, plus the queue's 5 s batch): a withdrawal
 * that starts waiting outside a request's own raise, a payment that matched no order, a held
 * forwarder credit, a provider failing or recovered, a forwarder past its silence limit are
 * announced within a minute of the dashboard showing them; a reminder within a minute of its
 * N minutes; held events within a minute of the quiet hours' end; the daily summary in the
 * first minute of its hour.
 */
export async function sweepAlerts(env: Env, now = Date.now()): Promise<void> {
  for (const settings of await listAlertingAgencies(env.DB)) {
    try {
      await sweepAgency(env, settings, now);
    } catch (error) {
      console.error("staff alerts sweep of", settings.agencyId, "failed", error);
    }
  }
}

/**
 * One agency's sweep, in three steps whatever waits (decision 075): every read at once (what
 * the dashboard shows, and what to send again); one read of which of the events found were
 * raised before; one batch recording the new ones, then one message batch queueing them. A
 * minute in which nothing new happened writes nothing: most of the dashboard's items are
 * still the ones announced the minute before.
 */
async function sweepAgency(env: Env, settings: AlertSettings, now: number): Promise<void> {
  const agencyId = settings.agencyId;
  const on = (topic: AlertTopic) => settings.topics.includes(topic);
  const [again, ...found] = await Promise.all([
    inQuietHours(now, settings.quietStart, settings.quietEnd) ? null : alertsToSendAgain(env.DB, agencyId, iso(now - LOST_AFTER_MS)),
    on("withdrawals") ? withdrawalEvents(env, settings, now) : [],
    on("payments") ? paymentEvents(env, agencyId) : [],
    on("security") ? securityEvents(env, agencyId, now) : [],
    on("providers") ? providerEvents(env, settings, now) : [],
    on("forwarder") ? forwarderEvents(env, agencyId, now) : [],
  ]);
  if (again) await sendAgain(env, agencyId, again, now);
  const events = new Map(found.flat().map((event) => [event.id, event]));
  const summaryId = summaryDue(settings, now) ? `summary.daily:${presetRange("yesterday", new Date(now)).from}` : null;
  const known = await knownAlertIds(env.DB, agencyId, [...events.keys(), ...(summaryId ? [summaryId] : [])]);
  const fresh = [...events.values()].filter((event) => !known.has(event.id));
  // the summary's figures are read only on the one minute it is raised
  if (summaryId && !known.has(summaryId)) fresh.push({ id: summaryId, kind: "summary.daily", facts: await dailySummaryFacts(env, agencyId, now) });
  await recordAndQueue(env, settings, fresh, now);
}

/** Held events (quiet hours are over) go back to the queue, and queued ones whose message was lost. */
async function sendAgain(env: Env, agencyId: string, again: { held: boolean; lost: string[] }, now: number): Promise<void> {
  const released = again.held ? await releaseHeldAlerts(env.DB, agencyId, iso(now)) : [];
  await enqueue(env, agencyId, [...released, ...again.lost]);
}

/**
 * New events recorded in one D1 batch (a second sweep racing this one records each once: the
 * insert does nothing on a known id), then queued together; held in quiet hours (sent in the
 * digest when they end).
 */
async function recordAndQueue(env: Env, settings: AlertSettings, events: AlertEvent[], now: number): Promise<void> {
  const wanted = events.filter((event) => topicOn(settings, event.kind));
  if (wanted.length === 0) return;
  const state = inQuietHours(now, settings.quietStart, settings.quietEnd) ? "held" : "queued";
  const recorded: string[] = [];
  for (let i = 0; i < wanted.length; i += PER_BATCH) {
    const chunk = wanted.slice(i, i + PER_BATCH);
    const results = await env.DB.batch(chunk.map((event) => insertAlertEventStatement(env.DB, settings.agencyId, event, state, iso(now))));
    chunk.forEach((event, j) => {
      if ((results[j]?.meta.changes ?? 0) > 0) recorded.push(event.id);
    });
  }
  if (state === "queued") await enqueue(env, settings.agencyId, recorded);
}

/** Event ids onto the queue, 100 a message batch. A send the queue refuses leaves them queued: the sweep finds them lost and sends them again. */
async function enqueue(env: Env, agencyId: string, eventIds: string[]): Promise<void> {
  for (let i = 0; i < eventIds.length; i += PER_BATCH) {
    const bodies = eventIds.slice(i, i + PER_BATCH).map((eventId) => ({ body: { agencyId, eventId } satisfies AlertMessageBody }));
    await env.STAFF_ALERTS.sendBatch(bodies).catch((error: unknown) => console.error("staff alerts not queued", error));
  }
}

/** The daily summary's hour (Vientiane clock) has come. */
function summaryDue(settings: AlertSettings, now: number): boolean {
  return settings.topics.includes("summary") && settings.summaryHour !== null && Math.floor(vientianeMinutes(now) / 60) === settings.summaryHour;
}

/** Withdrawals waiting for staff (the manual queue's oldest 100), and a reminder for each that waited the owner's N minutes. */
async function withdrawalEvents(env: Env, settings: AlertSettings, now: number): Promise<AlertEvent[]> {
  const { items } = await listManualQueue(env.DB, settings.agencyId, firstListPage(100));
  return items.flatMap((item): AlertEvent[] => {
    const facts = withdrawalFacts(item);
    const waiting: AlertEvent = { id: `withdrawal.waiting:${item.code}`, kind: "withdrawal.waiting", facts };
    const due = now - Date.parse(item.createdAt) >= settings.withdrawalReminderMinutes * 60_000;
    return due ? [waiting, { id: `withdrawal.reminder:${item.code}`, kind: "withdrawal.reminder", facts }] : [waiting];
  });
}

/**
 * The daily summary: the last whole Vientiane day in the reports' figures (the same numbers as
 * /admin/reports "yesterday"), and what is waiting now (the dashboard's counts).
 */
async function dailySummaryFacts(env: Env, agencyId: string, now: number): Promise<AlertFacts["summary.daily"]> {
  const range = presetRange("yesterday", new Date(now));
  const [money, players, dashboard] = await Promise.all([
    moneyReport(env.DB, agencyId, range),
    playersReport(env.DB, agencyId, range),
    loadDashboard(env.DB, agencyId, now),
  ]);
  return {
    date: range.from,
    depositCount: money.total.depositCount,
    depositLak: formatAmount(BigInt(money.total.depositKip), "LAK"),
    withdrawCount: money.total.withdrawCount,
    withdrawLakPaid: formatAmount(BigInt(money.total.withdrawKipPaid), "LAK"),
    newPlayers: players.total.registrations,
    firstDeposits: players.total.firstDeposits,
    waitingWithdrawals: dashboard.pending.manualWithdrawals,
    waitingDeposits: dashboard.waitingDeposits.count,
    unmatchedPayments: dashboard.pending.unmatchedPayments,
  };
}

/**
 * What the dashboard shows as provider outages (the same queries), announced once each: paid
 * deposits waiting for their provider longer than the owner's N minutes (once per oldest
 * order), a provider failing in the last 15 minutes and its recovery (once per episode).
 */
async function providerEvents(env: Env, settings: AlertSettings, now: number): Promise<AlertEvent[]> {
  const agencyId = settings.agencyId;
  const [waiting, failures, episodes] = await Promise.all([
    waitingDeposits(env.DB, agencyId),
    recentProviderFailures(env.DB, agencyId, iso(now - PROVIDER_FAILURE_WINDOW_MS), iso(now)),
    lastProviderEpisodes(env.DB, agencyId),
  ]);
  const events: AlertEvent[] = [];
  const oldestMinutes = waiting.oldestPaidAt === null ? null : Math.floor((now - Date.parse(waiting.oldestPaidAt)) / 60_000);
  if (waiting.count > 0 && oldestMinutes !== null && oldestMinutes >= settings.depositWaitMinutes) {
    // one alert per oldest order: a new one is raised when that one is done and another waits
    events.push({ id: `deposits.waiting:${waiting.oldestPaidAt}`, kind: "deposits.waiting", facts: { count: waiting.count, oldestMinutes } });
  }
  const failing = new Map(failures.map((f) => [f.provider, f]));
  for (const provider of new Set([...failing.keys(), ...episodes.keys()])) {
    const episode = episodes.get(provider);
    const failure = failing.get(provider);
    if (failure && (!episode || episode.recovered)) {
      const facts = { provider, timeouts: failure.timeouts, errors: failure.errors };
      events.push({ id: `provider.failing:${provider}:${iso(now)}`, kind: "provider.failing", facts });
    } else if (!failure && episode && !episode.recovered) {
      events.push({ id: `provider.recovered:${provider}:${episode.start}`, kind: "provider.recovered", facts: { provider, since: episode.start } });
    }
  }
  return events;
}

/** A forwarder silent past its limit while a player waits to pay on its channel, once per silence (keyed by its last message). */
async function forwarderEvents(env: Env, agencyId: string, now: number): Promise<AlertEvent[]> {
  return (await listSilentForwarders(env.DB, agencyId, now)).map((f) => {
    const last = f.lastMessageAt === null ? null : iso(f.lastMessageAt);
    return {
      id: `forwarder.silent:${f.channelCode}:${last ?? "never"}`,
      kind: "forwarder.silent",
      facts: { channelCode: f.channelCode, silenceMinutes: f.silenceMinutes, lastMessageAt: last },
    };
  });
}

/**
 * Money that waits for staff: a payment that matched no order (webhook, statement or
 * forwarder, every path records it in unmatched_payments) and a forwarder credit held above
 * its channel's cap, each announced once (its row's id).
 */
async function paymentEvents(env: Env, agencyId: string): Promise<AlertEvent[]> {
  const [{ items }, holds] = await Promise.all([
    listUnmatchedPayments(env.DB, agencyId, { status: "OPEN", ask: firstListPage(50) }),
    listWaitingHolds(env.DB, agencyId),
  ]);
  return [
    ...items.map(
      (p): AlertEvent => ({
        id: `payment.unmatched:${p.id}`,
        kind: "payment.unmatched",
        facts: { id: p.id, reason: p.kind, amountLak: p.amount, reference: p.reference, channelCode: p.channelCode, receivedAt: p.receivedAt },
      }),
    ),
    ...holds.map(
      (h): AlertEvent => ({
        id: `payment.held:${h.id}`,
        kind: "payment.held",
        facts: { id: h.id, amountLak: h.amount, channelCode: h.channelCode, receivedAt: iso(h.receivedAt) },
      }),
    ),
  ];
}

/** A player an owner's "flag" entry matched (decision 090): the audit row the flag wrote in its own batch. */
function blocklistFlagEvent(row: { id: number; target: string | null; after: unknown; createdAt: string }): AlertEvent[] {
  const after = (row.after ?? {}) as { checkpoint?: AlertFacts["player.blocklisted"]["checkpoint"]; username?: string | null; entries?: { kind: string }[] };
  if (!row.target || !after.checkpoint) return [];
  const kinds = [...new Set((after.entries ?? []).map((e) => e.kind))];
  const facts = { playerId: row.target, username: after.username ?? null, checkpoint: after.checkpoint, kinds, at: row.createdAt };
  return [{ id: `player.blocklisted:${row.id}`, kind: "player.blocklisted", facts }];
}

/** A claim held for staff (decision 094): the audit row the hold's own batch wrote, once per hold. */
function rewardHeldEvent(row: { id: number; target: string | null; after: unknown; createdAt: string }): AlertEvent[] {
  const after = (row.after ?? {}) as { kind?: string; rewardKey?: string; username?: string | null; amount?: string | null };
  if (!row.target || !after.kind) return [];
  const facts = {
    playerId: row.target,
    username: after.username ?? null,
    kind: after.kind,
    rewardKey: after.rewardKey ?? "",
    amount: after.amount ?? null,
    at: row.createdAt,
  };
  return [{ id: `reward.held:${row.id}`, kind: "reward.held", facts }];
}

/** A registration flagged as part of a burst (a device's third account of the day or more, an address's hour used up). */
function registrationBurstEvent(row: { id: number; target: string | null; after: unknown; createdAt: string }): AlertEvent[] {
  const after = (row.after ?? {}) as { by?: "device" | "address"; count?: number; username?: string | null };
  if (!row.target || (after.by !== "device" && after.by !== "address")) return [];
  const facts = { playerId: row.target, username: after.username ?? null, by: after.by, count: after.count ?? 0, at: row.createdAt };
  return [{ id: `player.registration-burst:${row.id}`, kind: "player.registration-burst", facts }];
}

/**
 * The audit log's logins from a new device, API token changes, blocklist flags, held claims and
 * registration bursts of the last 10 minutes, once each (the row's id).
 */
async function securityEvents(env: Env, agencyId: string, now: number): Promise<AlertEvent[]> {
  return (await recentSecurityAudit(env.DB, agencyId, iso(now - 10 * 60_000))).flatMap((row): AlertEvent[] => {
    const after = (row.after ?? {}) as { newDevice?: boolean; name?: string };
    if (row.action === "player.blocklist-flag") return blocklistFlagEvent(row);
    if (row.action === "reward.held") return rewardHeldEvent(row);
    if (row.action === "player.registration-burst") return registrationBurstEvent(row);
    if (row.action.startsWith("auth.login")) {
      if (after.newDevice !== true) return [];
      const facts = { username: row.staffUsername ?? "?", ip: row.ip, userAgent: row.userAgent, at: row.createdAt };
      return [{ id: `staff.new-device:${row.id}`, kind: "staff.new-device", facts }];
    }
    const change = row.action.slice("api-token.".length) as "created" | "rotated" | "revoked";
    const name = after.name ?? ((row.before ?? {}) as { name?: string }).name ?? "?";
    return [{ id: `api-token:${row.id}`, kind: "api-token.changed", facts: { change, name, by: row.staffUsername, at: row.createdAt } }];
  });
}
