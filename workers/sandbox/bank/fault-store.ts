import { applyFault, isPayoutFault, isWebhookFault, noEffect, type Fault, type FaultEffect, type FaultSpec, type PayoutFaultMode } from "./faults";
import { faultOf, type FaultRow } from "./rows";

/**
 * The faults set on the bank (what each does: faults.ts), kept in the main object's SQLite
 * `faults` table: rolled for each webhook and each payout, and used up by their budget.
 */
export class FaultStore {
  constructor(
    private readonly sql: SqlStorage,
    /** A webhook fault was used up: the QR shards must hear that (bank.ts pushFaultsArmed). */
    private readonly webhookFaultGone: () => void,
  ) {}

  rows(): FaultRow[] {
    return this.sql.exec<FaultRow>("SELECT * FROM faults ORDER BY id").toArray();
  }

  list(): Fault[] {
    return this.rows().map(faultOf);
  }

  add(spec: FaultSpec, now: number): Fault {
    const id = this.sql
      .exec<{ id: number }>(
        `INSERT INTO faults (mode, count, rate, times, reference_prefix, delay_ms, hold_ms, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
        spec.mode,
        spec.count,
        spec.rate,
        spec.times,
        spec.referencePrefix,
        spec.delayMs,
        spec.holdMs,
        now,
      )
      .one().id;
    return faultOf(this.sql.exec<FaultRow>("SELECT * FROM faults WHERE id = ?", id).one());
  }

  remove(id: number): void {
    this.sql.exec("DELETE FROM faults WHERE id = ?", id);
  }

  anyWebhookFault(): boolean {
    return this.rows().some((row) => isWebhookFault(row.mode));
  }

  /** What the webhook faults matching this reference do to its webhook; each one that hits is used once. */
  webhookEffect(reference: string): FaultEffect {
    let effect: FaultEffect = noEffect();
    for (const fault of this.rows()) {
      if (!isWebhookFault(fault.mode) || !reference.startsWith(fault.reference_prefix) || !roll(fault.rate)) continue;
      effect = applyFault(effect, faultOf(fault));
      this.use(fault);
    }
    return effect;
  }

  /** Rolls the payout faults of these modes for one reference; uses up their budget. */
  takePayoutFaults(reference: string, modes: PayoutFaultMode[]): PayoutFaultMode[] {
    const applied: PayoutFaultMode[] = [];
    for (const fault of this.rows()) {
      if (!isPayoutFault(fault.mode) || !modes.includes(fault.mode) || applied.includes(fault.mode)) continue;
      if (!reference.startsWith(fault.reference_prefix) || !roll(fault.rate)) continue;
      applied.push(fault.mode);
      this.use(fault);
    }
    return applied;
  }

  /** One more payment or payout affected: count it, and remove the fault when its budget is spent. */
  private use(fault: FaultRow): void {
    if (fault.times !== null && fault.times <= 1) {
      this.remove(fault.id);
      if (isWebhookFault(fault.mode)) this.webhookFaultGone();
    } else this.sql.exec("UPDATE faults SET applied = applied + 1, times = times - 1 WHERE id = ?", fault.id);
  }
}

function roll(rate: number): boolean {
  if (rate >= 1) return true;
  if (rate <= 0) return false;
  return crypto.getRandomValues(new Uint32Array(1))[0]! / 2 ** 32 < rate;
}
