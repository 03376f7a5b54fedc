import { ApiTokenCreateSchema, CreateStaffSchema, EnrolSchema, MarkPaidSchema, RecoveryCodeSchema, RejectSchema, StaffLoginSchema, TotpSchema } from "./admin";
import { LockSchema } from "./admin-ops";
import { PromotionSchema } from "./admin-promotion";
import { ChannelSchema, CredentialsSchema, LimitsSchema, ProfileSchema, ProvidersSchema, RateSchema } from "./admin-settings";
import { StaffBankReplaceSchema } from "./bank";
import { BlocklistAddSchema } from "./blocklist";
import { CashbackSettingsSchema } from "./cashback";
import { CheckinSettingsSchema } from "./checkin";
import { formSchemaName } from "./form-name";
import { LevelPeriodSchema, LevelSchema } from "./levels";
import { UnlinkSchema } from "./linked-accounts";
import { OwnAccountCreateSchema } from "./own-account-channel";
import { ReferralSettingsSchema } from "./referral";

/**
 * The back office's forms that validate in the browser (decision 089): the same schema objects
 * the actions parse with, by the name each carries (lib/schemas/form-name.ts), which
 * components/forms.tsx `useSchemaForm` puts on its form (`data-schema`). The lite forms'
 * validator module (lib/lite/form-validators.ts) takes them beside the player's.
 */
const STAFF_FORMS = [
  StaffLoginSchema,
  TotpSchema,
  RecoveryCodeSchema,
  EnrolSchema,
  CreateStaffSchema,
  MarkPaidSchema,
  RejectSchema,
  ApiTokenCreateSchema,
  CashbackSettingsSchema,
  CheckinSettingsSchema,
  OwnAccountCreateSchema,
  LockSchema,
  StaffBankReplaceSchema,
  ReferralSettingsSchema,
  PromotionSchema,
  RateSchema,
  LimitsSchema,
  ChannelSchema,
  ProvidersSchema,
  CredentialsSchema,
  ProfileSchema,
  LevelPeriodSchema,
  LevelSchema,
  BlocklistAddSchema,
  UnlinkSchema,
] as const;

export const STAFF_FORM_SCHEMAS: Readonly<Record<string, (typeof STAFF_FORMS)[number]>> = Object.fromEntries(
  STAFF_FORMS.map((schema) => {
    const name = formSchemaName(schema);
    if (!name) throw new Error("a staff form's schema needs its name: .meta({ id }) as its last call");
    return [name, schema];
  }),
);
