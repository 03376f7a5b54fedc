import { isAlertTopic, type AlertEvent, type AlertKind, type AlertTopic } from "../core/alerts";
import { isLanguage, type Language } from "../core/languages";

/**
 * Statements over the staff alerts' tables (migration 0036): one setup per agency and every
 * event raised, once (its id names the event, so a second raise or a second delivery of its
 * queue message finds the row and sends nothing new).
 */

export type AlertSettings = {
  agencyId: string;
  /** sealed with CREDENTIALS_KEY (core/secret-box.ts); null until the owner sets a token */
  botTokenSealed: string | null;
  botName: string | null;
  chatIds: string[];
  language: Language;
  quietStart: string | null;
  quietEnd: string | null;
  topics: AlertTopic[];
  withdrawalReminderMinutes: number;
  depositWaitMinutes: number;
  summaryHour: number | null;
  updatedBy: string | null;
  updatedAt: string;
};

type SettingsRow = {
  agency_id: string;
  bot_token_sealed: string | null;
  bot_name: string | null;
  chat_ids: string;
  language: string;
  quiet_start: string | null;
  quiet_end: string | null;
  kinds: string;
  withdrawal_reminder_minutes: number;
  deposit_wait_minutes: number;
  summary_hour: number | null;
  updated_by: string | null;
  updated_at: string;
};

function jsonList(text: string): string[] {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
  } catch {
    return [];
  }
}

const toSettings = (r: SettingsRow): AlertSettings => ({
  agencyId: r.agency_id,
  botTokenSealed: r.bot_token_sealed,
  botName: r.bot_name,
  chatIds: jsonList(r.chat_ids),
  language: isLanguage(r.language) ? r.language : "lo",
  quietStart: r.quiet_start,
  quietEnd: r.quiet_end,
  topics: jsonList(r.kinds).filter(isAlertTopic),
  withdrawalReminderMinutes: r.withdrawal_reminder_minutes,
  depositWaitMinutes: r.deposit_wait_minutes,
  summaryHour: r.summary_hour,
  updatedBy: r.updated_by,
  updatedAt: r.updated_at,
});

export async function readAlertSettings(db: D1Database, agencyId: string): Promise<AlertSettings | null> {
  const row = await db.prepare(`SELECT * FROM alert_settings WHERE agency_id = ?1`).bind(agencyId).first<SettingsRow>();
  return row ? toSettings(row) : null;
}

/** Agencies whose alerts can go somewhere (a token and at least one chat): the cron's sweep. */
export async function listAlertingAgencies(db: D1Database): Promise<AlertSettings[]> {
  const { results } = await db
    .prepare(
      `SELECT s.* FROM alert_settings s JOIN agencies a ON a.id = s.agency_id WHERE a.status = 'ACTIVE' AND s.bot_token_sealed IS NOT NULL AND s.chat_ids <> '[]'`,
    )
    .all<SettingsRow>();
  return results.map(toSettings);
}

export type AlertSettingsChange = Omit<AlertSettings, "agencyId" | "botTokenSealed" | "botName" | "updatedAt" | "updatedBy">;

