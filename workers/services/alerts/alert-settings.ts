import { alertText } from "../../core/alerts";
import { sealSecret } from "../../core/secret-box";
import { listAgencyHosts, setPrimaryHostStatements } from "../../db/agencies";
import { clearAlertTokenStatement, readAlertSettings, saveAlertSettingsStatement, undeliveredAlerts, type AlertSettings } from "../../db/alerts";
import { auditStatement, type AuditActor } from "../../db/audit";
import { alertChannelFor, checkAlertBot } from "../../ports/alert-channel-factory";
import { alertOrigin, alertTokenAad, openAlertToken } from "./alerts";

/**
 * The owner's alert setup (/admin/settings/alerts, decision 057): the Telegram bot token
 * (write-only, sealed like provider credentials, checked with Telegram before it is kept), the
 * chats, the language, quiet hours, the topics, the reminders' and summary's times, and the
 * agency's primary domain that alert links point at. Every change is audited without the token.
 */

/** What the owner chooses besides the token and the primary domain (one shape for the screen, the form and the row). */
type AlertChoices = Pick<
  AlertSettings,
  "chatIds" | "language" | "quietStart" | "quietEnd" | "topics" | "withdrawalReminderMinutes" | "depositWaitMinutes" | "summaryHour"
>;

export type AlertSettingsScreen = AlertChoices & {
  tokenSet: boolean;
  botName: string | null;
  hosts: { host: string; primary: boolean }[];
  updatedAt: string | null;
  updatedBy: string | null;
  undelivered: { count: number; latest: { id: string; kind: string; error: string | null; at: string }[] };
};

const DEFAULTS: Omit<AlertSettings, "agencyId" | "updatedAt" | "updatedBy"> = {
  botTokenSealed: null,
  botName: null,
  chatIds: [],
  language: "lo",
  quietStart: null,
  quietEnd: null,
  topics: ["withdrawals", "payments", "providers", "forwarder", "security"],
  withdrawalReminderMinutes: 15,
  depositWaitMinutes: 10,
  summaryHour: null,
};

export async function alertSettingsScreen(env: Env, agencyId: string): Promise<AlertSettingsScreen> {
  const [stored, hosts, undelivered] = await Promise.all([
    readAlertSettings(env.DB, agencyId),
    listAgencyHosts(env.DB, agencyId),
    undeliveredAlerts(env.DB, agencyId),
  ]);
  const s = stored ?? { ...DEFAULTS, agencyId, updatedAt: null, updatedBy: null };
  return {
    tokenSet: s.botTokenSealed !== null,
    botName: s.botName,
    chatIds: s.chatIds,
    language: s.language,
    quietStart: s.quietStart,
    quietEnd: s.quietEnd,
    topics: s.topics,
    withdrawalReminderMinutes: s.withdrawalReminderMinutes,
    depositWaitMinutes: s.depositWaitMinutes,
    summaryHour: s.summaryHour,
    hosts,
    updatedAt: s.updatedAt,
    updatedBy: s.updatedBy,
    undelivered: { count: undelivered.count, latest: undelivered.latest.map((e) => ({ id: e.id, kind: e.kind, error: e.lastError, at: e.updatedAt })) },
  };
}

export type AlertSettingsInput = AlertChoices & {
  /** a new token, or null to keep the one set */
  token: string | null;
  primaryHost: string | null;
};

export type AlertSettingsResult =
  | { ok: true }
  | { ok: false; code: "ALERT_TOKEN_REFUSED" | "ALERT_HOST_UNKNOWN"; field: "token" | "primaryHost"; detail?: string };

