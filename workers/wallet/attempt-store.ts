import type { AttemptOp, AttemptResult } from "../core/provider-attempts";

/**
 * The outbox of provider attempts (schema.ts v7, decision 049): each call the wallet's sagas
 * make to a provider is written here, synchronously, and copied to D1 (provider_attempts) by
 * the projection, which then deletes what it copied. Rows are append-only, so the copy needs
 * no "changed in flight" check: `id` is D1's `seq`, a copy sent twice is written once.
 */

export type AttemptRow = {
  id: number;
  provider: string;
  order_code: string;
  reference: string;
  op: AttemptOp;
  outcome: AttemptResult["outcome"];
  error_code: string | null;
  detail: string | null;
  at: number;
};

/** A D1 outage must not grow a wallet without end: past this, the oldest rows not yet copied are dropped. */
const OUTBOX_MAX = 500;
/** Rows copied per alarm (one D1 batch with the deposits'). */
const COPY_MAX = 100;

export class AttemptStore {
  constructor(private readonly sql: SqlStorage) {}

  record(input: { provider: string; orderCode: string; reference: string; op: AttemptOp; result: AttemptResult; at: number }): void {
    const { id } = this.sql
      .exec<{ id: number }>(
        `INSERT INTO provider_attempts (provider, order_code, reference, op, outcome, error_code, detail, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
        input.provider,
        input.orderCode,
        input.reference,
        input.op,
        input.result.outcome,
        input.result.errorCode,
        input.result.detail,
        input.at,
      )
      .one();
    if (id > OUTBOX_MAX) this.sql.exec(`DELETE FROM provider_attempts WHERE id <= ?`, id - OUTBOX_MAX);
  }

  /** The oldest rows not yet copied to D1. */
  pending(): AttemptRow[] {
    return this.sql.exec<AttemptRow>(`SELECT * FROM provider_attempts ORDER BY id LIMIT ${COPY_MAX}`).toArray();
  }

  /** Copied: forgotten here (D1 keeps them). */
  forgetUpTo(id: number): void {
    this.sql.exec(`DELETE FROM provider_attempts WHERE id <= ?`, id);
  }
}
