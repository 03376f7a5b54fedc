/**
 * Linked accounts (decision 093): which players of an agency share something that one person
 * running several accounts leaves behind, and a risk score with its parts. Pure: the traces
 * come from D1 (workers/db/linked-accounts.ts), the keys are the referral's normal forms
 * (core/referral.ts, decisions 030 and 049), so one phone, name, account or device spelled
 * two ways is one.
 */
import { bankKey, deviceKey, holderKey, normalizePhone } from "./referral";

/** Why two players are linked, strongest first (the order the staff page lists them in). */
const LINK_REASONS = ["device", "bank", "receiver", "phone", "holder", "ip", "referral"] as const;
export type LinkReason = (typeof LINK_REASONS)[number];

/**
 * What a player left: a value of one kind and when it was seen (ISO time). `bank` values are
 * "<bank code>:<number>", `receiver` the receive QR's "<IIN>:<token>" (decision 086), `ip` an
 * address as the session stored it, seen from `at` (signed in) to `until` (last seen).
 */
export type Trace = { playerId: string; reason: Exclude<LinkReason, "referral">; value: string; at: string; until?: string };

/** A referral tie (decision 030): the referrer and the referred are linked, whichever is looked at. */
export type ReferralTie = { referrerId: string; referredId: string; at: string };

/** A pair staff said is not one person (a family), with why, who and when. */
export type Unlink = { playerId: string; reason: string; by: string; at: string };

type LinkWhy = { reason: LinkReason; seenAt: string };
export type Link = { playerId: string; reasons: LinkWhy[]; seenAt: string; unlink: Unlink | null };

/**
 * Two sessions from one address count only this close in time: long enough for one person
 * switching accounts on one phone in an evening, short enough that a mobile operator's NAT,
 * which hands an address to someone else within hours, rarely joins strangers (decision 093).
 */
export const IP_WINDOW_MS = 24 * 60 * 60 * 1000;

/** A trace's value in its compared form, or null when it cannot be compared (too short, not a fingerprint). */
function keyOf(trace: Trace): string | null {
  switch (trace.reason) {
    case "device":
      return deviceKey(trace.value);
    case "phone":
      return normalizePhone(trace.value);
    case "holder":
      return holderKey(trace.value) || null;
    case "bank": {
      const [code, ...number] = trace.value.split(":");
      const key = bankKey({ bankCode: code ?? "", accountNumber: number.join(":") });
      return key.endsWith(":") ? null : key;
    }
    case "receiver":
    case "ip":
      return trace.value.trim() || null;
  }
}

const later = (a: string, b: string) => (a > b ? a : b);

/** How far apart two sightings are: 0 when they overlap, else the gap between one's end and the other's start. */
function apart(a: Trace, b: Trace): number {
  const end = (t: Trace) => Date.parse(t.until ?? t.at);
  return Math.max(0, Math.max(Date.parse(a.at), Date.parse(b.at)) - Math.min(end(a), end(b)));
}

/**
 * The players linked to `subjectId`, each with every reason and when each was seen (the later of
 * the two sightings: when the sharing existed), newest first. IP addresses link only when the two
 * sightings are within `ipWindowMs`. Unlinked pairs stay in the list, marked, so staff see what
 * was unlinked and why; the score leaves them out.
 */
