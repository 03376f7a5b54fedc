import { LANGUAGES, type Language } from "../core/languages";
import type { Localized, PromotionRules } from "../core/promotion";
import { isProvider, PROVIDERS } from "../core/providers";
import { rowsOf, type Read } from "./reads";

/**
 * Statements over `promotions` (migration 0007): the agency's catalogue. Titles and
 * descriptions are JSON {"lo","cn","vn"} (a language left empty is left out, readers fall
 * back to lo); the image is a plain URL for every language, or such a JSON object.
 */

export type PromotionStatus = "ACTIVE" | "INACTIVE";

/** A catalogue promotion as the services read it. */
export type PromotionRecord = {
  id: string;
  status: PromotionStatus;
  title: Localized;
  description: Localized;
  imageUrl: Localized | null;
  rules: PromotionRules;
  /** False when the stored rules are malformed: players never see such a row; staff can still fix it. */
  rulesValid: boolean;
  sortOrder: number;
  createdAt: string;
  updatedAt: string;
};

/** What staff set a promotion to. */
export type PromotionValues = {
  title: Localized;
  description: Localized;
  imageUrl: Localized | null;
  rules: PromotionRules;
  status: PromotionStatus;
  sortOrder: number;
};

type PromotionRuleColumns = {
  bonus_kind: string;
  bonus_value: string;
  bonus_cap: string | null;
  set_amount: string | null;
  first_order_only: number;
  credit_threshold: string;
  turnover_multiple: string;
  max_withdraw_credit: string | null;
  withdraw_all: number;
  providers: string;
};

type PromotionRow = PromotionRuleColumns & {
  id: string;
  status: PromotionStatus;
  title: string;
  description: string;
  image_url: string | null;
  sort_order: number;
  created_at: string;
  updated_at: string;
};

const COLUMNS = `id, status, title, description, image_url, bonus_kind, bonus_value, bonus_cap, set_amount, first_order_only,
  credit_threshold, turnover_multiple, max_withdraw_credit, withdraw_all, providers, sort_order, created_at, updated_at`;

/** A JSON {"lo","cn","vn"} column, or a plain string taken as the Lao text (and every language's). */
function decodeLocalized(text: string): Localized {
  try {
    const value: unknown = JSON.parse(text);
    if (value !== null && typeof value === "object" && !Array.isArray(value)) {
      const languages = value as Partial<Record<Language, unknown>>;
      const out: Localized = { lo: typeof languages.lo === "string" ? languages.lo : "" };
      if (typeof languages.cn === "string" && languages.cn) out.cn = languages.cn;
      if (typeof languages.vn === "string" && languages.vn) out.vn = languages.vn;
      return out;
    }
  } catch {
    // not JSON: a plain string
  }
  return { lo: text };
}

/** The JSON of the languages that have text (lo, cn, vn order). */
function encodeLocalized(text: Localized): string {
  const out: Partial<Record<Language, string>> = {};
  for (const lng of LANGUAGES) {
    const value = text[lng];
    if (value) out[lng] = value;
  }
  return JSON.stringify(out);
}

/** A plain URL when only lo is given (every language shows it), JSON otherwise; null without a lo image. */
function encodeImage(image: Localized | null): string | null {
  if (!image?.lo) return null;
  return image.cn || image.vn ? encodeLocalized(image) : image.lo;
}

function decodeRules(row: PromotionRuleColumns): { rules: PromotionRules; valid: boolean } {
  let providers: unknown;
  try {
    providers = JSON.parse(row.providers);
  } catch {
    providers = null;
  }
  const list: unknown[] = Array.isArray(providers) ? providers : [];
  const valid = Array.isArray(providers) && providers.every(isProvider) && (row.bonus_kind === "FIXED" || row.bonus_kind === "PERCENT");
  return {
    valid,
    rules: {
      bonusKind: row.bonus_kind === "PERCENT" ? "PERCENT" : "FIXED",
      bonusValue: row.bonus_value,
      bonusCap: row.bonus_cap,
      setAmount: row.set_amount,
      firstOrderOnly: row.first_order_only === 1,
      creditThreshold: row.credit_threshold,
      turnoverMultiple: row.turnover_multiple,
      maxWithdrawCredit: row.max_withdraw_credit,
      withdrawAll: row.withdraw_all === 1,
      providers: PROVIDERS.filter((p) => list.includes(p)),
    },
  };
}

/** Catalogue row -> rules; null when the row is malformed (it is then never claimable). */
export function rulesFromRow(row: PromotionRuleColumns): PromotionRules | null {
  const { rules, valid } = decodeRules(row);
  return valid ? rules : null;
}

