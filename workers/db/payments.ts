// ---- added by settings helper
// Exchange rates (with their history) and payment channels as the owner's settings screen
// reads and changes them (workers/services/admin-settings.ts).

export type ExchangeRate = { currency: string; buy: string; sell: string; updatedAt: string };
export type RateChange = { id: number; currency: string; buy: string; sell: string; changedBy: string | null; changedAt: string };

/** A receiving channel (the QR a deposit is paid to); its code never changes, it is only deactivated. */
export type PaymentChannel = { code: string; mid: string; displayName: string; currency: "LAK"; bankCode: string; merchantName: string; merchantCity: string; active: boolean };

type PaymentChannelRow = { code: string; mid: string; display_name: string; currency: "LAK"; bank_code: string; merchant_name: string; merchant_city: string; active: number };

const CHANNEL_COLUMNS = `code, mid, display_name, currency, bank_code, merchant_name, merchant_city, active`;

function toPaymentChannel(row: PaymentChannelRow): PaymentChannel {
  return {
    code: row.code,
    mid: row.mid,
    displayName: row.display_name,
    currency: row.currency,
    bankCode: row.bank_code,
    merchantName: row.merchant_name,
    merchantCity: row.merchant_city,
    active: row.active === 1,
  };
}

export async function listExchangeRates(db: D1Database, agencyId: string): Promise<ExchangeRate[]> {
  const { results } = await db
    .prepare(`SELECT currency, buy, sell, updated_at FROM exchange_rates WHERE agency_id = ?1 ORDER BY currency`)
    .bind(agencyId)
    .all<{ currency: string; buy: string; sell: string; updated_at: string }>();
  return results.map((r) => ({ currency: r.currency, buy: r.buy, sell: r.sell, updatedAt: r.updated_at }));
}

/** The current buy/sell of a credit currency, or null when the agency has none yet. */
export async function findExchangeRate(db: D1Database, agencyId: string, currency: string): Promise<{ buy: string; sell: string } | null> {
  return db.prepare(`SELECT buy, sell FROM exchange_rates WHERE agency_id = ?1 AND currency = ?2`).bind(agencyId, currency).first<{ buy: string; sell: string }>();
}

/** Newest first. */
export async function listExchangeRateHistory(db: D1Database, agencyId: string, limit: number): Promise<RateChange[]> {
  const { results } = await db
    .prepare(`SELECT id, currency, buy, sell, changed_by, changed_at FROM exchange_rate_history WHERE agency_id = ?1 ORDER BY id DESC LIMIT ?2`)
    .bind(agencyId, limit)
    .all<{ id: number; currency: string; buy: string; sell: string; changed_by: string | null; changed_at: string }>();
  return results.map((h) => ({ id: h.id, currency: h.currency, buy: h.buy, sell: h.sell, changedBy: h.changed_by, changedAt: h.changed_at }));
}

/** Replaces the current rate of a currency (or sets the first one). */
export function upsertExchangeRateStatement(db: D1Database, agencyId: string, rate: { currency: string; buy: string; sell: string }): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO exchange_rates (agency_id, currency, buy, sell, updated_at) VALUES (?1, ?2, ?3, ?4, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
       ON CONFLICT (agency_id, currency) DO UPDATE SET buy = excluded.buy, sell = excluded.sell, updated_at = excluded.updated_at`,
    )
    .bind(agencyId, rate.currency, rate.buy, rate.sell);
}

export function insertExchangeRateHistoryStatement(db: D1Database, agencyId: string, rate: { currency: string; buy: string; sell: string }, changedBy: string | null): D1PreparedStatement {
  return db
    .prepare(`INSERT INTO exchange_rate_history (agency_id, currency, buy, sell, changed_by) VALUES (?1, ?2, ?3, ?4, ?5)`)
    .bind(agencyId, rate.currency, rate.buy, rate.sell, changedBy);
}

/** Every channel of the agency, active ones first. */
export async function listPaymentChannels(db: D1Database, agencyId: string): Promise<PaymentChannel[]> {
  const { results } = await db.prepare(`SELECT ${CHANNEL_COLUMNS} FROM payment_channels WHERE agency_id = ?1 ORDER BY active DESC, code`).bind(agencyId).all<PaymentChannelRow>();
  return results.map(toPaymentChannel);
}

export async function findPaymentChannel(db: D1Database, agencyId: string, code: string): Promise<PaymentChannel | null> {
  const row = await db.prepare(`SELECT ${CHANNEL_COLUMNS} FROM payment_channels WHERE agency_id = ?1 AND code = ?2`).bind(agencyId, code).first<PaymentChannelRow>();
  return row ? toPaymentChannel(row) : null;
}

/** What a channel is set to; `iin` is the bank's, for the EMVCo QR. */
type PaymentChannelValues = { code: string; mid: string; displayName: string; bankCode: string; iin: string; merchantName: string; merchantCity: string; active: boolean };

/** Inserts a channel unless its code exists (a concurrent create of the same code changes nothing). */
export function insertPaymentChannelStatement(db: D1Database, agencyId: string, channel: PaymentChannelValues): D1PreparedStatement {
  return db
    .prepare(
      `INSERT OR IGNORE INTO payment_channels (agency_id, code, mid, display_name, currency, bank_code, iin, merchant_name, merchant_city, active)
       VALUES (?1, ?2, ?3, ?4, 'LAK', ?5, ?6, ?7, ?8, ?9)`,
    )
    .bind(agencyId, channel.code, channel.mid, channel.displayName, channel.bankCode, channel.iin, channel.merchantName, channel.merchantCity, channel.active ? 1 : 0);
}

export function updatePaymentChannelStatement(db: D1Database, agencyId: string, channel: PaymentChannelValues): D1PreparedStatement {
  return db
    .prepare(
      `UPDATE payment_channels SET mid = ?3, display_name = ?4, bank_code = ?5, iin = ?6, merchant_name = ?7, merchant_city = ?8, active = ?9
        WHERE agency_id = ?1 AND code = ?2`,
    )
    .bind(agencyId, channel.code, channel.mid, channel.displayName, channel.bankCode, channel.iin, channel.merchantName, channel.merchantCity, channel.active ? 1 : 0);
}

export function setPaymentChannelActiveStatement(db: D1Database, agencyId: string, code: string, active: boolean): D1PreparedStatement {
  return db.prepare(`UPDATE payment_channels SET active = ?3 WHERE agency_id = ?1 AND code = ?2`).bind(agencyId, code, active ? 1 : 0);
}
