import type { PromotionInput } from "../../app/lib/schemas/admin-promotion";
import { canonicalDecimal, scaled } from "../core/decimal";
import { LANGUAGES, type Language } from "../core/languages";
import { PROVIDERS } from "../core/providers";
import { auditIfChanged, auditStatement, type AuditActor } from "../db/audit";
import type { PromotionRuleColumns, PromotionRules } from "../core/promotion";
import { parseLocalized, type Localized } from "./promotion";

/**
 * The agency's promotions catalogue as staff edit it (back office item 5): the `promotions`
 * table of migration 0007. Titles and descriptions are JSON {"lo","cn","vn"} (lo required;
 * a language left empty is left out, so readers fall back to lo). Every change is one D1
 * batch with its audit row; an edit carries the version (updated_at) it was made from and
 * is refused if someone changed the promotion meanwhile, so two staff never overwrite
 * each other silently.
 */

/** A catalogue row as staff edit it: the money rules (the same shape the wallet snapshots) plus text and order. */
export type AdminPromotion = PromotionRules & {
  id: string;
  status: "ACTIVE" | "INACTIVE";
  title: Localized;
  description: Partial<Record<Language, string>>;
  /** One URL for every language, or one per language ({"lo","cn","vn"}, lo required). */
  imageUrl: Localized | null;
  sortOrder: number;
  createdAt: string;
  updatedAt: string;
};

type PromotionRow = PromotionRuleColumns & {
  id: string;
  status: "ACTIVE" | "INACTIVE";
  title: string;
  description: string;
  image_url: string | null;
  sort_order: number;
  created_at: string;
  updated_at: string;
};

const COLUMNS = `id, status, title, description, image_url, bonus_kind, bonus_value, bonus_cap, set_amount, first_order_only,
  credit_threshold, turnover_multiple, max_withdraw_credit, withdraw_all, providers, sort_order, created_at, updated_at`;

function parseJson<T>(text: string, fallback: T): T {
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}


/** Stored as a plain URL when only lo is given (every language shows it), as JSON otherwise. */
function imageColumn(input: PromotionInput): string | null {
  const images = localized({ lo: input.imageUrlLo, cn: input.imageUrlCn, vn: input.imageUrlVn });
  if (!images.lo) return null;
  return images.cn || images.vn ? JSON.stringify(images) : images.lo;
}

