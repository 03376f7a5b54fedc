import { findBank } from "../../core/banks";
import { formatRate, parseRate } from "../../core/money";
import { isProvider, PROVIDERS, type Provider } from "../../core/providers";
import { openSecret, sealSecret } from "../../core/secret-box";
import { canonicalDecimal } from "../../core/decimal";
import type { Language } from "../../core/languages";
import { auditIfChanged, auditStatement, type AuditActor } from "../../db/audit";
import { forgetProviderSetup } from "../../wallet/provider-port";
import { forgetAgency } from "./agency";
import { webhookSecret } from "../../ports/gateway";
import {
  credentialsSetAt,
  deleteCredentialsStatement,
  listCredentialDates,
  readAgencySettings,
  readCredentialsCiphertext,
  updateEnabledProvidersStatement,
  updateLimitsStatement,
  updateProfileStatement,
  upsertCredentialsStatement,
  type AgencyLimits,
  type AgencySettings,
} from "../../db/agencies";
import {
  findExchangeRate,
  findOwnAccountChannel,
  findPaymentChannel,
  insertExchangeRateHistoryStatement,
  listOwnAccountChannels,
  insertPaymentChannelStatement,
  listExchangeRateHistory,
  listExchangeRates,
  listPaymentChannels,
  setPaymentChannelActiveStatement,
  updatePaymentChannelStatement,
  upsertExchangeRateStatement,
  type ExchangeRate,
  type ExchangeRateChange,
  type PaymentChannel,
} from "../../db/payments";

/**
 * The owner's settings of an agency (back office item 6): exchange rates with history,
 * limits and the auto-payout threshold, payment channels, enabled providers and their
 * write-only credentials, social links and the fallback language. Every change is one D1
 * batch with its audit row (before/after; never a secret). Role checks are the route's
 * (requireStaff(..., { role: "owner" })); every query here is scoped by the actor's agency.
 */

type Limits = AgencyLimits;
export type ChannelRow = PaymentChannel;
type CredentialStatus = { provider: Provider; setAt: string | null };
type Profile = {
  fallbackLanguage: Language;
  telegram: string | null;
  whatsapp: string | null;
  facebook: string | null;
  twitter: string | null;
  line: string | null;
};

export type SettingsScreen = {
  rates: ExchangeRate[];
  rateHistory: ExchangeRateChange[];
  limits: Limits;
  channels: ChannelRow[];
  /** Channels that are the agency's own account: set up and changed on their own screen. */
  ownAccountCodes: string[];
  enabledProviders: Provider[];
  credentials: CredentialStatus[];
  profile: Profile;
};

/*
 * What the settings screen posts, one section at a time; `intent` names the section (the
 * forms' schemas in app/lib/schemas/admin-settings.ts produce exactly these values).
 */
export type RateInput = { intent: "rate"; currency: string; buy: string; sell: string };
export type LimitsInput = { intent: "limits" } & Limits;
export type ChannelInput = {
  intent: "channel";
  /** Set when editing an existing channel (its code cannot change). */
  existing?: "1";
  code: string;
  mid: string;
  displayName: string;
  currency: "LAK";
  bankCode: string;
  merchantName: string;
  merchantCity: string;
  active?: "on";
};
export type ChannelActiveInput = { intent: "channel-active"; code: string; active: "1" | "0" };
export type ProvidersInput = { intent: "providers"; providers: string[] };
export type CredentialsInput = { intent: "credentials"; provider: string; agent: string; secret: string };
export type ClearCredentialsInput = { intent: "credentials-clear"; provider: string };
export type ProfileInput = {
  intent: "profile";
  fallbackLanguage: Language;
  telegram?: string;
  whatsapp?: string;
  facebook?: string;
  twitter?: string;
  line?: string;
};
type SettingsChange = RateInput | LimitsInput | ChannelInput | ChannelActiveInput | ProvidersInput | CredentialsInput | ClearCredentialsInput | ProfileInput;

