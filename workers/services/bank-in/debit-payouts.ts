import { matchDebitToPayout, type OpenPayout, type PayeeEvidence } from "../../core/debit-payout";
import { auditStatement, recordAudit } from "../../db/audit";
import type { ScopeReport } from "../../db/bank-transactions";
import {
  clearDebitCandidatesStatement,
  debitCandidatesOf,
  debitMatchingFacts,
  debitPayoutOf,
  insertDebitCandidateStatement,
  insertDebitPayoutStatement,
  type DebitCandidate,
  type DebitPayout,
} from "../../db/debit-payouts";
import { recordWithdrawReviewStatement } from "../../db/orders";
import { raiseAlert } from "../alerts";
import { walletOf } from "../wallets";

/**
 * The bank's debit closes a withdrawal (decision 084): what a derivation of a debit scope does
 * with each derived debit transfer. One already tied to a withdrawal is done; one that is the
 * payout of exactly one withdrawal waiting for the cashier (workers/core/debit-payout.ts) marks
 * it paid through its player's wallet, the one decision path of decision 010, with the debit's
 * report as who decided; one that may be several waits for the cashier with its candidates.
 * Anything else stays a debit with no withdrawal (a difference on its reconciliation day).
 */

/** A debit transfer as the derivation hands it over: its key report, every report of it, the bank time it is matched by. */
export type DebitTransfer = { key: ScopeReport; members: ScopeReport[]; bankTime: number | null };

/** A withdrawal to mark paid by a debit. */
export type PayoutAct = {
  kind: "payout";
  key: ScopeReport;
  withdrawal: OpenPayout;
  evidence: PayeeEvidence;
  /** every report of the transfer, `<channel>:<source>:<id>` (one of them may have paid it already) */
  aliases: string[];
  fee: string;
};

/** A debit that may be the payout of several withdrawals: the cashier is told, once per debit. */
export type CandidatesAct = { kind: "debitCandidates"; key: ScopeReport; codes: string[] };

export type DebitPlan = { statements: D1PreparedStatement[]; acts: (PayoutAct | CandidatesAct)[]; linked: Map<string, string> };

const reportRef = (r: Pick<ScopeReport, "channelCode" | "source" | "witnessId">): string => `${r.channelCode}:${r.source}:${r.witnessId}`;
/** What the wallet was already asked in this arrival (its refusal stands: not asked again). */
export const payoutTried = (key: ScopeReport, code: string): string => `${reportRef(key)}>${code}`;

/**
 * The writes and acts for a scope's debit transfers: candidates rewritten for each (derived,
 * like the transfers), and at most one payout act per withdrawal, given to the earliest debit
 * (a second debit for one withdrawal is a difference, never a second payout).
 * `linked`: the withdrawal each transfer paid, by its key report's id.
 */
export async function planDebits(
  db: D1Database,
  agencyId: string,
  channelCode: string,
  transfers: readonly DebitTransfer[],
  paid: readonly { withdrawCode: string; source: string; witnessId: string }[],
  tried: ReadonlySet<string>,
  now: number,
): Promise<DebitPlan> {
  const statements: D1PreparedStatement[] = [];
  const acts: DebitPlan["acts"] = [];
  const linked = new Map<string, string>();
  const paidBy = (t: DebitTransfer) => paid.find((p) => t.members.some((m) => m.source === p.source && m.witnessId === p.witnessId));
  const waiting = transfers.filter((t) => !paidBy(t));
  for (const t of transfers) {
    for (const m of t.members) statements.push(clearDebitCandidatesStatement(db, agencyId, m));
    const link = paidBy(t);
    if (link) linked.set(t.key.witnessId, link.withdrawCode);
  }
  if (waiting.length === 0) return { statements, acts, linked };
  const { open, fee } = await debitMatchingFacts(db, agencyId, channelCode);
  const claimed = new Set(paid.map((p) => p.withdrawCode));
  const earliestFirst = [...waiting].sort((a, b) => (a.bankTime ?? Infinity) - (b.bankTime ?? Infinity) || (a.key.witnessId < b.key.witnessId ? -1 : 1));
  for (const t of earliestFirst) {
    const raw = t.members.map((m) => m.raw ?? "").join("\n");
    const match = matchDebitToPayout({ amount: t.key.amount, bankTime: t.bankTime, raw }, open, fee);
    if (match.kind === "ambiguous") {
      for (const code of match.candidates)
        statements.push(insertDebitCandidateStatement(db, agencyId, { ...t.key, withdrawCode: code, evidence: match.by, foundAt: now }));
      acts.push({ kind: "debitCandidates", key: t.key, codes: [...match.candidates] });
      continue;
    }
    if (match.kind !== "pay" || claimed.has(match.code) || tried.has(payoutTried(t.key, match.code))) continue;
    claimed.add(match.code);
    acts.push({
      kind: "payout",
      key: t.key,
      withdrawal: open.find((w) => w.code === match.code)!,
      evidence: match.by,
      aliases: t.members.map(reportRef),
      fee,
    });
  }
  return { statements, acts, linked };
}

