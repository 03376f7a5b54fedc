import type { z } from "zod";
import { BANKS, findBank } from "../core/banks";
import { formatRate, parseRate } from "../core/money";
import { isProvider, PROVIDERS, type Provider } from "../core/providers";
import { openSecret, sealSecret } from "../core/secret-box";
import { canonicalDecimal } from "../core/decimal";
import type {
  ChannelSchema,
  CredentialsSchema,
  LimitsSchema,
  ProfileSchema,
  RateSchema,
} from "../../app/lib/schemas/admin-settings";
import { isLanguage, type Language } from "../core/languages";
import { auditStatement, type AuditActor } from "../db/audit";

/**
 * The owner's settings of an agency (back office item 6): exchange rates with history,
 * limits and the auto-payout threshold, payment channels, enabled providers and their
 * write-only credentials, social links and the fallback language. Every change is one D1
 * batch with its audit row (before/after; never a secret). Role checks are the route's
 * (requireStaff(..., { role: "owner" })); every query here is scoped by the actor's agency.
 */

export type ExchangeRate = { currency: string; buy: string; sell: string; updatedAt: string };
export type RateChange = { id: number; currency: string; buy: string; sell: string; changedBy: string | null; changedAt: string };
export type Limits = { depositMin: string; depositMax: string; withdrawMin: string; withdrawMax: string; withdrawAutoMax: string };
export type ChannelRow = { code: string; mid: string; displayName: string; currency: "LAK"; bankCode: string; merchantName: string; merchantCity: string; active: boolean };
export type CredentialStatus = { provider: Provider; setAt: string | null };
export type Profile = { fallbackLanguage: Language; telegram: string | null; whatsapp: string | null; facebook: string | null; twitter: string | null; line: string | null };

export type AgencySettings = {
  rates: ExchangeRate[];
  rateHistory: RateChange[];
  limits: Limits;
  channels: ChannelRow[];
  enabledProviders: Provider[];
  credentials: CredentialStatus[];
  profile: Profile;
};

type SettingsRow = {
  fallback_language: string;
  social_telegram: string | null;
  social_whatsapp: string | null;
  social_facebook: string | null;
  social_twitter: string | null;
  social_line: string | null;
  deposit_min: string;
  deposit_max: string;
  withdraw_min: string;
  withdraw_max: string;
  withdraw_auto_max: string;
  enabled_providers: string;
};

async function settingsRow(db: D1Database, agencyId: string): Promise<SettingsRow> {
  const row = await db
    .prepare(
      `SELECT fallback_language, social_telegram, social_whatsapp, social_facebook, social_twitter, social_line,
              deposit_min, deposit_max, withdraw_min, withdraw_max, withdraw_auto_max, enabled_providers
         FROM agency_settings WHERE agency_id = ?1`,
    )
    .bind(agencyId)
    .first<SettingsRow>();
  if (!row) throw new Error(`agency ${agencyId} has no settings row`);
  return row;
}

function parseProviders(json: string): Provider[] {
  try {
    const value: unknown = JSON.parse(json);
    return Array.isArray(value) ? PROVIDERS.filter((p) => value.includes(p)) : [];
  } catch {
    return [];
  }
}

const limitsOf = (row: SettingsRow): Limits => ({
  depositMin: row.deposit_min,
  depositMax: row.deposit_max,
  withdrawMin: row.withdraw_min,
  withdrawMax: row.withdraw_max,
  withdrawAutoMax: row.withdraw_auto_max,
});

const profileOf = (row: SettingsRow): Profile => ({
  fallbackLanguage: isLanguage(row.fallback_language) ? row.fallback_language : "lo",
  telegram: row.social_telegram,
  whatsapp: row.social_whatsapp,
  facebook: row.social_facebook,
  twitter: row.social_twitter,
  line: row.social_line,
});

