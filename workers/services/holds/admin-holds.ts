import { HOLD_REASON_MAX, HOLD_REASON_MIN, HOLD_STATUSES, REGISTRATIONS_PER_DEVICE_MAX, heldFor, type HoldRules, type HoldStatus } from "../../core/holds";
import { firstListPage, type ListAsk } from "../../core/keyset";
import { auditIfChanged, auditStatement, recordAudit, type AuditActor } from "../../db/audit";
import {
  decideHoldStatement,
  findHold,
  reopenHoldStatement,
  holdsPage,
  playerHolds,
  readHoldRules,
  saveHoldRulesStatement,
  type HoldRow,
} from "../../db/holds";
import type { RewardClaimInput } from "../../wallet/player-wallet";
import { offersPaused, walletOf } from "../wallets";

/**
 * The back office's holds (decision 094): the list with why each claim was held, the owner's
 * release or refusal with a reason (audited), the CSV, and the owner's rules.
 */

/** A hold as the pages show it: the players it was held for, each with the reasons shared. */
function holdView(h: HoldRow) {
  const names = new Map(h.links.map((l) => [l.playerId, l.username]));
  return {
    ...h,
    heldFor: heldFor(h.links.map((l) => ({ playerId: l.playerId, key: l.key }))).map((p) => ({ ...p, username: names.get(p.playerId) ?? p.playerId })),
  };
}
export type HoldView = ReturnType<typeof holdView>;

export function holdStatusOf(text: string | null): HoldStatus | null {
  return text !== null && (HOLD_STATUSES as readonly string[]).includes(text) ? (text as HoldStatus) : null;
}

/** A page of the agency's holds (HELD first by default), newest first, and the owner's rules. */
export async function holdsScreen(env: Env, agencyId: string, status: HoldStatus | null, ask: ListAsk) {
  const [page, rules] = await Promise.all([holdsPage(env.DB, agencyId, status, ask), readHoldRules(env.DB, agencyId)]);
  return { ...page, items: page.items.map(holdView), rules };
}

/** The holds of one player (the staff player page, which reads with its D1 alone: only the binding is needed). */
export async function playerHoldsForStaff(env: Pick<Env, "DB">, agencyId: string, playerId: string): Promise<HoldView[]> {
  return (await playerHolds(env.DB, agencyId, playerId)).map(holdView);
}

type HoldDecisionError = "NOT_FOUND" | "ALREADY_DECIDED" | "REASON_INVALID" | "OFFERS_PAUSED";
export type HoldDecisionResult =
  | { ok: true; status: Exclude<HoldStatus, "HELD">; paid: "now" | "with-deposit" | "nothing" }
  | { ok: false; code: HoldDecisionError };

/**
 * Staff release or refuse a held claim with a reason, once, audited (`reward.hold-release`,
 * `reward.hold-refuse`). A promotion's wallet decides first (it owns the claim: two presses at once
 * pay once), then D1 takes the wallet's word. A reward's release is decided in D1 first (the
 * guarded update: of a release and a refusal at once one wins) and then credited by the wallet
 * under the claim's own code, so a second credit of it is impossible; a player whose offers are
 * paused (decision 091) is not paid: the release waits.
 */
