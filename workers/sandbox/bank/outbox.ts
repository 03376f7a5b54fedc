import type { FaultStore } from "./fault-store";
import {
  deliveryMode,
  fail,
  type Delivery,
  type DeliveryEnv,
  type DeliveryFilter,
  type DeliveryKind,
  type DeliveryMode,
  type DeliveryState,
  type Outcome,
  type PulledDelivery,
} from "./model";
import { deliveryOf, referenceWhere, type OutboxRow } from "./rows";
import { signatureHeader, SIGNATURE_HEADER } from "./signature";

/** Webhook retry policy: attempt n+1 waits BASE_BACKOFF_MS * 2^(n-1) after failed attempt n. */
const MAX_ATTEMPTS = 8;
const BASE_BACKOFF_MS = 1000;
/** A pulled (or sending) delivery without a result after this long counts as a failed attempt. */
const LEASE_MS = 30_000;
const SEND_TIMEOUT_MS = 10_000;
/** Deliveries in flight at once from the alarm (push modes), per object. */
const SEND_CONCURRENCY = 32;
/** The "stale-signature" fault signs with a timestamp this old. */
const STALE_SIGNATURE_AGE_S = 600;
const WRONG_SECRET = "sandbox-bank-wrong-secret";

export type OutboxEnv = DeliveryEnv & { WEBHOOK_SECRET: string };

/**
 * One bank object's webhook outbox (its SQLite `outbox` table): the payment and payout
 * webhooks, with what the faults did to them, sent with retries in the push modes
 * (sendDue, from the alarm or right after a payment) or handed to the test pump in pull mode.
 */
export class WebhookOutbox {
  /** Whether a payment's own send (sendDue's kick) is under way. */
  private kicked = false;

  constructor(
    private readonly sql: SqlStorage,
    private readonly env: OutboxEnv,
    private readonly faults: FaultStore,
    /** The object's delivery id offset (sharding, model.ts SHARD_ID_SPAN). */
    private readonly idOffset: () => number,
  ) {}