function toPromotionRecord(row: PromotionRow): PromotionRecord {
  const { rules, valid } = decodeRules(row);
  return {
    id: row.id,
    status: row.status,
    title: decodeLocalized(row.title),
    description: decodeLocalized(row.description),
    imageUrl: row.image_url ? decodeLocalized(row.image_url) : null,
    rules,
    rulesValid: valid,
    sortOrder: row.sort_order,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** The row's values; the keys are the column names (and the audit log's before/after keys). */
function toColumns(values: PromotionValues) {
  const rules = values.rules;
  return {
    title: encodeLocalized(values.title),
    description: encodeLocalized(values.description),
    image_url: encodeImage(values.imageUrl),
    bonus_kind: rules.bonusKind,
    bonus_value: rules.bonusValue,
    bonus_cap: rules.bonusCap,
    set_amount: rules.setAmount,
    first_order_only: rules.firstOrderOnly ? 1 : 0,
    credit_threshold: rules.creditThreshold,
    turnover_multiple: rules.turnoverMultiple,
    max_withdraw_credit: rules.maxWithdrawCredit,
    withdraw_all: rules.withdrawAll ? 1 : 0,
    providers: JSON.stringify(rules.providers),
    status: values.status,
    sort_order: values.sortOrder,
  };
}

type Columns = ReturnType<typeof toColumns>;
const WRITTEN: (keyof Columns)[] = [
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

/** The audit log's view of a promotion: its columns, JSON decoded. */
export function promotionAuditState(values: PromotionValues) {
  const c = toColumns(values);
  return { ...c, title: JSON.parse(c.title), description: JSON.parse(c.description), providers: JSON.parse(c.providers) };
}

/** Every promotion of the agency, as staff list them: active first, then the staff's order. */
export async function listPromotions(db: D1Database, agencyId: string): Promise<PromotionRecord[]> {
  const { results } = await db
    .prepare(`SELECT ${COLUMNS} FROM promotions WHERE agency_id = ?1 ORDER BY status = 'ACTIVE' DESC, sort_order, created_at`)
    .bind(agencyId)
    .all<PromotionRow>();
  return results.map(toPromotionRecord);
}

/** The ACTIVE promotions of the agency, in the staff's order (what players see). */
export async function listActivePromotions(db: D1Database, agencyId: string): Promise<PromotionRecord[]> {
  const { results } = await db
    .prepare(`SELECT ${COLUMNS} FROM promotions WHERE agency_id = ?1 AND status = 'ACTIVE' ORDER BY sort_order, created_at`)
    .bind(agencyId)
    .all<PromotionRow>();
  return results.map(toPromotionRecord);
}

/**
 * The promotion of the player's latest claim, from the wallets' read model: read beside the
 * wallet's own answer (the usage in force), so a page needs no second round trip for its title
 * (decision 076). null: no claim yet, or the latest one not projected yet (read it by id then).
 * `+claimed_at`: the player's own rows through their index, sorted after; ordered by the
 * agency's claimed_at index instead, a player with no claim scanned the agency's every usage
 * (56-112 ms at 71,540 usages on the scale bench's data, 2 ms this way).
 */
export function latestClaimedPromotionRead(db: D1Database, agencyId: string, playerId: string): Read<PromotionRecord | null> {
  return {
    statement: db
      .prepare(
        `SELECT ${COLUMNS} FROM promotions WHERE agency_id = ?1 AND id = (
           SELECT promotion_id FROM promotion_usages_view WHERE agency_id = ?1 AND player_id = ?2 ORDER BY +claimed_at DESC LIMIT 1)`,
      )
      .bind(agencyId, playerId),
    read: (result) => {
      const row = rowsOf<PromotionRow>(result)[0];
      return row ? toPromotionRecord(row) : null;
    },
  };
}

/** One promotion of this agency, any status (another agency's id is simply not found). */
export async function findPromotion(db: D1Database, agencyId: string, id: string): Promise<PromotionRecord | null> {
  const row = await db.prepare(`SELECT ${COLUMNS} FROM promotions WHERE agency_id = ?1 AND id = ?2`).bind(agencyId, id).first<PromotionRow>();
  return row ? toPromotionRecord(row) : null;
}

export function insertPromotionStatement(db: D1Database, agencyId: string, id: string, values: PromotionValues): D1PreparedStatement {
  const c = toColumns(values);
  return db
    .prepare(`INSERT INTO promotions (id, agency_id, ${WRITTEN.join(", ")}) VALUES (?1, ?2, ${WRITTEN.map((_, i) => `?${i + 3}`).join(", ")})`)
    .bind(id, agencyId, ...WRITTEN.map((k) => c[k]));
}

/** Replaces every field, only if the row is still at `version` (its updated_at). */
export function updatePromotionStatement(db: D1Database, agencyId: string, id: string, version: string, values: PromotionValues): D1PreparedStatement {
  const c = toColumns(values);
  return db
    .prepare(
      `UPDATE promotions SET ${WRITTEN.map((k, i) => `${k} = ?${i + 4}`).join(", ")}, updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
        WHERE agency_id = ?1 AND id = ?2 AND updated_at = ?3`,
    )
    .bind(agencyId, id, version, ...WRITTEN.map((k) => c[k]));
}

/** Sets the status, only if the row is still at `version` (its updated_at). */
export function setPromotionStatusStatement(db: D1Database, agencyId: string, id: string, version: string, status: PromotionStatus): D1PreparedStatement {
  return db
    .prepare(`UPDATE promotions SET status = ?4, updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE agency_id = ?1 AND id = ?2 AND updated_at = ?3`)
    .bind(agencyId, id, version, status);
}