export async function decideHold(env: Env, actor: AuditActor, id: string, to: "RELEASED" | "REFUSED", reasonText: string): Promise<HoldDecisionResult> {
  const reason = reasonText.trim();
  if (reason.length < HOLD_REASON_MIN || reason.length > HOLD_REASON_MAX) return { ok: false, code: "REASON_INVALID" };
  const hold = await findHold(env.DB, actor.agencyId, id);
  if (!hold) return { ok: false, code: "NOT_FOUND" };
  if (hold.status !== "HELD") return { ok: false, code: "ALREADY_DECIDED" };
  const wallet = walletOf(env, actor.agencyId, hold.playerId);
  if (hold.kind === "PROMOTION") {
    const decided = await wallet.decidePromotionHold(hold.ref, to);
    // an earlier press the wallet answered and D1 never heard: the wallet's decision stands
    const status = decided.ok ? to : decided.error === "DECIDED" && decided.usage?.hold && decided.usage.hold !== "HELD" ? decided.usage.hold : to;
    const written = await recordDecision(env, actor, hold, status, reason);
    if (!written) return { ok: false, code: "ALREADY_DECIDED" };
    const paid = decided.ok ? (decided.bonus === "scheduled" ? "now" : decided.bonus === "on-deposit" ? "with-deposit" : "nothing") : "nothing";
    return { ok: true, status, paid };
  }
  if (to === "RELEASED" && (await offersPaused(env, actor.agencyId, hold.playerId))) return { ok: false, code: "OFFERS_PAUSED" };
  if (!(await recordDecision(env, actor, hold, to, reason))) return { ok: false, code: "ALREADY_DECIDED" };
  if (to === "REFUSED") return { ok: true, status: to, paid: "nothing" };
  await wallet.identify(actor.agencyId, hold.playerId, hold.username);
  const credited = await wallet.claimReward({ ...(hold.claim as Omit<RewardClaimInput, "code" | "now">), code: hold.ref, now: Date.now() });
  if (credited.kind === "paused") {
    // paused between the check and the credit: the release is taken back, the hold waits
    await env.DB.batch([
      reopenHoldStatement(env.DB, actor.agencyId, hold.id),
      auditIfChanged(env.DB, actor, {
        action: "reward.hold-reopen",
        target: hold.id,
        before: { status: "RELEASED" },
        after: { status: "HELD", why: "OFFERS_PAUSED" },
      }),
    ]);
    return { ok: false, code: "OFFERS_PAUSED" };
  }
  return { ok: true, status: to, paid: "now" };
}

/** The decision and its audit row in one batch; false when another decision was there first. */
async function recordDecision(env: Env, actor: AuditActor, hold: HoldRow, to: Exclude<HoldStatus, "HELD">, reason: string): Promise<boolean> {
  const [update] = await env.DB.batch([
    decideHoldStatement(env.DB, actor.agencyId, hold.id, { to, reason, by: actor.staffUsername ?? "?" }),
    auditIfChanged(env.DB, actor, {
      action: to === "RELEASED" ? "reward.hold-release" : "reward.hold-refuse",
      target: hold.id,
      before: { status: "HELD" },
      after: { status: to, reason, kind: hold.kind, rewardKey: hold.rewardKey, player: hold.username, amount: hold.amount },
    }),
  ]);
  return (update?.meta.changes ?? 0) > 0;
}

/** Holds an export reads per statement, newest first by keyset. */
const EXPORT_PAGE = 500;

/** Every hold of one status (or all) for the CSV, newest first, a page at a time; audited before the rows are returned (as the reports', decision 059). */
export async function holdsExport(env: Env, actor: AuditActor, status: HoldStatus | null): Promise<HoldView[]> {
  const holds: HoldView[] = [];
  let ask: ListAsk = firstListPage(EXPORT_PAGE);
  for (;;) {
    const page = await holdsPage(env.DB, actor.agencyId, status, ask);
    holds.push(...page.items.map(holdView));
    if (!page.next) break;
    const last = page.items[page.items.length - 1]!;
    ask = { from: { at: last.createdAt, id: last.id }, step: "next", pageSize: EXPORT_PAGE };
  }
  await recordAudit(env.DB, actor, { action: "holds.export", after: { rows: holds.length, status } });
  return holds;
}

export type HoldRulesInput = { promotions: boolean; rewards: boolean; withdrawals: boolean; registrationsPerDevice: number };

/** The owner's rules saved, audited (`holds.rules`, before and after). */
export async function saveHoldRules(env: Env, actor: AuditActor, input: HoldRulesInput): Promise<{ ok: true } | { ok: false; code: "REGISTRATIONS_INVALID" }> {
  if (!Number.isInteger(input.registrationsPerDevice) || input.registrationsPerDevice < 0 || input.registrationsPerDevice > REGISTRATIONS_PER_DEVICE_MAX)
    return { ok: false, code: "REGISTRATIONS_INVALID" };
  const next: HoldRules = { ...input };
  const before = await readHoldRules(env.DB, actor.agencyId);
  await env.DB.batch([saveHoldRulesStatement(env.DB, actor.agencyId, next), auditStatement(env.DB, actor, { action: "holds.rules", before, after: next })]);
  return { ok: true };
}