function toPromotion(row: PromotionRow): AdminPromotion {
  const providers = parseJson<unknown>(row.providers, []);
  return {
    id: row.id,
    status: row.status,
    title: { lo: "", ...parseJson<Partial<Localized>>(row.title, {}) },
    description: parseJson<Partial<Record<Language, string>>>(row.description, {}),
    // the same reading as the player pages (a plain URL, or {"lo","cn","vn"})
    imageUrl: row.image_url ? parseLocalized(row.image_url) : null,
    bonusKind: row.bonus_kind === "PERCENT" ? "PERCENT" : "FIXED",
    bonusValue: row.bonus_value,
    bonusCap: row.bonus_cap,
    setAmount: row.set_amount,
    firstOrderOnly: row.first_order_only === 1,
    creditThreshold: row.credit_threshold,
    turnoverMultiple: row.turnover_multiple,
    maxWithdrawCredit: row.max_withdraw_credit,
    withdrawAll: row.withdraw_all === 1,
    providers: Array.isArray(providers) ? PROVIDERS.filter((p) => providers.includes(p)) : [],
    sortOrder: row.sort_order,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export async function listPromotions(db: D1Database, agencyId: string): Promise<AdminPromotion[]> {
  const { results } = await db
    .prepare(`SELECT ${COLUMNS} FROM promotions WHERE agency_id = ?1 ORDER BY status = 'ACTIVE' DESC, sort_order, created_at`)
    .bind(agencyId)
    .all<PromotionRow>();
  return results.map(toPromotion);
}

/** One promotion of this agency (another agency's id is simply not found). */
export async function getPromotion(db: D1Database, agencyId: string, id: string): Promise<AdminPromotion | null> {
  const row = await db.prepare(`SELECT ${COLUMNS} FROM promotions WHERE agency_id = ?1 AND id = ?2`).bind(agencyId, id).first<PromotionRow>();
  return row ? toPromotion(row) : null;
}

export type PromotionResult = { ok: true; id: string } | { ok: false; code: "NOT_FOUND" | "STALE" | "PROVIDER_NOT_ENABLED" | "SET_AMOUNT_OUT_OF_LIMITS"; field?: keyof PromotionInput };

type AgencyRules = { enabledProviders: readonly string[]; depositMin: string; depositMax: string };

async function agencyRules(db: D1Database, agencyId: string): Promise<AgencyRules> {
  const row = await db.prepare(`SELECT enabled_providers, deposit_min, deposit_max FROM agency_settings WHERE agency_id = ?1`).bind(agencyId).first<{ enabled_providers: string; deposit_min: string; deposit_max: string }>();
  if (!row) throw new Error(`agency ${agencyId} has no settings row`);
  const enabled = parseJson<unknown>(row.enabled_providers, []);
  return { enabledProviders: Array.isArray(enabled) ? enabled.filter((p): p is string => typeof p === "string") : [], depositMin: row.deposit_min, depositMax: row.deposit_max };
}

/** The rules the schema cannot know: the agency's providers and its deposit limits. */
function checkAgainstAgency(input: PromotionInput, rules: AgencyRules): PromotionResult | null {
  if (input.providers.some((p) => !rules.enabledProviders.includes(p))) return { ok: false, code: "PROVIDER_NOT_ENABLED", field: "providers" };
  if (input.setAmount !== undefined) {
    const amount = scaled(input.setAmount, 0) ?? 0n;
    const min = scaled(rules.depositMin, 0);
    const max = scaled(rules.depositMax, 0);
    if ((min !== null && amount < min) || (max !== null && amount > max)) return { ok: false, code: "SET_AMOUNT_OUT_OF_LIMITS", field: "setAmount" };
  }
  return null;
}

function localized(values: Partial<Record<Language, string | undefined>>): Partial<Record<Language, string>> {
  const out: Partial<Record<Language, string>> = {};
  for (const lng of LANGUAGES) {
    const v = values[lng]?.trim();
    if (v) out[lng] = v;
  }
  return out;
}

/** The row's values (decimal strings canonical, JSON columns) from validated input. */
function columns(input: PromotionInput) {
  return {
    title: JSON.stringify(localized({ lo: input.titleLo, cn: input.titleCn, vn: input.titleVn })),
    description: JSON.stringify(localized({ lo: input.descriptionLo, cn: input.descriptionCn, vn: input.descriptionVn })),
    image_url: imageColumn(input),
    bonus_kind: input.bonusKind,
    bonus_value: canonicalDecimal(input.bonusValue),
    bonus_cap: input.bonusKind === "PERCENT" && input.bonusCap !== undefined ? canonicalDecimal(input.bonusCap) : null,
    set_amount: input.setAmount !== undefined ? canonicalDecimal(input.setAmount) : null,
    first_order_only: input.firstOrderOnly === "on" ? 1 : 0,
    credit_threshold: canonicalDecimal(input.creditThreshold),
    turnover_multiple: canonicalDecimal(input.turnoverMultiple),
    max_withdraw_credit: input.maxWithdrawCredit !== undefined ? canonicalDecimal(input.maxWithdrawCredit) : null,
    withdraw_all: input.withdrawAll === "on" ? 1 : 0,
    providers: JSON.stringify(PROVIDERS.filter((p) => input.providers.includes(p))),
    status: input.status,
    sort_order: Number(input.sortOrder),
  };
}

type Columns = ReturnType<typeof columns>;
const ORDER: (keyof Columns)[] = [
  "title",
  "description",
  "image_url",
  "bonus_kind",
  "bonus_value",
  "bonus_cap",
  "set_amount",
  "first_order_only",
  "credit_threshold",
  "turnover_multiple",
  "max_withdraw_credit",
  "withdraw_all",
  "providers",
  "status",
  "sort_order",
];

/** The audit view of a promotion: its columns, JSON decoded. */
function auditView(c: Columns) {
  return { ...c, title: JSON.parse(c.title), description: JSON.parse(c.description), providers: JSON.parse(c.providers) };
}

function rowColumns(p: AdminPromotion): Columns {
  return {
    title: JSON.stringify(p.title),
    description: JSON.stringify(p.description),
    image_url: p.imageUrl === null ? null : p.imageUrl.cn || p.imageUrl.vn ? JSON.stringify(p.imageUrl) : p.imageUrl.lo,
    bonus_kind: p.bonusKind,
    bonus_value: p.bonusValue,
    bonus_cap: p.bonusCap,
    set_amount: p.setAmount,
    first_order_only: p.firstOrderOnly ? 1 : 0,
    credit_threshold: p.creditThreshold,
    turnover_multiple: p.turnoverMultiple,
    max_withdraw_credit: p.maxWithdrawCredit,
    withdraw_all: p.withdrawAll ? 1 : 0,
    providers: JSON.stringify(p.providers),
    status: p.status,
    sort_order: p.sortOrder,
  };
}

export async function createPromotion(db: D1Database, actor: AuditActor, input: PromotionInput): Promise<PromotionResult> {
  const refused = checkAgainstAgency(input, await agencyRules(db, actor.agencyId));
  if (refused) return refused;
  const id = crypto.randomUUID();
  const c = columns(input);
  await db.batch([
    db
      .prepare(`INSERT INTO promotions (id, agency_id, ${ORDER.join(", ")}) VALUES (?1, ?2, ${ORDER.map((_, i) => `?${i + 3}`).join(", ")})`)
      .bind(id, actor.agencyId, ...ORDER.map((k) => c[k])),
    auditStatement(db, actor, { action: "promotion.create", target: id, before: null, after: { id, ...auditView(c) } }),
  ]);
  return { ok: true, id };
}

/** Replaces every field; refused (STALE) when the promotion changed since `input.version`. */
export async function updatePromotion(db: D1Database, actor: AuditActor, id: string, input: PromotionInput): Promise<PromotionResult> {
  const current = await getPromotion(db, actor.agencyId, id);
  if (!current) return { ok: false, code: "NOT_FOUND" };
  if (input.version !== undefined && input.version !== current.updatedAt) return { ok: false, code: "STALE" };
  const refused = checkAgainstAgency(input, await agencyRules(db, actor.agencyId));
  if (refused) return refused;
  const c = columns(input);
  const [updated] = await db.batch([
    db
      .prepare(
        `UPDATE promotions SET ${ORDER.map((k, i) => `${k} = ?${i + 4}`).join(", ")}, updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
          WHERE agency_id = ?1 AND id = ?2 AND updated_at = ?3`,
      )
      .bind(actor.agencyId, id, current.updatedAt, ...ORDER.map((k) => c[k])),
    auditIfChanged(db, actor, { action: "promotion.update", target: id, before: auditView(rowColumns(current)), after: auditView(c) }),
  ]);
  return (updated.meta.changes ?? 0) === 1 ? { ok: true, id } : { ok: false, code: "STALE" };
}

/** ACTIVE shows it to players, INACTIVE hides it (usages already claimed go on). */
export async function setPromotionStatus(db: D1Database, actor: AuditActor, id: string, status: "ACTIVE" | "INACTIVE", version?: string): Promise<PromotionResult> {
  const current = await getPromotion(db, actor.agencyId, id);
  if (!current) return { ok: false, code: "NOT_FOUND" };
  if (version !== undefined && version !== current.updatedAt) return { ok: false, code: "STALE" };
  if (current.status === status) return { ok: true, id };
  const [updated] = await db.batch([
    db
      .prepare(`UPDATE promotions SET status = ?4, updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE agency_id = ?1 AND id = ?2 AND updated_at = ?3`)
      .bind(actor.agencyId, id, current.updatedAt, status),
    auditIfChanged(db, actor, { action: status === "ACTIVE" ? "promotion.activate" : "promotion.deactivate", target: id, before: { status: current.status }, after: { status } }),
  ]);
  return (updated.meta.changes ?? 0) === 1 ? { ok: true, id } : { ok: false, code: "STALE" };
}

/** The form's initial values for an existing promotion. */
export function promotionFormValues(p: AdminPromotion) {
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
