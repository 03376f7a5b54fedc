import { canonicalDecimal } from "../../core/decimal";
import { LANGUAGES, type Language } from "../../core/languages";
import { limitError, parseAmount } from "../../core/money";
import type { Localized, PromotionRules } from "../../core/promotion";
import { PROVIDERS, type Provider } from "../../core/providers";
import { readAgencySettings, type AgencySettings } from "../../db/agencies";
import { auditIfChanged, auditStatement, type AuditActor } from "../../db/audit";
import {
  findPromotion,
  insertPromotionStatement,
  listPromotions as listCatalogue,
  promotionAuditState,
  setPromotionStatusStatement,
  updatePromotionStatement,
  type PromotionRecord,
  type PromotionStatus,
  type PromotionValues,
} from "../../db/promotions";

/**
 * The agency's promotions catalogue as staff edit it (back office item 5): the `promotions`
 * table of migration 0007. Titles and descriptions are in lo/cn/vn (lo required; a language
 * left empty is left out, so readers fall back to lo). Every change is one D1 batch with its
 * audit row; an edit carries the version (updated_at) it was made from and is refused if
 * someone changed the promotion meanwhile, so two staff never overwrite each other silently.
 */

/** A catalogue row as staff edit it: the money rules (the same shape the wallet snapshots) plus text and order. */
type AdminPromotion = PromotionRules & {
  id: string;
  status: PromotionStatus;
  title: Localized;
  description: Localized;
  /** One URL for every language, or one per language ({"lo","cn","vn"}, lo required). */
  imageUrl: Localized | null;
  sortOrder: number;
  createdAt: string;
  updatedAt: string;
};

/**
 * A promotion as the staff form posts it (app/lib/schemas/admin-promotion.ts validates it):
 * decimal strings, checkboxes "on" when ticked, texts per language.
 */
export type PromotionInput = {
  /** The row's updated_at when the form was opened: a concurrent edit is refused, not overwritten. */
  version?: string;
  titleLo: string;
  titleCn?: string;
  titleVn?: string;
  descriptionLo?: string;
  descriptionCn?: string;
  descriptionVn?: string;
  imageUrlLo?: string;
  imageUrlCn?: string;
  imageUrlVn?: string;
  bonusKind: "FIXED" | "PERCENT";
  bonusValue: string;
  bonusCap?: string;
  setAmount?: string;
  firstOrderOnly?: "on";
  creditThreshold: string;
  turnoverMultiple: string;
  maxWithdrawCredit?: string;
  withdrawAll?: "on";
  providers: Provider[];
  status: PromotionStatus;
  sortOrder: string;
};

function toAdminPromotion(record: PromotionRecord): AdminPromotion {
  return {
    id: record.id,
    status: record.status,
    title: record.title,
    description: record.description,
    imageUrl: record.imageUrl,
    ...record.rules,
    sortOrder: record.sortOrder,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
  };
}

export async function listPromotions(db: D1Database, agencyId: string): Promise<AdminPromotion[]> {
  return (await listCatalogue(db, agencyId)).map(toAdminPromotion);
}

/** One promotion of this agency (another agency's id is simply not found). */
export async function getPromotion(db: D1Database, agencyId: string, id: string): Promise<AdminPromotion | null> {
  const record = await findPromotion(db, agencyId, id);
  return record ? toAdminPromotion(record) : null;
}

/** The edit page: the promotion and the form's initial values; null when not found. */
export async function promotionEditPage(db: D1Database, agencyId: string, id: string) {
  const promotion = await getPromotion(db, agencyId, id);
  return promotion ? { promotion, values: promotionFormValues(promotion) } : null;
}

export type PromotionResult =
  | { ok: true; id: string }
  | { ok: false; code: "NOT_FOUND" | "STALE" | "PROVIDER_NOT_ENABLED" | "SET_AMOUNT_OUT_OF_LIMITS"; field?: keyof PromotionInput };

/** The rules the schema cannot know: the agency's providers and its deposit limits. */
function checkAgainstAgency(input: PromotionInput, agency: AgencySettings): PromotionResult | null {
  if (input.providers.some((p) => !agency.enabledProviders.includes(p))) return { ok: false, code: "PROVIDER_NOT_ENABLED", field: "providers" };
  if (input.setAmount !== undefined) {
    // a set amount is a deposit: within the agency's deposit limits, by the deposit's own rule
    const amount = parseAmount(input.setAmount, "LAK") ?? 0n;
    if (limitError(amount, { min: agency.limits.depositMin, max: agency.limits.depositMax }, "LAK"))
      return { ok: false, code: "SET_AMOUNT_OUT_OF_LIMITS", field: "setAmount" };
  }
  return null;
}

/** The languages that have text, trimmed; lo is "" when it has none. */
function localized(values: Partial<Record<Language, string | undefined>>): Localized {
  const out: Localized = { lo: "" };
  for (const lng of LANGUAGES) {
    const v = values[lng]?.trim();
    if (v) out[lng] = v;
  }
  return out;
}

