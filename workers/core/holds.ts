/**
 * Holds, not silent refusals (decision 094): a promotion claim or a reward of a player linked to
 * an account that had the same reward first waits for staff, its deposit credited as usual.
 * Pure: which keys of a player link (the strong reasons of decision 093, in the referral's normal
 * forms), the key of a reward, and the owner's rules.
 */
import type { LinkReason } from "./linked-accounts";
import { bankKey, deviceKey, normalizePhone } from "./referral";

/** What a hold can hold: a promotion's bonus, or a reward on the cashback path (decision 029). */
const HOLD_KINDS = ["PROMOTION", "CASHBACK", "REFERRAL", "CHECKIN", "STREAK"] as const;
export type HoldKind = (typeof HOLD_KINDS)[number];
export const HOLD_STATUSES = ["HELD", "RELEASED", "REFUSED"] as const;
export type HoldStatus = (typeof HOLD_STATUSES)[number];

/**
 * The reward a first claim is unique for: a promotion by its id (the welcome bonus once per
 * person, whatever the account), a reward by its kind and period (one week's cashback once per
 * person), the provider left out: the same week's cashback at two providers is one reward.
 */
export function holdRewardKey(kind: HoldKind, subject: string): string {
  return `${kind}:${subject}`;
}

/** What a player left that one person's second account cannot avoid sharing. */
export type HoldTraces = {
  devices: readonly string[];
  phone: string | null;
  banks: readonly { bankCode: string; accountNumber: string }[];
  receivers: readonly string[];
};

/** The reasons that hold (decision 093's strong ones); an address, a holder name or a referral never hold on their own. */
const HOLDING_REASONS = ["device", "phone", "bank", "receiver"] as const satisfies readonly LinkReason[];
type HoldingReason = (typeof HOLDING_REASONS)[number];

/** The player's link keys, `<reason>:<normal form>`, each once: what a first claim writes a row for. */
export function holdLinkKeys(traces: HoldTraces): string[] {
  const keys = new Set<string>();
  const add = (reason: HoldingReason, value: string | null) => {
    if (value) keys.add(`${reason}:${value}`);
  };
  for (const device of traces.devices) add("device", deviceKey(device));
  add("phone", normalizePhone(traces.phone));
  for (const bank of traces.banks) {
    const key = bankKey(bank);
    if (!key.endsWith(":")) add("bank", key);
  }
  for (const receiver of traces.receivers) add("receiver", receiver.trim() || null);
  return [...keys].sort();
}

/** The reason of a link key ("device:ab12..." -> "device"); null for a key this version does not write. */
export function reasonOfKey(key: string): HoldingReason | null {
  const reason = key.slice(0, key.indexOf(":"));
  return (HOLDING_REASONS as readonly string[]).includes(reason) ? (reason as HoldingReason) : null;
}

/** The players a held claim was held for, each with the reasons shared, from the conflicting keys. */
export function heldFor(conflicts: readonly { playerId: string; key: string }[]): { playerId: string; reasons: HoldingReason[] }[] {
  const by = new Map<string, Set<HoldingReason>>();
  for (const c of conflicts) {
    const reason = reasonOfKey(c.key);
    if (reason) (by.get(c.playerId) ?? by.set(c.playerId, new Set()).get(c.playerId)!).add(reason);
  }
  return [...by].map(([playerId, reasons]) => ({ playerId, reasons: HOLDING_REASONS.filter((r) => reasons.has(r)) }));
}

// ---- the owner's rules ------------------------------------------------------------------

export type HoldRules = {
  /** Hold a promotion's bonus when a linked account claimed that promotion first. */
  promotions: boolean;
  /** Hold a reward (cashback, referral share, check-in, streak) when a linked account had the same period's first. */
  rewards: boolean;
  /** A withdrawal of a player with a held claim waits for staff. */
  withdrawals: boolean;
  /**
   * Registrations a day from one device before the next waits; the third is flagged whatever the
   * limit. 0: no limit, and devices are not counted at all (nor flagged: the address still is).
   */
  registrationsPerDevice: number;
};

/**
 * What an operator burned by a bonus ring starts with (decision 094): everything held, and six
 * registrations a day from one device (a family phone needs two or three; a ring needs more).
 */
export const DEFAULT_HOLD_RULES: HoldRules = { promotions: true, rewards: true, withdrawals: true, registrationsPerDevice: 6 };

/** From this many registrations from one device in a day, each is flagged for staff (the linked accounts show the rest). */
export const REGISTRATION_FLAG_AT = 3;
export const REGISTRATIONS_PER_DEVICE_MAX = 100;

/**
 * The allowance of a device's registrations as its throttle key's `free` count: the owner's
 * number less the registration that locks (six a day: five free, the sixth locks, the seventh
 * waits); null when the owner set no limit (0), and then the device is not counted at all.
 */
export function registrationDeviceAllowance(rules: Pick<HoldRules, "registrationsPerDevice">): number | null {
  return rules.registrationsPerDevice > 0 ? rules.registrationsPerDevice - 1 : null;
}

/** Why a registration is flagged for staff: its device's count of the day, or its address's hourly allowance used up. */
export type RegistrationBurst = { by: "device" | "address"; count: number };

/**
 * A registration's flags, from its throttle counts once it was counted: a device's third
 * registration in its window and every one after it (each new account is one more for staff
 * to look at), and the registration whose count locked its address.
 */
export function registrationBursts(counted: { device: number | null; address: { count: number; locked: boolean } }): RegistrationBurst[] {
  return [
    ...(counted.device !== null && counted.device >= REGISTRATION_FLAG_AT ? [{ by: "device" as const, count: counted.device }] : []),
    ...(counted.address.locked ? [{ by: "address" as const, count: counted.address.count }] : []),
  ];
}

/** Longest reason staff give for a decision; at least this many characters. */
export const HOLD_REASON_MIN = 3;
export const HOLD_REASON_MAX = 300;