const profileOf = (settings: AgencySettings): Profile => ({ fallbackLanguage: settings.fallbackLanguage, ...settings.social });

/** Everything the settings screen shows. Provider secrets are never read here. */
export async function loadSettings(db: D1Database, agencyId: string, { historyLimit = 20 } = {}): Promise<SettingsScreen> {
  const [settings, rates, rateHistory, channels, credentials, ownAccount] = await Promise.all([
    readAgencySettings(db, agencyId),
    listExchangeRates(db, agencyId),
    listExchangeRateHistory(db, agencyId, historyLimit),
    listPaymentChannels(db, agencyId),
    listCredentialDates(db, agencyId),
    listOwnAccountChannels(db, agencyId),
  ]);
  const setAt = new Map(credentials.map((c) => [c.provider, c.setAt]));
  return {
    rates,
    rateHistory,
    limits: settings.limits,
    channels,
    ownAccountCodes: ownAccount.map((c) => c.code),
    enabledProviders: settings.enabledProviders,
    credentials: PROVIDERS.map((provider) => ({ provider, setAt: setAt.get(provider) ?? null })),
    profile: profileOf(settings),
  };
}

type SettingsResult = { ok: true } | { ok: false; code: string; field?: string };

/**
 * A gateway channel (an order's QR is the gateway's, and the gateway confirms the payment by
 * its signed webhook) is useless while GATEWAY_WEBHOOK_SECRET is unset: the webhook refuses
 * every delivery, so every deposit through it would wait forever. The secret is only required
 * of agencies with a gateway (workers/config.ts), so the channel is refused instead, created,
 * edited or switched on; switching one off stays possible. Own-account channels need no secret.
 */
const GATEWAY_SECRET_UNSET = { ok: false, code: "GATEWAY_SECRET_UNSET" } as const;

/** One section of the settings screen, as posted. */
export async function changeSettings(env: Env, actor: AuditActor, change: SettingsChange): Promise<SettingsResult> {
  const db = env.DB;
  switch (change.intent) {
    case "rate":
      return setExchangeRate(db, actor, change);
    case "limits":
      return setLimits(db, actor, change);
    case "channel":
      if (!webhookSecret(env)) return GATEWAY_SECRET_UNSET;
      return saveChannel(db, actor, change);
    case "channel-active":
      if (change.active === "1" && !webhookSecret(env) && !(await findOwnAccountChannel(db, actor.agencyId, change.code))) return GATEWAY_SECRET_UNSET;
      return setChannelActive(db, actor, change.code, change.active === "1");
    case "providers":
      return setEnabledProviders(db, actor, change.providers);
    case "credentials":
      return setProviderCredentials(db, env.CREDENTIALS_KEY, actor, change);
    case "credentials-clear":
      return clearProviderCredentials(db, actor, change.provider);
    case "profile":
      return setProfile(db, actor, change);
  }
}

/** Exchange rate of a credit currency: the current row replaced, the change kept in history. */
export async function setExchangeRate(db: D1Database, actor: AuditActor, input: RateInput): Promise<SettingsResult> {
  const buy = parseRate(input.buy);
  const sell = parseRate(input.sell);
  if (!buy || !sell) return { ok: false, code: "RATE_INVALID", field: "buy" };
  if (buy > sell) return { ok: false, code: "RATE_BUY_ABOVE_SELL", field: "buy" };
  const next = { currency: input.currency, buy: canonicalDecimal(formatRate(buy)), sell: canonicalDecimal(formatRate(sell)) };
  const before = await findExchangeRate(db, actor.agencyId, input.currency);
  await db.batch([
    upsertExchangeRateStatement(db, actor.agencyId, next),
    insertExchangeRateHistoryStatement(db, actor.agencyId, next, actor.staffUsername),
    auditStatement(db, actor, {
      action: "settings.rate",
      target: next.currency,
      before: before ? { currency: next.currency, buy: before.buy, sell: before.sell } : null,
      after: next,
    }),
  ]);
  return { ok: true };
}