  enqueue(kind: DeliveryKind, reference: string, url: string, body: string, now: number): void {
    const effect = this.faults.webhookEffect(reference);
    const state: DeliveryState = effect.drop ? "dropped" : effect.hold ? "held" : "pending";
    for (let copy = 0; copy < effect.copies; copy++) {
      this.sql.exec(
        `INSERT INTO outbox (kind, reference, url, body, state, next_attempt_at, signature, faults, hold_fault, hold_batch, hold_until, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        kind,
        reference,
        url,
        body,
        state,
        now + effect.delayMs,
        effect.signature,
        effect.applied.join(","),
        effect.hold?.faultId ?? null,
        effect.hold?.batch ?? null,
        effect.hold ? now + effect.hold.holdMs : null,
        now,
      );
    }
    if (effect.hold && !effect.drop) {
      const held = this.sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM outbox WHERE state = 'held' AND hold_fault = ?", effect.hold.faultId).one().n;
      if (held >= effect.hold.batch) this.releaseHeld(effect.hold.faultId, now);
    }
  }

  /** Releases a held out-of-order batch, newest first. */
  releaseHeld(faultId: number, now: number): number {
    const ids = this.sql
      .exec<{ id: number }>("SELECT id FROM outbox WHERE state = 'held' AND hold_fault = ? ORDER BY id", faultId)
      .toArray()
      .map((row) => row.id);
    const reversed = [...ids].reverse();
    ids.forEach((id, i) => {
      this.sql.exec("UPDATE outbox SET state = 'pending', next_attempt_at = ?, order_key = ? WHERE id = ?", now, reversed[i]!, id);
    });
    return ids.length;
  }

  /** Releases every held batch (those of faults already used up too). */
  releaseAllHeld(now: number): number {
    let released = 0;
    const groups = this.sql.exec<{ hold_fault: number }>("SELECT DISTINCT hold_fault FROM outbox WHERE state = 'held'").toArray();
    for (const group of groups) released += this.releaseHeld(group.hold_fault, now);
    return released;
  }

  /** Expired leases count as failed attempts; out-of-order batches that waited too long are released. */
  private sweep(now: number): void {
    const expired = this.sql.exec<OutboxRow>("SELECT * FROM outbox WHERE state = 'inflight' AND lease_until <= ?", now).toArray();
    for (const row of expired) this.recordResult(row, 0, "no result before the lease expired", now);
    const groups = this.sql.exec<{ hold_fault: number }>("SELECT DISTINCT hold_fault FROM outbox WHERE state = 'held' AND hold_until <= ?", now).toArray();
    for (const group of groups) this.releaseHeld(group.hold_fault, now);
  }

  /** The oldest due delivery, marked in flight (one more attempt). */
  private takeDue(now: number, filter: DeliveryFilter): OutboxRow | null {
    const row = this.dueRow(now, filter);
    if (!row) return null;
    this.sql.exec("UPDATE outbox SET state = 'inflight', attempts = attempts + 1, lease_until = ? WHERE id = ?", now + LEASE_MS, row.id);
    return { ...row, state: "inflight", attempts: row.attempts + 1, lease_until: now + LEASE_MS };
  }

  private dueRow(now: number, filter: DeliveryFilter): OutboxRow | null {
    const byReference = referenceWhere(filter);
    const where = ["state = 'pending'", "next_attempt_at <= ?", ...byReference.where];
    const params: (string | number)[] = [now, ...byReference.params];
    if (filter.kind !== undefined) {
      where.push("kind = ?");
      params.push(filter.kind);
    }
    const row = this.sql
      .exec<OutboxRow>(`SELECT * FROM outbox WHERE ${where.join(" AND ")} ORDER BY next_attempt_at, COALESCE(order_key, id) LIMIT 1`, ...params)
      .toArray()[0];
    return row ?? null;
  }

  /** 2xx -> delivered; otherwise retry after 1 s, 2 s, 4 s, ... and give up after MAX_ATTEMPTS. */
  private recordResult(row: OutboxRow, status: number, error: string | null, now: number): DeliveryState {
    if (status >= 200 && status < 300) {
      this.sql.exec(
        "UPDATE outbox SET state = 'delivered', last_status = ?, last_error = NULL, lease_until = NULL, delivered_at = ? WHERE id = ?",
        status,
        now,
        row.id,
      );
      return "delivered";
    }
    const dead = row.attempts >= MAX_ATTEMPTS;
    const next = now + BASE_BACKOFF_MS * 2 ** Math.max(0, row.attempts - 1);
    this.sql.exec(
      "UPDATE outbox SET state = ?, last_status = ?, last_error = ?, lease_until = NULL, next_attempt_at = ? WHERE id = ?",
      dead ? "dead" : "pending",
      status,
      error,
      dead ? row.next_attempt_at : next,
      row.id,
    );
    return dead ? "dead" : "pending";
  }

  private async headersFor(row: OutboxRow): Promise<Record<string, string>> {
    const nowS = Math.floor(Date.now() / 1000);
    const timestamp = row.signature === "stale" ? nowS - STALE_SIGNATURE_AGE_S : nowS;
    const secret = row.signature === "bad" ? WRONG_SECRET : this.env.WEBHOOK_SECRET;
    return {
      "content-type": "application/json",
      "user-agent": "SandboxBank/1.0",
      [SIGNATURE_HEADER.toLowerCase()]: await signatureHeader(secret, row.body, timestamp),
      "x-sandbox-delivery": String(this.idOffset() + row.id),
      "x-sandbox-attempt": String(row.attempts),
    };
  }

  /**
   * Sends the due deliveries (push modes only) with up to SEND_CONCURRENCY in flight (a real
   * gateway does not wait for one merchant's answer before sending the next: one at a time
   * capped the whole portal's settlement rate at 1 / webhook latency, decision 024). While an
   * out-of-order batch is waiting to go (order_key set), one at a time, so the order the
   * fault chose is the order they arrive in. `kick`: called right after a payment, as a
   * gateway notifies the merchant at once instead of at its next timer (the alarm stays
   * armed behind it); it leaves an out-of-order batch to the alarm, and only one runs.
   */
  async sendDue(kick: boolean): Promise<void> {
    const mode = deliveryMode(this.env);
    if (mode === "pull") return;
    const ordered = this.sql.exec("SELECT 1 FROM outbox WHERE state = 'pending' AND order_key IS NOT NULL LIMIT 1").toArray().length > 0;
    if (kick && (ordered || this.kicked)) return;
    if (kick) this.kicked = true;
    let budget = 200;
    const sender = async () => {
      while (budget > 0) {
        const now = Date.now();
        this.sweep(now);
        const row = this.takeDue(now, {});
        if (!row) return;
        budget--;
        await this.send(row, mode);
      }
    };
    try {
      await Promise.all(Array.from({ length: ordered ? 1 : SEND_CONCURRENCY }, sender));
    } finally {
      if (kick) this.kicked = false;
    }
  }

  /** One attempt of one delivery, its result recorded (unless a test pump took it over meanwhile). */
  private async send(row: OutboxRow, mode: DeliveryMode): Promise<void> {
    let status = 0;
    let error: string | null = null;
    try {
      const request = new Request(row.url, { method: "POST", headers: await this.headersFor(row), body: row.body });
      const response = await withTimeout(mode === "portal" ? this.env.PORTAL!.fetch(request) : fetch(request), SEND_TIMEOUT_MS);
      status = response.status;
      const text = await response.text().catch(() => "");
      if (status < 200 || status >= 300) error = text.slice(0, 300) || `HTTP ${status}`;
    } catch (caught) {
      error = caught instanceof Error ? `${caught.name}: ${caught.message}` : "network error";
    }
    const current = this.sql.exec<OutboxRow>("SELECT * FROM outbox WHERE id = ?", row.id).toArray()[0];
    if (current?.state === "inflight") this.recordResult(current, status, error, Date.now());
  }

  // ---- Pull mode (vitest pool): the test pump fetches deliveries and reports results ----

  /** Pull mode across objects (index.ts): when this object's next due delivery is due, without taking it. */
  peek(filter: DeliveryFilter, now: number): { at: number; createdAt: number } | null {
    if (deliveryMode(this.env) !== "pull") return null;
    this.sweep(now);
    const row = this.dueRow(now, filter);
    return row ? { at: row.next_attempt_at, createdAt: row.created_at } : null;
  }

  async pull(filter: DeliveryFilter, now: number): Promise<Outcome<PulledDelivery | null>> {
    if (deliveryMode(this.env) !== "pull") return fail(409, "NOT_PULL_MODE", "this bank pushes its webhooks itself");
    this.sweep(now);
    const row = this.takeDue(now, filter);
    if (!row) return { ok: true, status: 200, data: null };
    return {
      ok: true,
      status: 200,
      data: {
        id: this.idOffset() + row.id,
        kind: row.kind as DeliveryKind,
        reference: row.reference,
        attempt: row.attempts,
        url: row.url,
        headers: await this.headersFor(row),
        body: row.body,
      },
    };
  }

  report(globalId: number, status: number, now: number, error: string | null): Outcome<Delivery> {
    if (deliveryMode(this.env) !== "pull") return fail(409, "NOT_PULL_MODE", "this bank pushes its webhooks itself");
    const id = globalId - this.idOffset();
    const row = this.sql.exec<OutboxRow>("SELECT * FROM outbox WHERE id = ?", id).toArray()[0];
    if (!row) return fail(404, "DELIVERY_NOT_FOUND", `no delivery ${globalId}`);
    if (row.state !== "inflight") return fail(409, "NOT_IN_FLIGHT", `delivery ${globalId} is ${row.state}, not in flight`);
    this.recordResult(row, status, error ?? (status >= 200 && status < 300 ? null : `HTTP ${status}`), now);
    return { ok: true, status: 200, data: this.delivery(id)! };
  }

  list(filter: DeliveryFilter): Delivery[] {
    const rows = this.sql.exec<OutboxRow>("SELECT * FROM outbox ORDER BY id DESC LIMIT 500").toArray();
    return rows
      .filter(
        (row) =>
          (filter.reference === undefined || row.reference === filter.reference) &&
          (filter.prefix === undefined || row.reference.startsWith(filter.prefix)) &&
          (filter.kind === undefined || row.kind === filter.kind),
      )
      .map((row) => deliveryOf(row, this.idOffset()));
  }

  private delivery(id: number): Delivery | null {
    const row = this.sql.exec<OutboxRow>("SELECT * FROM outbox WHERE id = ?", id).toArray()[0];
    return row ? deliveryOf(row, this.idOffset()) : null;
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