/** Tells the cashiers that a debit waits for them to choose the withdrawal it paid (raised again: one event). */
export async function announceDebitCandidates(env: Env, agencyId: string, act: CandidatesAct): Promise<void> {
  await raiseAlert(env, agencyId, {
    id: `withdrawal.debit-candidates:${reportRef(act.key)}`,
    kind: "withdrawal.debit-candidates",
    facts: { channelCode: act.key.channelCode, transferId: act.key.witnessId, amountLak: act.key.amount, codes: act.codes },
  });
}

/** What the audit keeps of a withdrawal before and after the debit decided it. */
const auditView = (order: { status: string; review: string; payoutState?: string | null; receivedLak?: string } | null) =>
  order ? { status: order.status, review: order.review, payoutState: order.payoutState ?? null, receivedLak: order.receivedLak } : null;

/**
 * Marks the withdrawal paid through its player's wallet with the debit as who decided. Applied:
 * the debit is tied to it, the decision recorded (the queue hides it at once) and audited, in
 * one batch. A duplicate (a report of the same transfer paid it) ties it too; refused (the
 * cashier decided first, or it went to the gateway): audited, the debit stays a difference.
 */
export async function payByDebit(env: Env, agencyId: string, act: PayoutAct): Promise<void> {
  const report = reportRef(act.key);
  const code = act.withdrawal.code;
  const now = Date.now();
  const actor = { agencyId, staffId: null, staffUsername: `debit:${report}` };
  const result = await walletOf(env, agencyId, act.withdrawal.playerId).decideWithdraw(
    code,
    { by: "debit", action: "paid", report, aliases: act.aliases },
    now,
  );
  const payout: DebitPayout = {
    withdrawCode: code,
    channelCode: act.key.channelCode,
    source: act.key.source,
    witnessId: act.key.witnessId,
    amount: act.key.amount,
    fee: act.fee,
    evidence: act.evidence,
    paidAt: now,
  };
  if (result.kind === "applied") {
    await env.DB.batch([
      insertDebitPayoutStatement(env.DB, agencyId, payout),
      recordWithdrawReviewStatement(env.DB, {
        code,
        agencyId,
        decision: "PAID",
        staffId: null,
        staffUsername: actor.staffUsername,
        bankReference: act.key.witnessId,
        reason: null,
        decidedAt: now,
      }),
      auditStatement(env.DB, actor, {
        action: "withdrawal.paid-by-debit",
        target: `withdrawal:${code}`,
        before: auditView(result.before),
        after: {
          ...auditView(result.order),
          report,
          reports: act.aliases,
          amount: act.key.amount,
          fee: act.fee,
          evidence: act.evidence,
          bankTime: new Date(act.key.bankTime).toISOString(),
        },
      }),
    ]);
    return;
  }
  if (result.kind === "duplicate") {
    await insertDebitPayoutStatement(env.DB, agencyId, payout).run();
    return;
  }
  await recordAudit(env.DB, actor, {
    action: "bank-debit.refused",
    target: `withdrawal:${code}`,
    after: { report, result: result.kind, status: result.order?.status ?? null },
  });
}

/** What the withdrawal's staff page shows of the bank's debits: the one that closed it, or the debits that may be its payout. */
export async function debitEvidenceOfWithdrawal(
  db: D1Database,
  agencyId: string,
  code: string,
): Promise<{ paidBy: DebitPayout | null; candidates: DebitCandidate[] }> {
  const [paidBy, candidates] = await Promise.all([debitPayoutOf(db, agencyId, code), debitCandidatesOf(db, agencyId, code)]);
  return { paidBy, candidates: paidBy ? [] : candidates };
}
