/**
 * Referral in the back office (decision 030): the owner's weekly report of referrers, shares,
 * claims, referrals that do not count or were flagged, and the settings form's save. The
 * rules and the player's side: referral.ts.
 */
import type { NotCountingReason, ReferralFlag, ReferralMode, ReferralSettings } from "../../core/referral";
import { completeWeeks } from "../../core/referral";
import { auditIfChanged, type AuditActor } from "../../db/audit";
import { listReferralClaims, playerNames, readReferralSettings, upsertReferralSettingsStatement } from "../../db/referrals";
import { listRewardClaims, type RewardClaimRow } from "../../db/rewards";
import {
  claimView,
  credit,
  currentReferrals,
  NO_SHARE,
  settingsView,
  systemNow,
  WEEKS_SHOWN,
  weekShares,
  type ClaimView,
  type Clock,
  type SettingsView,
} from "./referral";
import { withRetry } from "./rewards";

type ReferrerRow = {
  playerId: string;
  username: string;
  referred: number;
  counting: number;
  basis: string;
  amount: string;
  capped: boolean;
  claimed: ClaimView | null;
  claimedTotal: string;
};

export type AdminReferralsPage = {
  settings: SettingsView;
  week: { start: string; end: string };
  weeks: { start: string; end: string }[];
  rows: ReferrerRow[];
  notCounting: { referrer: string; referred: string; reason: NotCountingReason | null; reasonAt: string | null }[];
  /** Referrals flagged at registration for staff to look at (decision 049: the referrer's IP address); they count unless listed above. */
  flagged: { referrer: string; referred: string; flag: ReferralFlag; counts: boolean; createdAt: string }[];
  totals: { referred: number; counting: number; amount: string; claimed: string };
  /** Shares the provider refused (wallet FAILED) that staff may retry (decision 029). */
  failedCredits: (RewardClaimRow & { retryable: boolean })[];
};

/** The owner's report for one complete week (default: the last one) and the settings form's values. */
export async function adminReferralsPage(db: D1Database, agencyId: string, weekStart: string | null, now: Clock = systemNow): Promise<AdminReferralsPage> {
  const weeks = completeWeeks(now(), 0, WEEKS_SHOWN);
  const week = (weekStart && weeks.find((w) => w.start === weekStart)) || weeks[0]!;
  const [settings, referrals, claims, rewards] = await Promise.all([
    readReferralSettings(db, agencyId),
    currentReferrals(db, agencyId, null),
    listReferralClaims(db, agencyId, null, 5000),
    listRewardClaims(db, agencyId, "REFERRAL", null),
  ]);
  const shares = await weekShares(db, agencyId, settings, referrals, week);
  const referrerIds = [...new Set(referrals.map((r) => r.referrerPlayerId))];
  const names = await playerNames(db, agencyId, referrerIds);
  const rows: ReferrerRow[] = referrerIds.map((id) => {
    const mine = referrals.filter((r) => r.referrerPlayerId === id);
    const share = shares.get(id) ?? NO_SHARE;
    const myClaims = claims.filter((c) => c.referrerPlayerId === id);
    const claimedThisWeek = myClaims.find((c) => c.weekStart === week.start) ?? null;
    return {
      playerId: id,
      username: names.get(id)?.username ?? id,
      referred: mine.length,
      counting: mine.filter((r) => r.counts).length,
      basis: credit(claimedThisWeek ? claimedThisWeek.basisMinor : share.basisMinor),
      amount: credit(claimedThisWeek ? claimedThisWeek.amountMinor : share.amountMinor),
      capped: claimedThisWeek ? claimedThisWeek.capped : share.capped,
      claimed: claimedThisWeek ? claimView(claimedThisWeek) : null,
      claimedTotal: credit(myClaims.filter((c) => c.status === "CREDITED").reduce((sum, c) => sum + c.amountMinor, 0n)),
    };
  });
  rows.sort((a, b) => b.referred - a.referred || a.username.localeCompare(b.username));
  const names2 = await playerNames(
    db,
    agencyId,
    referrals.filter((r) => !r.counts || r.flag).map((r) => r.referredPlayerId),
  );
  return {
    settings: settingsView(settings),
    week: { start: week.start, end: week.end },
    weeks: weeks.map((w) => ({ start: w.start, end: w.end })),
    rows,
    notCounting: referrals
      .filter((r) => !r.counts)
      .map((r) => ({
        referrer: names.get(r.referrerPlayerId)?.username ?? r.referrerPlayerId,
        referred: names2.get(r.referredPlayerId)?.username ?? r.username,
        reason: r.reason,
        reasonAt: r.reasonAt,
      })),
    flagged: referrals.flatMap((r) =>
      r.flag
        ? [
            {
              referrer: names.get(r.referrerPlayerId)?.username ?? r.referrerPlayerId,
              referred: names2.get(r.referredPlayerId)?.username ?? r.username,
              flag: r.flag,
              counts: r.counts,
              createdAt: r.createdAt,
            },
          ]
        : [],
    ),
    totals: {
      referred: referrals.length,
      counting: referrals.filter((r) => r.counts).length,
      amount: credit(rows.reduce((sum, r) => sum + (shares.get(r.playerId)?.amountMinor ?? 0n), 0n)),
      claimed: credit(claims.filter((c) => c.weekStart === week.start && c.status === "CREDITED").reduce((sum, c) => sum + c.amountMinor, 0n)),
    },
    failedCredits: withRetry(rewards.items, false).filter((c) => c.retryable),
  };
}

/** What the settings form posts (app/lib/schemas/referral.ts produces exactly this). */
export type ReferralSettingsInput = { enabled: boolean; mode: ReferralMode; percentBp: number; weeklyCapMinor: bigint; turnoverMultiplier: number };

/** Saves the owner's settings with an audit row (before/after), only when something changed. */
export async function saveReferralSettings(db: D1Database, actor: AuditActor, input: ReferralSettingsInput): Promise<void> {
  const before = await readReferralSettings(db, actor.agencyId);
  const view = (s: ReferralSettings) => ({ ...s, weeklyCapMinor: s.weeklyCapMinor.toString() });
  if (JSON.stringify(view(before)) === JSON.stringify(view(input))) return;
  await db.batch([
    upsertReferralSettingsStatement(db, actor.agencyId, input),
    auditIfChanged(db, actor, { action: "referral.settings", target: actor.agencyId, before: view(before), after: view(input) }),
  ]);
}