/** Everything the settings screen shows. Provider secrets are never read here. */
export async function loadSettings(db: D1Database, agencyId: string, { historyLimit = 20 } = {}): Promise<AgencySettings> {
  const [row, rates, history, channels, credentials] = await Promise.all([
    settingsRow(db, agencyId),
    db.prepare(`SELECT currency, buy, sell, updated_at FROM exchange_rates WHERE agency_id = ?1 ORDER BY currency`).bind(agencyId).all<{ currency: string; buy: string; sell: string; updated_at: string }>(),
    db
      .prepare(`SELECT id, currency, buy, sell, changed_by, changed_at FROM exchange_rate_history WHERE agency_id = ?1 ORDER BY id DESC LIMIT ?2`)
      .bind(agencyId, historyLimit)
      .all<{ id: number; currency: string; buy: string; sell: string; changed_by: string | null; changed_at: string }>(),
    db
      .prepare(`SELECT code, mid, display_name, currency, bank_code, merchant_name, merchant_city, active FROM payment_channels WHERE agency_id = ?1 ORDER BY active DESC, code`)
      .bind(agencyId)
      .all<{ code: string; mid: string; display_name: string; currency: "LAK"; bank_code: string; merchant_name: string; merchant_city: string; active: number }>(),
    db.prepare(`SELECT provider, updated_at FROM provider_credentials WHERE agency_id = ?1`).bind(agencyId).all<{ provider: string; updated_at: string }>(),
  ]);
  const setAt = new Map(credentials.results.map((c) => [c.provider, c.updated_at]));
  return {
    rates: rates.results.map((r) => ({ currency: r.currency, buy: r.buy, sell: r.sell, updatedAt: r.updated_at })),
    rateHistory: history.results.map((h) => ({ id: h.id, currency: h.currency, buy: h.buy, sell: h.sell, changedBy: h.changed_by, changedAt: h.changed_at })),
    limits: limitsOf(row),
    channels: channels.results.map((c) => ({
      code: c.code,
      mid: c.mid,
      displayName: c.display_name,
      currency: c.currency,
      bankCode: c.bank_code,
      merchantName: c.merchant_name,
      merchantCity: c.merchant_city,
      active: c.active === 1,
    })),
    enabledProviders: parseProviders(row.enabled_providers),
    credentials: PROVIDERS.map((provider) => ({ provider, setAt: setAt.get(provider) ?? null })),
    profile: profileOf(row),
  };
}

export type SettingsResult = { ok: true } | { ok: false; code: string; field?: string };

/** Exchange rate of a credit currency: the current row replaced, the change kept in history. */
export async function setExchangeRate(db: D1Database, actor: AuditActor, input: z.output<typeof RateSchema>): Promise<SettingsResult> {
  const buy = parseRate(input.buy);
  const sell = parseRate(input.sell);
  if (!buy || !sell) return { ok: false, code: "RATE_INVALID", field: "buy" };
  if (buy > sell) return { ok: false, code: "RATE_BUY_ABOVE_SELL", field: "buy" };
  const next = { currency: input.currency, buy: canonicalDecimal(formatRate(buy)), sell: canonicalDecimal(formatRate(sell)) };
  const before = await db.prepare(`SELECT buy, sell FROM exchange_rates WHERE agency_id = ?1 AND currency = ?2`).bind(actor.agencyId, input.currency).first<{ buy: string; sell: string }>();
  await db.batch([
    db
      .prepare(
        `INSERT INTO exchange_rates (agency_id, currency, buy, sell, updated_at) VALUES (?1, ?2, ?3, ?4, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
         ON CONFLICT (agency_id, currency) DO UPDATE SET buy = excluded.buy, sell = excluded.sell, updated_at = excluded.updated_at`,
      )
      .bind(actor.agencyId, next.currency, next.buy, next.sell),
    db
      .prepare(`INSERT INTO exchange_rate_history (agency_id, currency, buy, sell, changed_by) VALUES (?1, ?2, ?3, ?4, ?5)`)
      .bind(actor.agencyId, next.currency, next.buy, next.sell, actor.staffUsername),
    auditStatement(db, actor, { action: "settings.rate", target: next.currency, before: before ? { currency: next.currency, ...before } : null, after: next }),
  ]);
  return { ok: true };
}

export async function setLimits(db: D1Database, actor: AuditActor, input: z.output<typeof LimitsSchema>): Promise<SettingsResult> {
  const next: Limits = {
    depositMin: canonicalDecimal(input.depositMin),
    depositMax: canonicalDecimal(input.depositMax),
    withdrawMin: canonicalDecimal(input.withdrawMin),
    withdrawMax: canonicalDecimal(input.withdrawMax),
    withdrawAutoMax: canonicalDecimal(input.withdrawAutoMax),
  };
  const before = limitsOf(await settingsRow(db, actor.agencyId));
  await db.batch([
    db
      .prepare(`UPDATE agency_settings SET deposit_min = ?2, deposit_max = ?3, withdraw_min = ?4, withdraw_max = ?5, withdraw_auto_max = ?6 WHERE agency_id = ?1`)
      .bind(actor.agencyId, next.depositMin, next.depositMax, next.withdrawMin, next.withdrawMax, next.withdrawAutoMax),
    auditStatement(db, actor, { action: "settings.limits", target: null, before, after: next }),
  ]);
  return { ok: true };
}

type ChannelDbRow = { code: string; mid: string; display_name: string; bank_code: string; merchant_name: string; merchant_city: string; active: number };

/**
 * Creates a receiving channel, or updates one (`existing`). The code never changes (open
 * deposit orders refer to it) and a channel is never deleted, only deactivated.
 */