export async function saveAlertSettings(env: Env, actor: AuditActor, input: AlertSettingsInput, now = Date.now()): Promise<AlertSettingsResult> {
  const hosts = await listAgencyHosts(env.DB, actor.agencyId);
  if (input.primaryHost !== null && !hosts.some((h) => h.host === input.primaryHost)) return { ok: false, code: "ALERT_HOST_UNKNOWN", field: "primaryHost" };
  let token: { sealed: string; botName: string | null } | null = null;
  if (input.token !== null) {
    // Telegram is asked who the token is before it is kept: a mistyped token is said at once.
    const bot = await checkAlertBot(env, input.token);
    if (!bot.ok) return { ok: false, code: "ALERT_TOKEN_REFUSED", field: "token", detail: bot.description };
    token = { sealed: await sealSecret(env.CREDENTIALS_KEY, input.token, alertTokenAad(actor.agencyId)), botName: bot.username };
  }
  const before = await readAlertSettings(env.DB, actor.agencyId);
  const change = {
    chatIds: input.chatIds,
    language: input.language,
    quietStart: input.quietStart,
    quietEnd: input.quietEnd,
    topics: input.topics,
    withdrawalReminderMinutes: input.withdrawalReminderMinutes,
    depositWaitMinutes: input.depositWaitMinutes,
    summaryHour: input.summaryHour,
  };
  const primaryBefore = hosts.find((h) => h.primary)?.host ?? null;
  const statements = [
    saveAlertSettingsStatement(env.DB, actor.agencyId, change, token, actor.staffUsername ?? "api", new Date(now).toISOString()),
    auditStatement(env.DB, actor, {
      action: "settings.alerts",
      before: before && { ...withoutToken(before), tokenSet: before.botTokenSealed !== null, primaryHost: primaryBefore },
      after: {
        ...change,
        tokenSet: token !== null || before?.botTokenSealed != null,
        tokenChanged: token !== null,
        primaryHost: input.primaryHost ?? primaryBefore,
      },
    }),
  ];
  if (input.primaryHost !== null && input.primaryHost !== primaryBefore)
    statements.push(...setPrimaryHostStatements(env.DB, actor.agencyId, input.primaryHost));
  await env.DB.batch(statements);
  return { ok: true };
}

function withoutToken(settings: AlertSettings): Omit<AlertSettings, "botTokenSealed"> {
  const { botTokenSealed: _, ...rest } = settings;
  return rest;
}

export async function clearAlertToken(env: Env, actor: AuditActor, now = Date.now()): Promise<void> {
  const before = await readAlertSettings(env.DB, actor.agencyId);
  if (!before?.botTokenSealed) return;
  await env.DB.batch([
    clearAlertTokenStatement(env.DB, actor.agencyId, actor.staffUsername ?? "api", new Date(now).toISOString()),
    auditStatement(env.DB, actor, { action: "settings.alerts.token.clear", before: { tokenSet: true, botName: before.botName }, after: { tokenSet: false } }),
  ]);
}

/** What Telegram answered to the test message, per chat (shown as it is: the owner fixes the setup from it). */
export type AlertTestAnswer = { chatId: string; ok: boolean; answer: string };

/**
 * "Send a test message": sent now, not through the queue, because the point is Telegram's
 * answer on the screen. Nothing is recorded as an event.
 */
export async function sendTestAlert(
  env: Env,
  agencyId: string,
  agencyName: string,
  now = Date.now(),
): Promise<{ ok: true; answers: AlertTestAnswer[] } | { ok: false; code: "ALERT_NOT_SET_UP" }> {
  const settings = await readAlertSettings(env.DB, agencyId);
  const token = settings ? await openAlertToken(env, settings) : null;
  if (!settings || !token || settings.chatIds.length === 0) return { ok: false, code: "ALERT_NOT_SET_UP" };
  const channel = alertChannelFor(env, token);
  const text = alertText({ id: `test:${now}`, kind: "test", facts: { agencyName } }, settings.language, await alertOrigin(env, agencyId), now);
  const answers: AlertTestAnswer[] = [];
  for (const chatId of settings.chatIds) {
    const result = await channel.send({ chatId, text });
    answers.push(
      result.kind === "sent"
        ? { chatId, ok: true, answer: `ok (message ${result.messageId})` }
        : {
            chatId,
            ok: false,
            answer: result.kind === "rate-limited" ? `${result.description} (retry after ${result.retryAfterSeconds} s)` : result.description,
          },
    );
  }
  return { ok: true, answers };
}
