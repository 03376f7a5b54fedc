import { z } from "zod";
import { BANK_CODES } from "@workers/core/banks";
import { PROVIDERS } from "@workers/core/providers";
import { LANGUAGES } from "@workers/core/languages";
import { decimalPattern, scaled } from "@workers/core/decimal";
import type {
  ChannelActiveInput,
  ChannelInput,
  ClearCredentialsInput,
  CredentialsInput,
  LimitsInput,
  ProfileInput,
  ProvidersInput,
  RateInput,
} from "@workers/services/agency";

/**
 * The owner's settings forms (admin/settings). Each form posts an `intent` naming its
 * section; the route parses the form with the schema of that intent, the browser with the
 * same schema. Messages are translation keys of the admin namespace. Each schema's output
 * is the service's plain input type (`satisfies`), so the service never sees zod.
 */
export const CREDIT_CURRENCIES = ["THB", "USD"] as const;
const RATE_DECIMALS = 6;
const CREDIT_DECIMALS = 2;

const rate = (key: string) =>
  z
    .string({ error: key })
    .trim()
    .regex(decimalPattern(RATE_DECIMALS, 9), { error: key })
    .refine((v) => (scaled(v, RATE_DECIMALS) ?? 0n) > 0n, { error: key });

export const RateSchema = z
  .object({
    intent: z.literal("rate"),
    currency: z.enum(CREDIT_CURRENCIES, { error: "admin:settings.validation.currency" }),
    buy: rate("admin:settings.validation.rate"),
    sell: rate("admin:settings.validation.rate"),
  })
  // The agency sells credit for at least what it buys it back for: otherwise a deposit
  // followed by a withdrawal would pay the player more kip than they paid.
  .refine((v) => (scaled(v.buy, RATE_DECIMALS) ?? 0n) <= (scaled(v.sell, RATE_DECIMALS) ?? 0n), {
    error: "admin:settings.validation.buyAboveSell",
    path: ["buy"],
  })
  .meta({ id: "settings-rate" }) satisfies z.ZodType<RateInput>;

const kip = z.string({ error: "admin:settings.validation.kip" }).trim().regex(decimalPattern(0, 13), { error: "admin:settings.validation.kip" });
const credit = z
  .string({ error: "admin:settings.validation.credit" })
  .trim()
  .regex(decimalPattern(CREDIT_DECIMALS, 12), { error: "admin:settings.validation.credit" });

export const LimitsSchema = z
  .object({
    intent: z.literal("limits"),
    depositMin: kip,
    depositMax: kip,
    withdrawMin: credit,
    withdrawMax: credit,
    withdrawAutoMax: credit,
  })
  .refine((v) => (scaled(v.depositMin, 0) ?? 0n) > 0n, { error: "admin:settings.validation.positive", path: ["depositMin"] })
  .refine((v) => (scaled(v.depositMin, 0) ?? 0n) < (scaled(v.depositMax, 0) ?? 0n), { error: "admin:settings.validation.minBelowMax", path: ["depositMax"] })
  .refine((v) => (scaled(v.withdrawMin, CREDIT_DECIMALS) ?? 0n) > 0n, { error: "admin:settings.validation.positive", path: ["withdrawMin"] })
  .refine((v) => (scaled(v.withdrawMin, CREDIT_DECIMALS) ?? 0n) < (scaled(v.withdrawMax, CREDIT_DECIMALS) ?? 0n), {
    error: "admin:settings.validation.minBelowMax",
    path: ["withdrawMax"],
  })
  .refine((v) => (scaled(v.withdrawAutoMax, CREDIT_DECIMALS) ?? 0n) <= (scaled(v.withdrawMax, CREDIT_DECIMALS) ?? 0n), {
    error: "admin:settings.validation.autoAboveMax",
    path: ["withdrawAutoMax"],
  })
  .meta({ id: "settings-limits" }) satisfies z.ZodType<LimitsInput>;

