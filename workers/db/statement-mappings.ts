import type { StatementMapping } from "../core/statement";

/**
 * Statement import (decision 016): the column mapping saved per own-account channel, and
 * uploaded statements between their steps (tables statement_mappings, statement_uploads;
 * migration 0018).
 */

export async function findStatementMapping(db: D1Database, agencyId: string, channelCode: string): Promise<StatementMapping | null> {
  const row = await db
    .prepare(`SELECT mapping_json FROM statement_mappings WHERE agency_id = ?1 AND channel_code = ?2`)
    .bind(agencyId, channelCode)
    .first<{ mapping_json: string }>();
  return row ? (JSON.parse(row.mapping_json) as StatementMapping) : null;
}

export function saveStatementMappingStatement(
  db: D1Database,
  agencyId: string,
  channelCode: string,
  mapping: StatementMapping,
  updatedBy: string | null,
): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO statement_mappings (agency_id, channel_code, mapping_json, updated_by) VALUES (?1, ?2, ?3, ?4)
       ON CONFLICT (agency_id, channel_code) DO UPDATE SET mapping_json = excluded.mapping_json, updated_by = excluded.updated_by,
         updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`,
    )
    .bind(agencyId, channelCode, JSON.stringify(mapping), updatedBy);
}

export type StatementUpload = { id: string; channelCode: string; fileName: string; content: string; createdAt: number; result: unknown };

export async function insertStatementUpload(
  db: D1Database,
  agencyId: string,
  upload: { id: string; channelCode: string; fileName: string; content: string; uploadedBy: string | null; createdAt: number },
  deleteBefore: number,
): Promise<void> {
  await db.batch([
    db.prepare(`DELETE FROM statement_uploads WHERE agency_id = ?1 AND created_at < ?2`).bind(agencyId, deleteBefore),
    db
      .prepare(`INSERT INTO statement_uploads (id, agency_id, channel_code, file_name, content, uploaded_by, created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)`)
      .bind(upload.id, agencyId, upload.channelCode, upload.fileName, upload.content, upload.uploadedBy, upload.createdAt),
  ]);
}

export async function findStatementUpload(db: D1Database, agencyId: string, id: string): Promise<StatementUpload | null> {
  const row = await db
    .prepare(`SELECT id, channel_code, file_name, content, created_at, result_json FROM statement_uploads WHERE agency_id = ?1 AND id = ?2`)
    .bind(agencyId, id)
    .first<{ id: string; channel_code: string; file_name: string; content: string; created_at: number; result_json: string | null }>();
  return row
    ? {
        id: row.id,
        channelCode: row.channel_code,
        fileName: row.file_name,
        content: row.content,
        createdAt: row.created_at,
        result: row.result_json ? JSON.parse(row.result_json) : null,
      }
    : null;
}

export async function saveStatementUploadResult(db: D1Database, agencyId: string, id: string, result: unknown): Promise<void> {
  await db.prepare(`UPDATE statement_uploads SET result_json = ?3 WHERE agency_id = ?1 AND id = ?2`).bind(agencyId, id, JSON.stringify(result)).run();
}

/** An own-account channel (payment_channels.gateway = 'own_account', migration 0016) statements are imported for. */
export type StatementChannel = { code: string; displayName: string; bankCode: string; active: boolean; mapped: boolean };

export async function listOwnAccountChannels(db: D1Database, agencyId: string): Promise<StatementChannel[]> {
  const { results } = await db
    .prepare(
      `SELECT c.code, c.display_name, c.bank_code, c.active, m.channel_code IS NOT NULL AS mapped
         FROM payment_channels c LEFT JOIN statement_mappings m ON m.agency_id = c.agency_id AND m.channel_code = c.code
        WHERE c.agency_id = ?1 AND c.gateway = 'own_account' ORDER BY c.active DESC, c.code`,
    )
    .bind(agencyId)
    .all<{ code: string; display_name: string; bank_code: string; active: number; mapped: number }>();
  return results.map((r) => ({ code: r.code, displayName: r.display_name, bankCode: r.bank_code, active: r.active === 1, mapped: r.mapped === 1 }));
}