export async function setLimits(db: D1Database, actor: AuditActor, input: LimitsInput): Promise<SettingsResult> {
  const next: Limits = {
    depositMin: canonicalDecimal(input.depositMin),
    depositMax: canonicalDecimal(input.depositMax),
    withdrawMin: canonicalDecimal(input.withdrawMin),
    withdrawMax: canonicalDecimal(input.withdrawMax),
    withdrawAutoMax: canonicalDecimal(input.withdrawAutoMax),
  };
  const before = (await readAgencySettings(db, actor.agencyId)).limits;
  await db.batch([
    updateLimitsStatement(db, actor.agencyId, next),
    auditStatement(db, actor, { action: "settings.limits", target: null, before, after: next }),
  ]);
  forgetAgency(actor.agencyId);
  return { ok: true };
}

/**
 * Creates a receiving channel, or updates one (`existing`). The code never changes (open
 * deposit orders refer to it) and a channel is never deleted, only deactivated.
 */
export async function saveChannel(db: D1Database, actor: AuditActor, input: ChannelInput): Promise<SettingsResult> {
  const bank = findBank(input.bankCode);
  if (!bank) return { ok: false, code: "BANK_UNKNOWN", field: "bankCode" };
  const current = await findPaymentChannel(db, actor.agencyId, input.code);
  const after: Omit<ChannelRow, "iin"> = {
    code: input.code,
    mid: input.mid,
    displayName: input.displayName,
    currency: "LAK",
    bankCode: bank.code,
    merchantName: input.merchantName,
    merchantCity: input.merchantCity,
    active: input.active === "on",
  };
  const values = { ...after, iin: bank.iin };
  if (!input.existing) {
    if (current) return { ok: false, code: "CHANNEL_EXISTS", field: "code" };
    const [inserted] = await db.batch([
      insertPaymentChannelStatement(db, actor.agencyId, values),
      // Audited only if the row was really inserted (a concurrent create of the same code loses).
      auditIfChanged(db, actor, { action: "settings.channel.create", target: input.code, before: null, after }),
    ]);
    if ((inserted.meta.changes ?? 0) === 0) return { ok: false, code: "CHANNEL_EXISTS", field: "code" };
    return { ok: true };
  }
  if (!current) return { ok: false, code: "CHANNEL_NOT_FOUND" };
  // An own-account channel's bank, receiver and name come from its static QR, never typed.
  if (await findOwnAccountChannel(db, actor.agencyId, input.code)) return { ok: false, code: "CHANNEL_OWN_ACCOUNT" };
  const { iin: _iin, ...before } = current; // audited as the owner typed it (the IIN follows the bank)
  await db.batch([
    updatePaymentChannelStatement(db, actor.agencyId, values),
    auditStatement(db, actor, { action: "settings.channel.update", target: input.code, before, after }),
  ]);
  return { ok: true };
}

export async function setChannelActive(db: D1Database, actor: AuditActor, code: string, active: boolean): Promise<SettingsResult> {
  const current = await findPaymentChannel(db, actor.agencyId, code);
  if (!current) return { ok: false, code: "CHANNEL_NOT_FOUND" };
  if (current.active === active) return { ok: true };
  await db.batch([
    setPaymentChannelActiveStatement(db, actor.agencyId, code, active),
    auditStatement(db, actor, {
      action: active ? "settings.channel.activate" : "settings.channel.deactivate",
      target: code,
      before: { active: current.active },
      after: { active },
    }),
  ]);
  return { ok: true };
}

export async function setEnabledProviders(db: D1Database, actor: AuditActor, providers: readonly string[]): Promise<SettingsResult> {
  const next = PROVIDERS.filter((p) => providers.includes(p));
  if (next.length === 0 || providers.some((p) => !isProvider(p))) return { ok: false, code: "PROVIDERS_INVALID", field: "providers" };
  const before = (await readAgencySettings(db, actor.agencyId)).enabledProviders;
  await db.batch([
    updateEnabledProvidersStatement(db, actor.agencyId, next),
    auditStatement(db, actor, { action: "settings.providers", target: null, before: { providers: before }, after: { providers: next } }),
  ]);
  forgetAgency(actor.agencyId);
  return { ok: true };
}

