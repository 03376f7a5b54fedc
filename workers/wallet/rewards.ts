import { formatAmount } from "../core/money";
import { isProvider } from "../core/providers";
import { rewardClaimKey, rewardTurnoverTarget } from "../core/reward";
import { upsertRewardViewStatement } from "../db/rewards";
import { providerUsername } from "../ports/provider";
import { settlementDelayMs } from "./alarm";
import type { OfferPause } from "../core/responsible-gaming";
import type { WalletContext } from "./context";
import { offerPauseOf } from "./offers";
import { postLedgerEntry } from "./ledger";
import { attemptedPort } from "./provider-attempts";
import type { RewardRow } from "./reward-store";
import type { Reward, RewardClaimInput, StaffRewardRetryResult } from "./types";

/**
 * Rewards (decision 029): cashback and the referral share, credited at the
 * provider the player chose. A claim is written PENDING synchronously, unique per claim
 * key (kind, period[, provider]) in the storage itself, so however many copies arrive at
 * once one reward exists; then it is settled by the same saga as a deposit: transfer-in
 * with the reward code as reference, an unknown outcome resolved by asking the provider
 * about that reference before sending again, retried from the alarm until known.
 * Ledger: the agency's expense account (`agency:cashback`, `agency:referral`) gives the
 * credit, which lands in the provider wallet. A turnover requirement (amount x multiple,
 * counted from the provider's counter read before the credit) holds withdrawals from that
 * provider until met, like a promotion usage.
 */

/** The reason a reward lapsed because the player was on a break or at a limit when it fell due. */
const OFFERS_PAUSED = "OFFERS_PAUSED";

/** `paused`: the player is on a break or at a limit (decision 091); nothing was written, the claim stays free. */
export type ClaimRewardResult = { kind: "created" | "existing"; reward: Reward } | { kind: "paused"; pause: OfferPause };

export async function claimReward(w: WalletContext, input: RewardClaimInput): Promise<ClaimRewardResult> {
  const claimKey = rewardClaimKey(input.kind, input.period, input.perProvider ? input.provider : null);
  const existing = w.store.rewards.byClaimKey(claimKey) ?? w.store.rewards.byCode(input.code);
  if (existing) return { kind: "existing", reward: toReward(existing) };
  // every reward kind passes here: none is credited to a player on a break or at a limit
  const pause = await pausedNow(w, input.now);
  if (pause) return { kind: "paused", pause };
  // read again after the await: a copy of this claim may have been written meanwhile
  const same = w.store.rewards.byClaimKey(claimKey) ?? w.store.rewards.byCode(input.code);
  if (same) return { kind: "existing", reward: toReward(same) };
  w.store.rewards.insertPending({
    code: input.code,
    claimKey,
    kind: input.kind,
    period: input.period,
    provider: input.provider,
    amountMinor: input.amountMinor,
    turnoverMultiple: input.turnoverMultiple,
    turnoverTargetMinor: rewardTurnoverTarget(BigInt(input.amountMinor), input.turnoverMultiple).toString(),
    basisJson: JSON.stringify(input.basis ?? {}),
    now: input.now,
  });
  w.alarm.schedule(input.now);
  // First attempt right away, so the player sees the outcome; an unknown one continues from the alarm.
  await settleReward(w, w.store.rewards.byCode(input.code)!, input.now, { pauseChecked: true });
  return { kind: "created", reward: toReward(w.store.rewards.byCode(input.code)!) };
}

/** The offers rule for this wallet's player (decision 091); null also when the wallet was never identified (nothing to credit then). */
async function pausedNow(w: WalletContext, now: number): Promise<OfferPause | null> {
  const agencyId = w.store.readMeta("agencyId");
  const playerId = w.store.readMeta("playerId");
  return agencyId && playerId ? offerPauseOf(w, agencyId, playerId, now) : null;
}

export async function settleDueRewards(w: WalletContext, now: number): Promise<void> {
  for (const row of w.store.rewards.dueForSettlement(now)) await settleReward(w, row, now);
}