export async function saveChannel(db: D1Database, actor: AuditActor, input: z.output<typeof ChannelSchema>): Promise<SettingsResult> {
  const bank = findBank(input.bankCode);
  if (!bank) return { ok: false, code: "BANK_UNKNOWN", field: "bankCode" };
  const current = await db
    .prepare(`SELECT code, mid, display_name, bank_code, merchant_name, merchant_city, active FROM payment_channels WHERE agency_id = ?1 AND code = ?2`)
    .bind(actor.agencyId, input.code)
    .first<ChannelDbRow>();
  const after = { code: input.code, mid: input.mid, displayName: input.displayName, currency: "LAK", bankCode: bank.code, merchantName: input.merchantName, merchantCity: input.merchantCity, active: input.active === "on" };
  if (!input.existing) {
    if (current) return { ok: false, code: "CHANNEL_EXISTS", field: "code" };
    const [inserted] = await db.batch([
      db
        .prepare(
          `INSERT OR IGNORE INTO payment_channels (agency_id, code, mid, display_name, currency, bank_code, iin, merchant_name, merchant_city, active)
           VALUES (?1, ?2, ?3, ?4, 'LAK', ?5, ?6, ?7, ?8, ?9)`,
        )
        .bind(actor.agencyId, input.code, input.mid, input.displayName, bank.code, bank.iin, input.merchantName, input.merchantCity, after.active ? 1 : 0),
      // Audited only if the row was really inserted (a concurrent create of the same code loses).
      db
        .prepare(
          `INSERT INTO audit_log (agency_id, staff_id, staff_username, action, target, before_json, after_json, ip, user_agent)
           SELECT ?1, ?2, ?3, 'settings.channel.create', ?4, NULL, ?5, ?6, ?7 WHERE changes() = 1`,
        )
        .bind(actor.agencyId, actor.staffId, actor.staffUsername, input.code, JSON.stringify(after), actor.ip ?? null, actor.userAgent?.slice(0, 300) ?? null),
    ]);
    if ((inserted.meta.changes ?? 0) === 0) return { ok: false, code: "CHANNEL_EXISTS", field: "code" };
    return { ok: true };
  }
  if (!current) return { ok: false, code: "CHANNEL_NOT_FOUND" };
  await db.batch([
    db
      .prepare(
        `UPDATE payment_channels SET mid = ?3, display_name = ?4, bank_code = ?5, iin = ?6, merchant_name = ?7, merchant_city = ?8, active = ?9
          WHERE agency_id = ?1 AND code = ?2`,
      )
      .bind(actor.agencyId, input.code, input.mid, input.displayName, bank.code, bank.iin, input.merchantName, input.merchantCity, after.active ? 1 : 0),
    auditStatement(db, actor, { action: "settings.channel.update", target: input.code, before: channelView(current), after }),
  ]);
  return { ok: true };
}

function channelView(row: ChannelDbRow) {
  return { code: row.code, mid: row.mid, displayName: row.display_name, currency: "LAK", bankCode: row.bank_code, merchantName: row.merchant_name, merchantCity: row.merchant_city, active: row.active === 1 };
}

export async function setChannelActive(db: D1Database, actor: AuditActor, code: string, active: boolean): Promise<SettingsResult> {
  const current = await db
    .prepare(`SELECT code, mid, display_name, bank_code, merchant_name, merchant_city, active FROM payment_channels WHERE agency_id = ?1 AND code = ?2`)
    .bind(actor.agencyId, code)
    .first<ChannelDbRow>();
  if (!current) return { ok: false, code: "CHANNEL_NOT_FOUND" };
  if ((current.active === 1) === active) return { ok: true };
  await db.batch([
    db.prepare(`UPDATE payment_channels SET active = ?3 WHERE agency_id = ?1 AND code = ?2`).bind(actor.agencyId, code, active ? 1 : 0),
    auditStatement(db, actor, { action: active ? "settings.channel.activate" : "settings.channel.deactivate", target: code, before: { active: current.active === 1 }, after: { active } }),
  ]);
  return { ok: true };
}

export async function setEnabledProviders(db: D1Database, actor: AuditActor, providers: readonly string[]): Promise<SettingsResult> {
  const next = PROVIDERS.filter((p) => providers.includes(p));
  if (next.length === 0 || providers.some((p) => !isProvider(p))) return { ok: false, code: "PROVIDERS_INVALID", field: "providers" };
  const before = parseProviders((await settingsRow(db, actor.agencyId)).enabled_providers);
  await db.batch([
    db.prepare(`UPDATE agency_settings SET enabled_providers = ?2 WHERE agency_id = ?1`).bind(actor.agencyId, JSON.stringify(next)),
    auditStatement(db, actor, { action: "settings.providers", target: null, before: { providers: before }, after: { providers: next } }),
  ]);
  return { ok: true };
}

/** The associated data of a credential's ciphertext: the row it belongs to. */
const credentialsAad = (agencyId: string, provider: string) => `provider_credentials:${agencyId}:${provider}`;