/** The owner's setup, without the token (kept as it is unless `token` is given: write-only). */
export function saveAlertSettingsStatement(
  db: D1Database,
  agencyId: string,
  change: AlertSettingsChange,
  token: { sealed: string; botName: string | null } | null,
  who: string,
  now: string,
): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO alert_settings (agency_id, bot_token_sealed, bot_name, chat_ids, language, quiet_start, quiet_end, kinds,
                                   withdrawal_reminder_minutes, deposit_wait_minutes, summary_hour, updated_by, updated_at)
       VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)
       ON CONFLICT (agency_id) DO UPDATE SET
         bot_token_sealed = COALESCE(excluded.bot_token_sealed, alert_settings.bot_token_sealed),
         bot_name = CASE WHEN excluded.bot_token_sealed IS NULL THEN alert_settings.bot_name ELSE excluded.bot_name END,
         chat_ids = excluded.chat_ids, language = excluded.language,
         quiet_start = excluded.quiet_start, quiet_end = excluded.quiet_end, kinds = excluded.kinds,
         withdrawal_reminder_minutes = excluded.withdrawal_reminder_minutes,
         deposit_wait_minutes = excluded.deposit_wait_minutes, summary_hour = excluded.summary_hour,
         updated_by = excluded.updated_by, updated_at = excluded.updated_at`,
    )
    .bind(
      agencyId,
      token?.sealed ?? null,
      token?.botName ?? null,
      JSON.stringify(change.chatIds),
      change.language,
      change.quietStart,
      change.quietEnd,
      JSON.stringify(change.topics),
      change.withdrawalReminderMinutes,
      change.depositWaitMinutes,
      change.summaryHour,
      who,
      now,
    );
}

/** The token is removed: nothing is sent until a new one is set. */
export function clearAlertTokenStatement(db: D1Database, agencyId: string, who: string, now: string): D1PreparedStatement {
  return db
    .prepare(`UPDATE alert_settings SET bot_token_sealed = NULL, bot_name = NULL, updated_by = ?2, updated_at = ?3 WHERE agency_id = ?1`)
    .bind(agencyId, who, now);
}

// ---- events

export type AlertEventState = "queued" | "held" | "delivered" | "failed";

export type StoredAlertEvent = AlertEvent & {
  agencyId: string;
  state: AlertEventState;
  attempts: number;
  deliveredTo: string[];
  lastError: string | null;
  createdAt: string;
  updatedAt: string;
};

type EventRow = {
  id: string;
  agency_id: string;
  kind: string;
  facts: string;
  state: AlertEventState;
  attempts: number;
  delivered_to: string;
  last_error: string | null;
  created_at: string;
  updated_at: string;
};

const toEvent = (r: EventRow): StoredAlertEvent => ({
  id: r.id,
  agencyId: r.agency_id,
  kind: r.kind as AlertKind,
  facts: JSON.parse(r.facts) as AlertEvent["facts"],
  state: r.state,
  attempts: r.attempts,
  deliveredTo: jsonList(r.delivered_to),
  lastError: r.last_error,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

/** Records an event once: false when an event of that id was already raised (nothing to send). */
export async function insertAlertEvent(db: D1Database, agencyId: string, event: AlertEvent, state: "queued" | "held", now: string): Promise<boolean> {
  const result = await insertAlertEventStatement(db, agencyId, event, state, now).run();
  return result.meta.changes > 0;
}

/** The insert of `insertAlertEvent` as a statement (the sweep batches its new events); `meta.changes` 0: raised before. */
export function insertAlertEventStatement(db: D1Database, agencyId: string, event: AlertEvent, state: "queued" | "held", now: string): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO alert_events (id, agency_id, kind, facts, state, created_at, updated_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?6)
       ON CONFLICT (agency_id, id) DO NOTHING`,
    )
    .bind(event.id, agencyId, event.kind, JSON.stringify(event.facts), state, now);
}

/** The ids among `ids` raised before (one read for every event a sweep found, instead of an insert each). */
export async function knownAlertIds(db: D1Database, agencyId: string, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const { results } = await db
    .prepare(`SELECT id FROM alert_events WHERE agency_id = ?1 AND id IN (SELECT value FROM json_each(?2))`)
    .bind(agencyId, JSON.stringify(ids))
    .all<{ id: string }>();
  return new Set(results.map((r) => r.id));
}

export async function loadAlertEvents(db: D1Database, agencyId: string, ids: readonly string[]): Promise<StoredAlertEvent[]> {
  if (ids.length === 0) return [];
  const { results } = await db
    .prepare(`SELECT * FROM alert_events WHERE agency_id = ?1 AND id IN (SELECT value FROM json_each(?2))`)
    .bind(agencyId, JSON.stringify(ids))
    .all<EventRow>();
  return results.map(toEvent);
}

/** One try is over: the chats that took it so far, its state and the last error (null when delivered). */
export function recordAlertAttemptStatement(
  db: D1Database,
  agencyId: string,
  id: string,
  outcome: { state: AlertEventState; deliveredTo: readonly string[]; error: string | null },
  now: string,
): D1PreparedStatement {
  return db
    .prepare(
      `UPDATE alert_events SET state = ?3, delivered_to = ?4, last_error = ?5, attempts = attempts + 1, updated_at = ?6
        WHERE agency_id = ?1 AND id = ?2 AND state <> 'delivered'`,
    )
    .bind(agencyId, id, outcome.state, JSON.stringify(outcome.deliveredTo), outcome.error, now);
}