async function settleReward(w: WalletContext, row: RewardRow, now: number, options: { pauseChecked?: boolean } = {}): Promise<void> {
  const agencyId = w.store.readMeta("agencyId");
  const username = w.store.readMeta("username");
  if (!agencyId || !username || !isProvider(row.provider)) return;
  const attempt = row.attempts + 1;
  // claimed before any await: the alarm (or a concurrent claim) does not start this attempt again
  w.store.rewards.recordAttempt(row.code, attempt, now + settlementDelayMs(attempt));
  const port = attemptedPort(w, agencyId, row.provider, row.code); // each call stored with its outcome (decision 049)
  const user = providerUsername(agencyId, username);
  if (row.turnover_target_minor !== "0" && row.turnover_start_minor === null) {
    // the requirement counts bets from here: read the counter before the credit lands, or try again later
    const counter = await port.turnover(user, now);
    if (counter.kind !== "ok") return;
    w.store.rewards.recordTurnoverStart(row.code, counter.amountMinor, now);
  }
  const reference = row.reference ?? row.code;
  if (row.attempts > 0) {
    // a previous attempt may have been applied: ask before sending again
    const status = await port.transferStatus(reference);
    if (status.kind === "success") return finishReward(w, row.code, "SUCCESS");
    if (status.kind === "failed") return finishReward(w, row.code, "FAILED", "PROVIDER_FAILED");
    if (status.kind === "unknown") return;
  }
  // A reward that falls due (the alarm's retry, a staff retry) while the player is on a break
  // or at a limit lapses rather than waits: credit that arrives the moment a break ends is a
  // lure (decision 091). Only before a send: a credit already applied is settled, not undone.
  if (!options.pauseChecked && (await pausedNow(w, now))) return finishReward(w, row.code, "FAILED", OFFERS_PAUSED);
  const outcome = await port.transfer({ username: user, amountMinor: BigInt(row.amount_minor), direction: "in", reference });
  if (outcome.kind === "ok") return finishReward(w, row.code, "SUCCESS");
  if (outcome.kind === "refused") return finishReward(w, row.code, "FAILED", `PROVIDER_${outcome.code}`);
  // unknown: the next attempt starts with the status query
}

function finishReward(w: WalletContext, code: string, to: "SUCCESS" | "FAILED", reason?: string): void {
  const now = Date.now();
  const row = w.store.rewards.byCode(code);
  if (!row || row.status !== "PENDING") return;
  if (!w.store.rewards.finish(code, to, reason ?? null, now)) return;
  if (to === "SUCCESS") {
    const amount = BigInt(row.amount_minor);
    postLedgerEntry(
      w.store,
      code,
      "reward",
      [
        [`agency:${row.kind.toLowerCase()}`, "THB", amount],
        [`provider:${row.provider}`, "THB", -amount],
      ],
      now,
    );
  }
  w.alarm.schedule(now); // copy to D1
}

/**
 * Staff retry of a FAILED reward (decision 029): the SAME reward, never a second one. The
 * provider is first asked about the reference last used (like a deposit's retry):
 *  - SUCCESS: it landed after all -> the reward is SUCCESS (ledger once), nothing is sent;
 *  - NOT_FOUND: it never arrived -> sent again under the same reference (the provider
 *    refuses a duplicate, so a late arrival cannot make two credits);
 *  - FAILED: recorded for good -> sent under the next reference `<code>-<n>`;
 *  - no answer: nothing changes ("provider unavailable, try again").
 * After the status answer everything up to the transfer is synchronous: the reward goes
 * FAILED -> PENDING only at the retry count the staff member saw and takes its claim key
 * back, so a second press or a concurrent one finds it moved on ("stale" / "not-failed"),
 * and a player who claimed the period again since keeps that claim ("claimed-again").
 */