export function deriveLinks(input: {
  subjectId: string;
  traces: readonly Trace[];
  referrals: readonly ReferralTie[];
  unlinks: readonly Unlink[];
  ipWindowMs?: number;
}): Link[] {
  const window = input.ipWindowMs ?? IP_WINDOW_MS;
  const mine = new Map<string, Trace[]>();
  for (const t of input.traces) {
    if (t.playerId !== input.subjectId) continue;
    const key = keyOf(t);
    if (key !== null) (mine.get(`${t.reason}|${key}`) ?? mine.set(`${t.reason}|${key}`, []).get(`${t.reason}|${key}`)!).push(t);
  }
  const found = new Map<string, Map<LinkReason, string>>();
  const note = (playerId: string, reason: LinkReason, at: string) => {
    const reasons = found.get(playerId) ?? found.set(playerId, new Map()).get(playerId)!;
    const before = reasons.get(reason);
    reasons.set(reason, before === undefined ? at : later(before, at));
  };
  for (const t of input.traces) {
    if (t.playerId === input.subjectId) continue;
    const key = keyOf(t);
    if (key === null) continue;
    for (const own of mine.get(`${t.reason}|${key}`) ?? []) {
      if (t.reason === "ip" && apart(t, own) > window) continue;
      note(t.playerId, t.reason, later(t.at, own.at));
    }
  }
  for (const r of input.referrals) {
    if (r.referrerId === r.referredId) continue;
    if (r.referrerId === input.subjectId) note(r.referredId, "referral", r.at);
    else if (r.referredId === input.subjectId) note(r.referrerId, "referral", r.at);
  }
  const unlinks = new Map(input.unlinks.map((u) => [u.playerId, u]));
  return [...found]
    .map(([playerId, reasons]) => {
      const whys = [...reasons].map(([reason, seenAt]) => ({ reason, seenAt })).sort((a, b) => LINK_REASONS.indexOf(a.reason) - LINK_REASONS.indexOf(b.reason));
      return { playerId, reasons: whys, seenAt: whys.reduce((m, w) => later(m, w.seenAt), ""), unlink: unlinks.get(playerId) ?? null };
    })
    .sort((a, b) => (a.seenAt === b.seenAt ? a.playerId.localeCompare(b.playerId) : a.seenAt < b.seenAt ? 1 : -1));
}

// ---- The score ---------------------------------------------------------------------------

/**
 * Points per linked player for each reason (decision 093). The strong reasons are what one
 * person's second account cannot avoid sharing; the weak ones are shared by strangers too (a
 * NAT, a common name, a friend's referral), so they add but never make a player held-worthy.
 */
export const LINK_WEIGHTS: Record<LinkReason, number> = { device: 40, bank: 50, receiver: 50, phone: 40, holder: 15, ip: 10, referral: 10 };
const STRONG: ReadonlySet<LinkReason> = new Set(["device", "bank", "receiver", "phone"]);
/** Linked players counted per reason: the fourth account on one device says nothing the third did not. */
const PER_REASON_PLAYERS = 3;
const SCORE_MAX = 100;
/** From this score, with at least one strong reason, a player is worth holding for review. */
export const HELD_AT = 40;

type ScorePart = { reason: LinkReason; players: number; points: number };
export type RiskScore = { total: number; parts: ScorePart[]; heldWorthy: boolean };

/** The score of a player's links, unlinked pairs left out: per reason, its weight times the players it links (at most 3); capped at 100. */
export function riskScore(links: readonly Link[]): RiskScore {
  const players = new Map<LinkReason, number>();
  for (const link of links) {
    if (link.unlink) continue;
    for (const why of link.reasons) players.set(why.reason, (players.get(why.reason) ?? 0) + 1);
  }
  const parts = LINK_REASONS.filter((r) => players.has(r)).map((reason) => {
    const count = players.get(reason)!;
    return { reason, players: count, points: LINK_WEIGHTS[reason] * Math.min(count, PER_REASON_PLAYERS) };
  });
  const total = Math.min(
    SCORE_MAX,
    parts.reduce((sum, p) => sum + p.points, 0),
  );
  return { total, parts, heldWorthy: total >= HELD_AT && parts.some((p) => STRONG.has(p.reason)) };
}

/**
 * Every way a phone in `normalised` form (normalizePhone) can be stored by the registration form
 * (digits with an optional "+"): the players of an agency are looked up by these through their
 * phone index, rather than every phone read and normalised.
 */
export function phoneSpellings(normalised: string): string[] {
  const out = new Set<string>();
  for (const prefix of ["", "+", "00", "+00"])
    for (const country of ["", "856"])
      for (const trunk of ["", "0", "00"]) {
        const spelling = `${prefix}${country}${trunk}${normalised}`;
        if (/^\+?[0-9]{8,15}$/.test(spelling) && normalizePhone(spelling) === normalised) out.add(spelling);
      }
  return [...out];
}

/** A pair in one order, so an unlink is one row whichever player's page it was made on. */
export function pairOf(a: string, b: string): [string, string] {
  return a < b ? [a, b] : [b, a];
}

/** Longest reason kept with an unlink ("mother and son, one phone"). */
export const UNLINK_REASON_MAX = 300;
