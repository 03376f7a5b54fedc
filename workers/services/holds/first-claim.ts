import { holdLinkKeys, holdRewardKey, type HoldKind } from "../../core/holds";
import { auditIfChanged } from "../../db/audit";
import {
  claimFirstOrHold,
  hasHeldClaim,
  holdTraces,
  readHoldRules,
  standingHolds,
  rebindHoldStatement,
  takeBackClaimStatements,
  type HoldRow,
} from "../../db/holds";

/**
 * "The first claim wins" (decision 094), the one door every promotion claim and every reward
 * passes before its wallet is asked: the claimant's link keys (device, phone, bank account,
 * receive QR) are written for this reward in one D1 batch, and a key another player wrote first
 * (not unlinked from this one) holds the claim. Held means the deposit is credited and the bonus
 * or reward waits for staff; the audit row the batch writes with a new hold is what the staff
 * alerts' sweep announces.
 */

type Claimant = { agencyId: string; playerId: string; username: string };
type HeldClaim = Pick<HoldRow, "id" | "status">;

/**
 * The claim's verdict: null (not held: the first, or released before), or the player's hold of
 * this reward (HELD: waits; REFUSED: staff said no). `ref` is the claim's own id (a promotion
 * usage, a reward code); `claim` what a reward's release credits.
 */
export async function holdIfLinked(
  env: Env,
  who: Claimant,
  input: { kind: HoldKind; subject: string; ref: string; amount: string | null; claim: Record<string, unknown> | null },
): Promise<HeldClaim | null> {
  // the rules and the player's traces at once: two round trips in all, the batch being the second
  const [rules, traces] = await Promise.all([readHoldRules(env.DB, who.agencyId), holdTraces(env.DB, who.agencyId, who.playerId)]);
  if (!(input.kind === "PROMOTION" ? rules.promotions : rules.rewards)) return null;
  const keys = holdLinkKeys(traces);
  if (keys.length === 0) return null;
  const rewardKey = holdRewardKey(input.kind, input.subject);
  const actor = { agencyId: who.agencyId, staffId: null, staffUsername: `player:${who.username}` };
  const hold = await claimFirstOrHold(
    env.DB,
    {
      agencyId: who.agencyId,
      playerId: who.playerId,
      rewardKey,
      ref: input.ref,
      keys,
      hold: { id: crypto.randomUUID(), kind: input.kind, amount: input.amount, claim: input.claim },
    },
    auditIfChanged(env.DB, actor, {
      action: "reward.held",
      target: who.playerId,
      after: { kind: input.kind, rewardKey, username: who.username, amount: input.amount },
    }),
  );
  if (!hold || hold.status === "RELEASED") return null;
  return { id: hold.id, status: hold.status };
}

/** A claim the wallet refused, or the player cancelled: its first rows and its new hold go. */
export async function takeBackClaim(env: Env, agencyId: string, ref: string): Promise<void> {
  await env.DB.batch(takeBackClaimStatements(env.DB, agencyId, ref));
}

/** A held promotion claimed anew (its first claim ended): staff decide the claim the wallet now holds. */
export async function rebindHold(env: Env, agencyId: string, holdId: string, ref: string): Promise<void> {
  await rebindHoldStatement(env.DB, agencyId, holdId, ref).run();
}

/** Whether a withdrawal of this player waits for staff: a claim of theirs is held and the owner's rule says so. */
export async function withdrawalWaitsForCheck(env: Env, agencyId: string, playerId: string): Promise<boolean> {
  const [rules, held] = await Promise.all([readHoldRules(env.DB, agencyId), hasHeldClaim(env.DB, agencyId, playerId)]);
  return rules.withdrawals && held;
}

/**
 * Whether these rewards of the player are held for review (or were refused after it), by
 * `<kind>:<subject>`: the player's page says "being checked" in place of the offer, rather than
 * offering what a claim would only hold again.
 */
export async function heldRewards(
  env: Env,
  agencyId: string,
  playerId: string,
  rewards: readonly { kind: HoldKind; subject: string }[],
): Promise<Map<string, "HELD" | "REFUSED">> {
  return standingHolds(
    env.DB,
    agencyId,
    playerId,
    rewards.map((r) => holdRewardKey(r.kind, r.subject)),
  );
}
