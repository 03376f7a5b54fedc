import { parseMultiple } from "./reward";

/**
 * Weekly cashback (decision 029): a percent of the player's net loss at a
 * provider over the last complete Monday–Sunday week (Vientiane), capped per claim, paid
 * once per week and provider as credit at that provider, with a turnover requirement.
 */

export type CashbackSettings = {
  enabled: boolean;
  /** Hundredths of a percent: 500 = 5.00 %. */
  percentHundredths: number;
  /** Most credit one claim pays (minor units); 0: no cap. */
  capMinor: number;
  /** Less than this (minor units) is not paid. */
  minMinor: number;
  /** Turnover requirement: the cashback played through this many times ("0": none). */
  turnoverMultiple: string;
  /** Claimable while a promotion is claimed or in use. */
  combinable: boolean;
};

export const DEFAULT_CASHBACK: CashbackSettings = {
  enabled: false,
  percentHundredths: 500,
  capMinor: 100_000,
  minMinor: 100,
  turnoverMultiple: "1",
  combinable: false,
};

export type CashbackRefusal =
  | "CASHBACK_DISABLED"
  | "CASHBACK_NOTHING_LOST"
  | "CASHBACK_PERIOD_INCOMPLETE"
  | "CASHBACK_BELOW_MINIMUM"
  | "CASHBACK_PROMOTION_ACTIVE"
  | "CASHBACK_ALREADY_CLAIMED"
  | "CASHBACK_PAUSED";

/**
 * The one reason that holds for every provider's line, or null: then the page says it once
 * instead of under each of the five providers ("no cashback" five times). A line that can be
 * claimed, or two different reasons, keep the reason on each line.
 */
export function sharedRefusal<R extends string>(lines: readonly { refusal: R | null }[]): R | null {
  const first = lines[0]?.refusal ?? null;
  return first !== null && lines.every((line) => line.refusal === first) ? first : null;
}

/** The cashback a net loss earns: percent of it, rounded down to the satang, capped. */
export function cashbackAmount(netLossMinor: bigint, settings: CashbackSettings): bigint {
  if (netLossMinor <= 0n) return 0n;
  const raw = (netLossMinor * BigInt(settings.percentHundredths)) / 10_000n;
  return settings.capMinor > 0 && raw > BigInt(settings.capMinor) ? BigInt(settings.capMinor) : raw;
}

export type CashbackFacts = {
  settings: CashbackSettings;
  /** Agency side of the player's week at the provider: positive = the player lost. */
  netLossMinor: bigint;
  /** Days of the week with figures collected (7 = complete). */
  daysCollected: number;
  claimed: boolean;
  promotionActive: boolean;
  /** Offers paused: a break in force or a limit reached (decisions 025, 091). */
  offersPaused: boolean;
};

/**
 * Whether the week at one provider can be claimed, and for how much. Checked in this order
 * so the player hears the most useful reason first (already claimed before anything else).
 */
export function judgeCashback(f: CashbackFacts): { ok: true; amountMinor: bigint } | { ok: false; error: CashbackRefusal; amountMinor: bigint } {
  const amountMinor = cashbackAmount(f.netLossMinor, f.settings);
  const refuse = (error: CashbackRefusal) => ({ ok: false as const, error, amountMinor });
  if (f.claimed) return refuse("CASHBACK_ALREADY_CLAIMED");
  if (!f.settings.enabled) return refuse("CASHBACK_DISABLED");
  if (f.daysCollected < 7) return refuse("CASHBACK_PERIOD_INCOMPLETE");
  if (f.netLossMinor <= 0n) return refuse("CASHBACK_NOTHING_LOST");
  if (amountMinor <= 0n || amountMinor < BigInt(f.settings.minMinor)) return refuse("CASHBACK_BELOW_MINIMUM");
  if (f.offersPaused) return refuse("CASHBACK_PAUSED");
  if (f.promotionActive && !f.settings.combinable) return refuse("CASHBACK_PROMOTION_ACTIVE");
  return { ok: true, amountMinor };
}

/** "5", "5.5", "12.25" (percent) -> hundredths; null when not a percent between 0 and 100. */
export function parsePercent(text: string): number | null {
  const hundredths = parseMultiple(text);
  return hundredths === null || hundredths > 10_000n ? null : Number(hundredths);
}

export function formatPercent(hundredths: number): string {
  const whole = Math.floor(hundredths / 100);
  const rest = hundredths % 100;
  return rest === 0 ? String(whole) : `${whole}.${String(rest).padStart(2, "0").replace(/0$/, "")}`;
}