/**
 * Write-only provider credentials: the agent name and the secret are sealed together with
 * CREDENTIALS_KEY (AES-256-GCM); the agent column keeps only a masked hint. Nothing of
 * them is ever returned to the screen, and the audit row says only that they were set.
 */
export async function setProviderCredentials(db: D1Database, credentialsKey: string | undefined, actor: AuditActor, input: z.output<typeof CredentialsSchema>): Promise<SettingsResult> {
  if (!isProvider(input.provider)) return { ok: false, code: "PROVIDER_UNKNOWN", field: "provider" };
  const sealed = await sealSecret(credentialsKey, JSON.stringify({ agent: input.agent, secret: input.secret }), credentialsAad(actor.agencyId, input.provider));
  const before = await db.prepare(`SELECT updated_at FROM provider_credentials WHERE agency_id = ?1 AND provider = ?2`).bind(actor.agencyId, input.provider).first<{ updated_at: string }>();
  await db.batch([
    db
      .prepare(
        `INSERT INTO provider_credentials (agency_id, provider, agent, secret_ciphertext, updated_at) VALUES (?1, ?2, ?3, ?4, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
         ON CONFLICT (agency_id, provider) DO UPDATE SET agent = excluded.agent, secret_ciphertext = excluded.secret_ciphertext, updated_at = excluded.updated_at`,
      )
      .bind(actor.agencyId, input.provider, maskAgent(input.agent), sealed),
    auditStatement(db, actor, { action: "settings.credentials.set", target: input.provider, before: { provider: input.provider, set: before !== null, setAt: before?.updated_at ?? null }, after: { provider: input.provider, set: true } }),
  ]);
  return { ok: true };
}

export async function clearProviderCredentials(db: D1Database, actor: AuditActor, provider: string): Promise<SettingsResult> {
  if (!isProvider(provider)) return { ok: false, code: "PROVIDER_UNKNOWN", field: "provider" };
  const before = await db.prepare(`SELECT updated_at FROM provider_credentials WHERE agency_id = ?1 AND provider = ?2`).bind(actor.agencyId, provider).first<{ updated_at: string }>();
  if (!before) return { ok: true };
  await db.batch([
    db.prepare(`DELETE FROM provider_credentials WHERE agency_id = ?1 AND provider = ?2`).bind(actor.agencyId, provider),
    auditStatement(db, actor, { action: "settings.credentials.clear", target: provider, before: { provider, set: true, setAt: before.updated_at }, after: { provider, set: false } }),
  ]);
  return { ok: true };
}

function maskAgent(agent: string): string {
  return agent.length <= 2 ? "*".repeat(agent.length) : `${agent.slice(0, 2)}${"*".repeat(Math.min(agent.length - 2, 8))}`;
}

/**
 * For a provider adapter (server side only, never a route): the agency's credentials for
 * a provider, or null when none are set or they do not open with this key.
 */
export async function readProviderCredentials(db: D1Database, credentialsKey: string | undefined, agencyId: string, provider: Provider): Promise<{ agent: string; secret: string } | null> {
  const row = await db.prepare(`SELECT secret_ciphertext FROM provider_credentials WHERE agency_id = ?1 AND provider = ?2`).bind(agencyId, provider).first<{ secret_ciphertext: string }>();
  if (!row) return null;
  const plain = await openSecret(credentialsKey, row.secret_ciphertext, credentialsAad(agencyId, provider));
  if (!plain) return null;
  const value = JSON.parse(plain) as { agent: string; secret: string };
  return { agent: value.agent, secret: value.secret };
}

export async function setProfile(db: D1Database, actor: AuditActor, input: z.output<typeof ProfileSchema>): Promise<SettingsResult> {
  const next: Profile = {
    fallbackLanguage: input.fallbackLanguage,
    telegram: input.telegram ?? null,
    whatsapp: input.whatsapp ?? null,
    facebook: input.facebook ?? null,
    twitter: input.twitter ?? null,
    line: input.line ?? null,
  };
  const before = profileOf(await settingsRow(db, actor.agencyId));
  await db.batch([
    db
      .prepare(
        `UPDATE agency_settings SET fallback_language = ?2, social_telegram = ?3, social_whatsapp = ?4, social_facebook = ?5, social_twitter = ?6, social_line = ?7
          WHERE agency_id = ?1`,
      )
      .bind(actor.agencyId, next.fallbackLanguage, next.telegram, next.whatsapp, next.facebook, next.twitter, next.line),
    auditStatement(db, actor, { action: "settings.profile", target: null, before, after: next }),
  ]);
  return { ok: true };
}

/** The banks a channel may receive on (for the channel form's select). */
export const CHANNEL_BANKS = BANKS.map((b) => b.code);