/** An event the dead-letter queue received: its retries ran out. */
export function markAlertFailedStatement(db: D1Database, agencyId: string, id: string, error: string, now: string): D1PreparedStatement {
  return db
    .prepare(
      `UPDATE alert_events SET state = 'failed', last_error = COALESCE(last_error, ?3), updated_at = ?4 WHERE agency_id = ?1 AND id = ?2 AND state = 'queued'`,
    )
    .bind(agencyId, id, error, now);
}

/** Held events (quiet hours) go back to the queue: the ids to enqueue. */
export async function releaseHeldAlerts(db: D1Database, agencyId: string, now: string): Promise<string[]> {
  const { results } = await db
    .prepare(`UPDATE alert_events SET state = 'queued', updated_at = ?2 WHERE agency_id = ?1 AND state = 'held' RETURNING id, created_at`)
    .bind(agencyId, now)
    .all<{ id: string; created_at: string }>();
  return results.sort((a, b) => a.created_at.localeCompare(b.created_at)).map((r) => r.id);
}

/**
 * What the sweep sends again, in one read: whether events are held (quiet hours), and queued
 * events whose message was lost (the queue refused the send, or it never came back), the
 * oldest 100.
 */
export async function alertsToSendAgain(db: D1Database, agencyId: string, lostBefore: string): Promise<{ held: boolean; lost: string[] }> {
  const { results } = await db
    .prepare(
      `SELECT 'held' AS state, NULL AS id WHERE EXISTS (SELECT 1 FROM alert_events WHERE agency_id = ?1 AND state = 'held')
       UNION ALL
       SELECT * FROM (SELECT 'queued', id FROM alert_events WHERE agency_id = ?1 AND state = 'queued' AND updated_at < ?2 ORDER BY created_at LIMIT 100)`,
    )
    .bind(agencyId, lostBefore)
    .all<{ state: "held" | "queued"; id: string | null }>();
  return { held: results.some((r) => r.state === "held"), lost: results.flatMap((r) => (r.state === "queued" && r.id !== null ? [r.id] : [])) };
}

/** Alerts not delivered (the dashboard): how many, and the newest few with Telegram's last answer. */
export async function undeliveredAlerts(db: D1Database, agencyId: string, limit = 5): Promise<{ count: number; latest: StoredAlertEvent[] }> {
  const [count, latest] = await db.batch<Record<string, unknown>>([
    db.prepare(`SELECT COUNT(*) AS n FROM alert_events WHERE agency_id = ?1 AND state = 'failed'`).bind(agencyId),
    db.prepare(`SELECT * FROM alert_events WHERE agency_id = ?1 AND state = 'failed' ORDER BY updated_at DESC LIMIT ?2`).bind(agencyId, limit),
  ]);
  return { count: Number((count.results[0] as { n: number } | undefined)?.n ?? 0), latest: (latest.results as EventRow[]).map(toEvent) };
}

/**
 * Each provider's last failing episode (the start in its event id: the newest id is the newest
 * start, ISO times sort), and whether its recovery was announced: the cron raises "failing"
 * once per episode and "recovered" once after it. Read through the events' key range, never
 * the agency's whole history of events.
 */
export async function lastProviderEpisodes(db: D1Database, agencyId: string): Promise<Map<string, { start: string; recovered: boolean }>> {
  const { results } = await db
    .prepare(
      `SELECT f.id, EXISTS (SELECT 1 FROM alert_events r WHERE r.agency_id = ?1 AND r.id = 'provider.recovered:' || substr(f.id, 18)) AS recovered
         FROM (SELECT max(id) AS id FROM alert_events WHERE agency_id = ?1 AND id >= 'provider.failing:' AND id < 'provider.failing;'
                GROUP BY substr(id, 18, instr(substr(id, 18), ':') - 1)) AS f`,
    )
    .bind(agencyId)
    .all<{ id: string; recovered: number }>();
  const episodes = new Map<string, { start: string; recovered: boolean }>();
  for (const row of results) {
    const [provider, ...start] = row.id.slice("provider.failing:".length).split(":");
    episodes.set(provider, { start: start.join(":"), recovered: row.recovered === 1 });
  }
  return episodes;
}
