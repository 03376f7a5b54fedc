import type { WalletStore } from "./queries";

/** Settlement retry: 1 s doubling to at most 5 minutes; it never gives up on a paid order. */
export function settlementDelayMs(attempts: number): number {
  return Math.min(1000 * 2 ** Math.max(0, attempts - 1), 5 * 60 * 1000);
}
/** An OPEN order's payment is looked up at the gateway at most this often (the reconciler). */
export const RECONCILE_EVERY_MS = 30_000;

/**
 * The wallet's one alarm, which runs all its due work. What is armed is kept in `meta`
 * (there is no synchronous getAlarm), so a command can arm it in the same storage step as
 * its writes.
 */
export class WalletAlarm {
  constructor(
    private readonly storage: DurableObjectStorage,
    private readonly store: WalletStore,
  ) {}

  /**
   * What is armed, read once when the object starts, so a lost or deleted alarm is not
   * believed armed after a restart.
   */
  async syncArmed(): Promise<void> {
    const armed = await this.storage.getAlarm();
    if (armed === null) this.store.forgetArmedAlarm();
    else this.store.writeMeta("alarmAt", String(armed));
  }

  /** The alarm fired: nothing is armed any more. */
  fired(): void {
    this.store.forgetArmedAlarm();
  }

  /** When the alarm is armed for, as `meta` knows it. */
  armedAt(): number | null {
    const at = this.store.readMeta("alarmAt");
    return at === null ? null : Number(at);
  }

  /**
   * Wakes the wallet by `at` at the latest. Synchronous, so the alarm is written in the same
   * storage step as the command that needs it (a crash cannot keep the writes and lose the
   * alarm); what is armed is read from `meta`, not from an awaited getAlarm().
   */
  schedule(at: number): void {
    const armed = this.store.readMeta("alarmAt");
    if (armed !== null && Number(armed) <= at) return;
    this.arm(at);
  }

  /** Arms the alarm for the earliest work the wallet's state says is due (none: left as is). */
  rearmFromState(now: number): void {
    const due = this.store.dueWorkTimes(now, RECONCILE_EVERY_MS);
    const times = [due.settle, due.open, due.withdraw, due.bonus, due.reward].filter((at): at is number => at !== null);
    if (due.unprojected) times.push(now + 5000);
    if (times.length) this.arm(Math.max(now, Math.min(...times)));
  }

  private arm(at: number): void {
    void this.storage.setAlarm(at);
    this.store.writeMeta("alarmAt", String(at));
  }
}