export async function retryFailedReward(w: WalletContext, code: string, expectedRetries: number, now: number): Promise<StaffRewardRetryResult> {
  const before = w.store.rewards.byCode(code);
  if (!before) return { kind: "not-found" };
  if (before.status !== "FAILED") return { kind: "not-failed", reward: toReward(before) };
  if (before.retries !== expectedRetries) return { kind: "stale", reward: toReward(before) };
  const agencyId = w.store.readMeta("agencyId");
  if (!agencyId || !w.store.readMeta("username") || !isProvider(before.provider)) return { kind: "unavailable", reward: toReward(before) };
  const reference = before.reference ?? before.code;
  const status = await attemptedPort(w, agencyId, before.provider, code).transferStatus(reference);
  if (status.kind === "unknown") return { kind: "unavailable", reward: toReward(w.store.rewards.byCode(code)!) };
  // synchronous from here to the transfer: only the first press at this count gets past retake
  const row = w.store.rewards.byCode(code)!;
  if (row.status !== "FAILED" || (row.reference ?? row.code) !== reference)
    return { kind: row.status === "FAILED" ? "stale" : "not-failed", reward: toReward(row) };
  const next = status.kind === "failed" ? `${code}-${row.retries + 1}` : reference;
  const retaken = w.store.rewards.retake(code, expectedRetries, next, status.kind !== "success", now);
  if (retaken !== "ok") return { kind: retaken, reward: toReward(w.store.rewards.byCode(code)!) };
  w.alarm.schedule(now);
  if (status.kind === "success") {
    finishReward(w, code, "SUCCESS");
    return { kind: "already-applied", reward: toReward(w.store.rewards.byCode(code)!), reference };
  }
  // First attempt right away, so staff see its outcome; an unknown one continues from the alarm.
  await settleReward(w, w.store.rewards.byCode(code)!, now);
  return { kind: "retried", reward: toReward(w.store.rewards.byCode(code)!), reference: next };
}

/** Rewards at this provider holding a withdrawal from it (pending, or turnover not yet met). */
export function rewardsHoldingWithdraw(w: WalletContext, provider: string): Reward[] {
  return w.store.rewards.holdingWithdraw(provider).map(toReward);
}

/** The service measured the turnover at the provider: the requirement is met, the hold ends. */
export function markRewardTurnoverMet(w: WalletContext, code: string, now: number): void {
  w.store.rewards.markTurnoverMet(code, now);
  w.alarm.schedule(now);
}

export function getReward(w: WalletContext, code: string): Reward | null {
  const row = w.store.rewards.byCode(code);
  return row ? toReward(row) : null;
}

export function listRewards(w: WalletContext, kind: Reward["kind"] | null, page: number, pageSize: number): { items: Reward[]; total: number } {
  return { items: w.store.rewards.page(kind, page, pageSize).map(toReward), total: w.store.rewards.count(kind) };
}

/** Copies changed rewards to D1 (reward_claims): the back office's claims reports read it. */
export async function projectRewards(w: WalletContext): Promise<void> {
  const agencyId = w.store.readMeta("agencyId");
  const playerId = w.store.readMeta("playerId");
  if (!agencyId || !playerId) return;
  const dirty = w.store.rewards.unprojected();
  if (dirty.length === 0) return;
  try {
    await w.env.DB.batch(
      dirty.map((row) => upsertRewardViewStatement(w.env.DB, { ...toReward(row), agencyId, playerId, amountMinor: Number(BigInt(row.amount_minor)) })),
    );
    for (const row of dirty) w.store.rewards.markProjected(row);
  } catch (error) {
    console.error("reward projection failed; retried at the next alarm", error);
  }
}

function toReward(row: RewardRow): Reward {
  return {
    code: row.code,
    kind: row.kind,
    period: row.period,
    provider: row.provider,
    amount: formatAmount(BigInt(row.amount_minor), "THB"),
    status: row.status,
    reason: row.reason,
    turnoverMultiple: row.turnover_multiple,
    turnoverTarget: formatAmount(BigInt(row.turnover_target_minor), "THB"),
    turnoverStart: row.turnover_start_minor,
    turnoverSince: row.turnover_since,
    turnoverMet: row.turnover_target_minor === "0" || row.turnover_met_at !== null,
    basis: JSON.parse(row.basis_json) as Record<string, string>,
    createdAt: row.created_at,
    settledAt: row.settled_at,
    retries: row.retries,
  };
}
