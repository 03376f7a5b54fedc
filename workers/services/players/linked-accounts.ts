import { deriveLinks, IP_WINDOW_MS, pairOf, riskScore, UNLINK_REASON_MAX, type Link, type RiskScore } from "../../core/linked-accounts";
import { auditIfChanged, type AuditActor } from "../../db/audit";
import { findPlayerCard } from "../../db/players";
import { insertUnlinkStatement, linkTraces, type LinkedPlayerCard } from "../../db/linked-accounts";

/**
 * Linked accounts (decision 093): the players of the agency who share a device, a phone, a bank
 * account or its holder's name, a receive QR, an address within a day, or a referral tie with
 * one player, derived on each read from what is already stored (no link table to fall behind),
 * and the risk score with its parts. Staff see it on the player's page; the owner unlinks a pair
 * (a family), audited.
 */

type LinkedAccount = Link & { player: LinkedPlayerCard };
export type LinkedAccounts = { links: LinkedAccount[]; score: RiskScore };

/** One D1 round trip (a batch), given the player's phone (the page has read the player already). */
export async function linkedAccounts(db: D1Database, agencyId: string, playerId: string, phone: string): Promise<LinkedAccounts> {
  const { traces, referrals, unlinks, cards } = await linkTraces(db, agencyId, playerId, phone, IP_WINDOW_MS);
  const links = deriveLinks({ subjectId: playerId, traces, referrals, unlinks });
  // a link whose player is not of this agency any more has no card: nothing to show or score
  const shown = links.flatMap((l) => {
    const player = cards.get(l.playerId);
    return player ? [{ ...l, player }] : [];
  });
  return { links: shown, score: riskScore(shown) };
}

export type UnlinkResult = { ok: true; changed: boolean } | { ok: false; error: "NOT_FOUND" | "NOT_LINKED" };

/**
 * The owner says two linked players are not one person. Only a pair that is linked now can be
 * unlinked (a made-up pair would be an audit row about nothing); the row and its audit row are
 * one batch, the audit written only when the pair was not unlinked already.
 */
export async function unlinkPlayers(db: D1Database, actor: AuditActor, playerId: string, otherId: string, reason: string): Promise<UnlinkResult> {
  const player = await findPlayerCard(db, actor.agencyId, playerId);
  if (!player) return { ok: false, error: "NOT_FOUND" };
  const linked = await linkedAccounts(db, actor.agencyId, playerId, player.phone);
  const link = linked.links.find((l) => l.playerId === otherId);
  if (!link) return { ok: false, error: "NOT_LINKED" };
  if (link.unlink) return { ok: true, changed: false };
  const text = reason.trim().slice(0, UNLINK_REASON_MAX);
  const [insert] = await db.batch([
    insertUnlinkStatement(db, {
      agencyId: actor.agencyId,
      pair: pairOf(playerId, otherId),
      reason: text,
      staffId: actor.staffId,
      staffUsername: actor.staffUsername ?? "",
    }),
    auditIfChanged(db, actor, {
      action: "player.unlink",
      target: playerId,
      before: { other: otherId, otherUsername: link.player.username, reasons: link.reasons.map((r) => r.reason) },
      after: { unlinked: true, reason: text },
    }),
  ]);
  return { ok: true, changed: (insert!.meta.changes ?? 0) > 0 };
}