export const ChannelSchema = z
  .object({
    intent: z.literal("channel"),
    /** Set when editing an existing channel (its code cannot change: orders refer to it). */
    existing: z.literal("1").optional(),
    code: z
      .string({ error: "admin:settings.validation.channelCode" })
      .trim()
      .toUpperCase()
      .regex(/^[A-Z0-9][A-Z0-9_-]{1,31}$/, { error: "admin:settings.validation.channelCode" }),
    mid: z
      .string({ error: "admin:settings.validation.mid" })
      .trim()
      .regex(/^[A-Za-z0-9._-]{1,40}$/, { error: "admin:settings.validation.mid" }),
    displayName: z
      .string({ error: "admin:settings.validation.required" })
      .trim()
      .min(1, { error: "admin:settings.validation.required" })
      .max(60, { error: "admin:settings.validation.tooLong" }),
    currency: z.literal("LAK", { error: "admin:settings.validation.currency" }),
    bankCode: z.enum(BANK_CODES, { error: "admin:settings.validation.bank" }),
    // EMV QR limits: merchant name (tag 59) at most 25 characters, city (tag 60) at most 15.
    merchantName: z
      .string({ error: "admin:settings.validation.required" })
      .trim()
      .min(1, { error: "admin:settings.validation.required" })
      .max(25, { error: "admin:settings.validation.tooLong" }),
    merchantCity: z
      .string({ error: "admin:settings.validation.required" })
      .trim()
      .min(1, { error: "admin:settings.validation.required" })
      .max(15, { error: "admin:settings.validation.tooLong" }),
    active: z.literal("on").optional(),
  })
  .meta({ id: "settings-channel" }) satisfies z.ZodType<ChannelInput>;

const ChannelActiveSchema = z.object({
  intent: z.literal("channel-active"),
  code: z.string().trim().min(1),
  active: z.enum(["1", "0"]),
}) satisfies z.ZodType<ChannelActiveInput>;

export const ProvidersSchema = z
  .object({
    intent: z.literal("providers"),
    providers: z
      .array(z.enum(PROVIDERS, { error: "admin:settings.validation.providers" }), { error: "admin:settings.validation.providers" })
      .min(1, { error: "admin:settings.validation.providers" }),
  })
  .meta({ id: "settings-providers" }) satisfies z.ZodType<ProvidersInput>;

export const CredentialsSchema = z
  .object({
    intent: z.literal("credentials"),
    provider: z.enum(PROVIDERS, { error: "admin:settings.validation.provider" }),
    agent: z
      .string({ error: "admin:settings.validation.required" })
      .trim()
      .min(1, { error: "admin:settings.validation.required" })
      .max(64, { error: "admin:settings.validation.tooLong" }),
    secret: z
      .string({ error: "admin:settings.validation.secret" })
      .min(8, { error: "admin:settings.validation.secret" })
      .max(512, { error: "admin:settings.validation.tooLong" }),
  })
  .meta({ id: "settings-credentials" }) satisfies z.ZodType<CredentialsInput>;

const ClearCredentialsSchema = z.object({
  intent: z.literal("credentials-clear"),
  provider: z.enum(PROVIDERS, { error: "admin:settings.validation.provider" }),
}) satisfies z.ZodType<ClearCredentialsInput>;

const SOCIALS = ["telegram", "whatsapp", "facebook", "twitter", "line"] as const;
export const SOCIAL_NETWORKS = SOCIALS;
const socialUrl = z
  .string()
  .trim()
  .max(200, { error: "admin:settings.validation.tooLong" })
  .regex(/^https:\/\/[^\s<>"']+$/, { error: "admin:settings.validation.url" })
  .optional();

export const ProfileSchema = z
  .object({
    intent: z.literal("profile"),
    fallbackLanguage: z.enum(LANGUAGES, { error: "admin:settings.validation.language" }),
    telegram: socialUrl,
    whatsapp: socialUrl,
    facebook: socialUrl,
    twitter: socialUrl,
    line: socialUrl,
  })
  .meta({ id: "settings-profile" }) satisfies z.ZodType<ProfileInput>;

export const SETTINGS_SCHEMAS = {
  rate: RateSchema,
  limits: LimitsSchema,
  channel: ChannelSchema,
  "channel-active": ChannelActiveSchema,
  providers: ProvidersSchema,
  credentials: CredentialsSchema,
  "credentials-clear": ClearCredentialsSchema,
  profile: ProfileSchema,
} as const;
type SettingsIntent = keyof typeof SETTINGS_SCHEMAS;

export function isSettingsIntent(value: unknown): value is SettingsIntent {
  return typeof value === "string" && Object.hasOwn(SETTINGS_SCHEMAS, value);
}
