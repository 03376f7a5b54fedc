import { ApiTokenCreateSchema, CreateStaffSchema, EnrolSchema, MarkPaidSchema, RecoveryCodeSchema, RejectSchema, StaffLoginSchema, TotpSchema } from "./admin";
import { LockSchema } from "./admin-ops";
import { PromotionSchema } from "./admin-promotion";
import { ChannelSchema, CredentialsSchema, LimitsSchema, ProfileSchema, ProvidersSchema, RateSchema } from "./admin-settings";
import { StaffBankReplaceSchema } from "./bank";
import { CashbackSettingsSchema } from "./cashback";
import { OwnAccountCreateSchema } from "./own-account-channel";
import { ReferralSettingsSchema } from "./referral";

/**
 * The back office's forms that validate in the browser, by the name their form carries
 * (`data-schema`, decision 089): the same schema objects the actions parse with. The lite
 * forms' validator module (lib/lite/form-validators.ts) takes them with the player's, and
 * components/forms.tsx `useSchemaForm` names a form's schema by looking it up here, so a route
 * keeps passing its schema and nothing is typed twice.
 */
export const STAFF_FORM_SCHEMAS = {
  "staff-login": StaffLoginSchema,
  "staff-totp": TotpSchema,
  "staff-recovery": RecoveryCodeSchema,
  "staff-enrol": EnrolSchema,
  "staff-new": CreateStaffSchema,
  "withdraw-paid": MarkPaidSchema,
  "withdraw-reject": RejectSchema,
  "api-token": ApiTokenCreateSchema,
  "cashback-settings": CashbackSettingsSchema,
  "own-account-create": OwnAccountCreateSchema,
  "player-lock": LockSchema,
  "staff-bank-replace": StaffBankReplaceSchema,
  "referral-settings": ReferralSettingsSchema,
  promotion: PromotionSchema,
  "settings-rate": RateSchema,
  "settings-limits": LimitsSchema,
  "settings-channel": ChannelSchema,
  "settings-providers": ProvidersSchema,
  "settings-credentials": CredentialsSchema,
  "settings-profile": ProfileSchema,
} as const;

export type StaffFormSchemaName = keyof typeof STAFF_FORM_SCHEMAS;

const NAMES = new Map<unknown, StaffFormSchemaName>(Object.entries(STAFF_FORM_SCHEMAS).map(([name, schema]) => [schema, name as StaffFormSchemaName]));

/** The name the validator module knows a staff form's schema by; null for one it does not carry (the form then posts unchecked). */
export function staffFormSchemaName(schema: unknown): StaffFormSchemaName | null {
  return NAMES.get(schema) ?? null;
}