/** What the promotion is set to (decimal strings canonical) from validated input. */
function valuesOf(input: PromotionInput): PromotionValues {
  const image = localized({ lo: input.imageUrlLo, cn: input.imageUrlCn, vn: input.imageUrlVn });
  return {
    title: localized({ lo: input.titleLo, cn: input.titleCn, vn: input.titleVn }),
    description: localized({ lo: input.descriptionLo, cn: input.descriptionCn, vn: input.descriptionVn }),
    imageUrl: image.lo ? image : null,
    rules: {
      bonusKind: input.bonusKind,
      bonusValue: canonicalDecimal(input.bonusValue),
      bonusCap: input.bonusKind === "PERCENT" && input.bonusCap !== undefined ? canonicalDecimal(input.bonusCap) : null,
      setAmount: input.setAmount !== undefined ? canonicalDecimal(input.setAmount) : null,
      firstOrderOnly: input.firstOrderOnly === "on",
      creditThreshold: canonicalDecimal(input.creditThreshold),
      turnoverMultiple: canonicalDecimal(input.turnoverMultiple),
      maxWithdrawCredit: input.maxWithdrawCredit !== undefined ? canonicalDecimal(input.maxWithdrawCredit) : null,
      withdrawAll: input.withdrawAll === "on",
      providers: PROVIDERS.filter((p) => input.providers.includes(p)),
    },
    status: input.status,
    sortOrder: Number(input.sortOrder),
  };
}

/** What a stored promotion is set to (the audit log's "before"). */
function currentValues(p: AdminPromotion): PromotionValues {
  const { bonusKind, bonusValue, bonusCap, setAmount, firstOrderOnly, creditThreshold, turnoverMultiple, maxWithdrawCredit, withdrawAll, providers } = p;
  return {
    title: p.title,
    description: p.description,
    imageUrl: p.imageUrl,
    rules: { bonusKind, bonusValue, bonusCap, setAmount, firstOrderOnly, creditThreshold, turnoverMultiple, maxWithdrawCredit, withdrawAll, providers },
    status: p.status,
    sortOrder: p.sortOrder,
  };
}

export async function createPromotion(db: D1Database, actor: AuditActor, input: PromotionInput): Promise<PromotionResult> {
  const refused = checkAgainstAgency(input, await readAgencySettings(db, actor.agencyId));
  if (refused) return refused;
  const id = crypto.randomUUID();
  const values = valuesOf(input);
  await db.batch([
    insertPromotionStatement(db, actor.agencyId, id, values),
    auditStatement(db, actor, { action: "promotion.create", target: id, before: null, after: { id, ...promotionAuditState(values) } }),
  ]);
  return { ok: true, id };
}

/** Replaces every field; refused (STALE) when the promotion changed since `input.version`. */
export async function updatePromotion(db: D1Database, actor: AuditActor, id: string, input: PromotionInput): Promise<PromotionResult> {
  const current = await getPromotion(db, actor.agencyId, id);
  if (!current) return { ok: false, code: "NOT_FOUND" };
  if (input.version !== undefined && input.version !== current.updatedAt) return { ok: false, code: "STALE" };
  const refused = checkAgainstAgency(input, await readAgencySettings(db, actor.agencyId));
  if (refused) return refused;
  const values = valuesOf(input);
  const [updated] = await db.batch([
    updatePromotionStatement(db, actor.agencyId, id, current.updatedAt, values),
    auditIfChanged(db, actor, {
      action: "promotion.update",
      target: id,
      before: promotionAuditState(currentValues(current)),
      after: promotionAuditState(values),
    }),
  ]);
  return (updated.meta.changes ?? 0) === 1 ? { ok: true, id } : { ok: false, code: "STALE" };
}

/** ACTIVE shows it to players, INACTIVE hides it (usages already claimed go on). */
export async function setPromotionStatus(db: D1Database, actor: AuditActor, id: string, status: PromotionStatus, version?: string): Promise<PromotionResult> {
  const current = await getPromotion(db, actor.agencyId, id);
  if (!current) return { ok: false, code: "NOT_FOUND" };
  if (version !== undefined && version !== current.updatedAt) return { ok: false, code: "STALE" };
  if (current.status === status) return { ok: true, id };
  const [updated] = await db.batch([
    setPromotionStatusStatement(db, actor.agencyId, id, current.updatedAt, status),
    auditIfChanged(db, actor, {
      action: status === "ACTIVE" ? "promotion.activate" : "promotion.deactivate",
      target: id,
      before: { status: current.status },
      after: { status },
    }),
  ]);
  return (updated.meta.changes ?? 0) === 1 ? { ok: true, id } : { ok: false, code: "STALE" };
}

/** The form's initial values for an existing promotion. */
function promotionFormValues(p: AdminPromotion) {
  return {
    version: p.updatedAt,
    titleLo: p.title.lo ?? "",
    titleCn: p.title.cn ?? "",
    titleVn: p.title.vn ?? "",
    descriptionLo: p.description.lo ?? "",
    descriptionCn: p.description.cn ?? "",
    descriptionVn: p.description.vn ?? "",
    imageUrlLo: p.imageUrl?.lo ?? "",
    imageUrlCn: p.imageUrl?.cn ?? "",
    imageUrlVn: p.imageUrl?.vn ?? "",
    bonusKind: p.bonusKind,
    bonusValue: p.bonusValue,
    bonusCap: p.bonusCap ?? "",
    setAmount: p.setAmount ?? "",
    firstOrderOnly: p.firstOrderOnly ? "on" : undefined,
    creditThreshold: p.creditThreshold,
    turnoverMultiple: p.turnoverMultiple,
    maxWithdrawCredit: p.maxWithdrawCredit ?? "",
    withdrawAll: p.withdrawAll ? "on" : undefined,
    providers: p.providers,
    status: p.status,
    sortOrder: String(p.sortOrder),
  };
}