/** The associated data of a credential's ciphertext: the row it belongs to. */
const credentialsAad = (agencyId: string, provider: string) => `provider_credentials:${agencyId}:${provider}`;

/**
 * Write-only provider credentials: the agent name and the secret are sealed together with
 * CREDENTIALS_KEY (AES-256-GCM); the agent column keeps only a masked hint. Nothing of
 * them is ever returned to the screen, and the audit row says only that they were set.
 */
export async function setProviderCredentials(
  db: D1Database,
  credentialsKey: string | undefined,
  actor: AuditActor,
  input: CredentialsInput,
): Promise<SettingsResult> {
  if (!isProvider(input.provider)) return { ok: false, code: "PROVIDER_UNKNOWN", field: "provider" };
  const sealed = await sealSecret(credentialsKey, JSON.stringify({ agent: input.agent, secret: input.secret }), credentialsAad(actor.agencyId, input.provider));
  const setAt = await credentialsSetAt(db, actor.agencyId, input.provider);
  await db.batch([
    upsertCredentialsStatement(db, actor.agencyId, input.provider, maskAgent(input.agent), sealed),
    auditStatement(db, actor, {
      action: "settings.credentials.set",
      target: input.provider,
      before: { provider: input.provider, set: setAt !== null, setAt },
      after: { provider: input.provider, set: true },
    }),
  ]);
  forgetProviderSetup(actor.agencyId, input.provider);
  return { ok: true };
}

export async function clearProviderCredentials(db: D1Database, actor: AuditActor, provider: string): Promise<SettingsResult> {
  if (!isProvider(provider)) return { ok: false, code: "PROVIDER_UNKNOWN", field: "provider" };
  const setAt = await credentialsSetAt(db, actor.agencyId, provider);
  if (setAt === null) return { ok: true };
  await db.batch([
    deleteCredentialsStatement(db, actor.agencyId, provider),
    auditStatement(db, actor, {
      action: "settings.credentials.clear",
      target: provider,
      before: { provider, set: true, setAt },
      after: { provider, set: false },
    }),
  ]);
  forgetProviderSetup(actor.agencyId, provider);
  return { ok: true };
}

function maskAgent(agent: string): string {
  return agent.length <= 2 ? "*".repeat(agent.length) : `${agent.slice(0, 2)}${"*".repeat(Math.min(agent.length - 2, 8))}`;
}

/**
 * For a provider adapter (server side only, never a route): the agency's credentials for
 * a provider, or null when none are set or they do not open with this key.
 */
export async function readProviderCredentials(
  db: D1Database,
  credentialsKey: string | undefined,
  agencyId: string,
  provider: Provider,
): Promise<{ agent: string; secret: string } | null> {
  const ciphertext = await readCredentialsCiphertext(db, agencyId, provider);
  if (ciphertext === null) return null;
  const plain = await openSecret(credentialsKey, ciphertext, credentialsAad(agencyId, provider));
  if (!plain) return null;
  const value = JSON.parse(plain) as { agent: string; secret: string };
  return { agent: value.agent, secret: value.secret };
}

export async function setProfile(db: D1Database, actor: AuditActor, input: ProfileInput): Promise<SettingsResult> {
  const next: Profile = {
    fallbackLanguage: input.fallbackLanguage,
    telegram: input.telegram ?? null,
    whatsapp: input.whatsapp ?? null,
    facebook: input.facebook ?? null,
    twitter: input.twitter ?? null,
    line: input.line ?? null,
  };
  const before = profileOf(await readAgencySettings(db, actor.agencyId));
  const { fallbackLanguage, ...social } = next;
  await db.batch([
    updateProfileStatement(db, actor.agencyId, fallbackLanguage, social),
    auditStatement(db, actor, { action: "settings.profile", target: null, before, after: next }),
  ]);
  forgetAgency(actor.agencyId);
  return { ok: true };
}
