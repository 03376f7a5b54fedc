import { windowMs, type WitnessSource } from "./bank-witness";
import { digitRuns, namesAccount, paidOutOf } from "./debit-payout";
import { canonicalLak, formatAmount, parseAmount } from "./money";
import { DAY_MS, vientianeDate, vientianeDayBounds } from "./vientiane";

/**
 * Reconciliation of one bank day (decision 047): what the agency's own
 * bank accounts say moved (statement rows, forwarded messages, staff's "mark paid") against
 * what the portal did (deposits applied, withdrawals marked paid, the credit moved to each
 * provider). Pure: the service reads plain rows (workers/db/reconciliation.ts) and this module
 * builds the day's lines.
 *
 * A bank day is a Vientiane day (UTC+7) of the BANK's time. Every line is one of:
 * - matched: a bank credit that became a credit (applied to its order, or credited by hand from
 *   the payments queue, or refunded from it), a bank debit matched to a withdrawal marked paid;
 * - difference, with its reason (each needs a staff note before the day closes):
 *   STAFF_ONLY       a credit applied with no witness but staff's "mark paid" (no bank record);
 *   NO_CREDIT        a bank credit nothing was credited for (in the payments queue, or pending);
 *   CREDITED_TWICE   one derived transfer with two unsettled credits (decision 069): the owner
 *                    settles the surplus (reversed at the provider, or a recorded loss);
 *   FUTURE_DATED     a report dated after it arrived (beyond the clock grace): listed on the day
 *                    it arrived, never linked by time;
 *   DEBIT_NO_WITHDRAWAL  a bank debit no withdrawal marked paid matches;
 *   WITHDRAWAL_NO_DEBIT  a withdrawal marked paid on this day with no debit, while an imported
 *                    statement covers the time it was marked paid;
 * - waiting: a withdrawal marked paid with no debit yet and no statement covering its time (it
 *   becomes matched or a difference once one is imported; the day cannot close before);
 * - timing: a deposit or withdrawal the reports (which count by the time the portal applied or
 *   marked it) put on another day than the bank did. Not a difference: it explains why the
 *   reports' figures of the day differ from the bank's.
 *
 * Withdrawal <-> debit: same amount (the kip paid out), the bank time between the request
 * (minus the debit channel's window) and the marking (plus the window), and, when the debit's
 * raw text names the account number of a withdrawal considered, only a withdrawal paid to that
 * account. Pairs are taken greedily, one to one: an account named first, then the nearest to
 * the marking; ties by code, so the same rows always give the same pairs (the withdrawal page
 * shows the pairs the reconciliation page does). Only what can pair is compared (decision 074):
 * withdrawals are found by the account digits a debit's text holds, or among those of its
 * amount whose time span holds its bank time (a sweep in time order), so a day of thousands of
 * rows costs about its rows, never their square.
 *
 * A day is closed once, for every channel with a bank line that day, an imported statement's
 * range overlaps the day, nothing is waiting, no money difference is open (NO_CREDIT: its queue
 * item credited or refunded; CREDITED_TWICE: the surplus settled by the owner; a note alone
 * never closes those), and every other difference has a note.
 */

const DIFFERENCE_REASONS = ["CREDITED_TWICE", "NO_CREDIT", "STAFF_ONLY", "FUTURE_DATED", "DEBIT_NO_WITHDRAWAL", "WITHDRAWAL_NO_DEBIT"] as const;
type DifferenceReason = (typeof DIFFERENCE_REASONS)[number];
/** Differences of money a note cannot close: the money must be credited, refunded or settled. */
const MONEY_DIFFERENCES: readonly DifferenceReason[] = ["NO_CREDIT", "CREDITED_TWICE"];
const LINE_KINDS = ["difference", "waiting", "timing", "matched"] as const;
type LineKind = (typeof LINE_KINDS)[number];
type Resolution = "applied" | "hand-credited" | "refunded" | "paid";

/** How far around the day rows are read, so a pair across midnight is seen from both days (the window is at most a day). */
export const LOOK_AROUND_MS = 2 * DAY_MS;

/** [start, end) of a Vientiane day 'YYYY-MM-DD' in ms, or null when not a real day. */
export const bankDayBounds = vientianeDayBounds;

/** A deposit as the reports see it (deposit_orders_view, SUCCESS): its provider, credit and the time the portal applied it. */
export type DepositRow = { code: string; provider: string; paidAt: number; kipMinor: number; creditMinor: number };
/** The deposits the reports count on the day for one provider: how many, their kip and their credit (minor units). */
export type ReportedDeposits = { provider: string; n: number; kipMinor: number; creditMinor: number };

/** A bank credit (one transfer, bank_transactions direction 'credit') with what became of it. */
export type CreditRow = {
  channelCode: string;
  transferId: string;
  amount: string;
  bankTime: number;
  outcome: "PENDING" | "APPLIED" | "NO_ORDER" | "AMBIGUOUS" | "LATE";
  orderCode: string | null;
  /** the sources of its witnesses (bank_witnesses) */
  sources: WitnessSource[];
  /** the raw text of its key report (else of the first report that has one); null while only the day's lines are counted (read for a page's lines) */
  raw: string | null;
  /**
   * the credits its reports caused (order or hand) that the owner has not settled: how many (the
   * derivation's count, decision 069), and their codes when more than one (the owner settles all but one)
   */
  unsettled: { n: number; codes: string[] };
  /** its payments-queue item, if it went there */
  queue: { id: string; status: "OPEN" | "RESOLVING" | "CREDITED" | "REFUNDED"; manualCode: string | null; note: string | null } | null;
  /** the deposit it credited (its order when applied, the manual order when credited by hand) */
  deposit: DepositRow | null;
};

/** A report dated after it arrived. */
export type FutureRow = {
  channelCode: string;
  source: WitnessSource;
  witnessId: string;
  direction: "credit" | "debit";
  amount: string;
  bankTime: number;
  receivedAt: number;
  raw: string | null;
};

export type DebitRow = {
  channelCode: string;
  transferId: string;
  amount: string;
  bankTime: number;
  sources: WitnessSource[];
  raw: string | null;
  /** the withdrawal this debit closed (decision 084): paired with it before anything else */
  withdrawal?: string | null;
  /** the channel's fee per transfer out: the debit is the payout plus it (decision 084) */
  fee?: string;
};

/** A withdrawal staff marked paid (withdraw_reviews PAID): what it paid, to which account, when. */
export type PayoutRow = {
  code: string;
  provider: string;
  /** kip paid out, canonical LAK */
  amount: string;
  creditMinor: number;
  accountNumber: string | null;
  requestedAt: number;
  markedPaidAt: number;
  /** when the reports count it (withdraw_orders_view.paid_at), else the marking */
  reportsAt: number | null;
};

export type ImportRange = { channelCode: string; from: number; to: number };
export type Note = { note: string; staffUsername: string | null; notedAt: number };

export type DayInput = {
  day: string;
  /** credits of the day (a credit's line is on its bank day), and the transfers of deposits the reports put on the day */
  credits: CreditRow[];
  /** debits of [day - LOOK_AROUND, day end + LOOK_AROUND) */
  debits: DebitRow[];
  /** withdrawals marked paid in [day - LOOK_AROUND, day end + LOOK_AROUND) */
  payouts: PayoutRow[];
  /** reports dated after they arrived, that arrived in [day - LOOK_AROUND, day end + LOOK_AROUND) */
  future: FutureRow[];
  /** deposits the reports count on the day (own-account channels and hand credits of their queue), per provider */
  reportedDeposits: ReportedDeposits[];
  imports: ImportRange[];
  /** witness window per channel, minutes */
  windows: Record<string, number>;
  notes: Record<string, Note>;
};

export type Line = {
  key: string;
  kind: LineKind;
  reason: DifferenceReason | null;
  direction: "credit" | "debit";
  channelCode: string | null;
  transferId: string | null;
  /** the other transfer of a CREDITED_TWICE pair */
  twinId: string | null;
  /** CREDITED_TWICE: the unsettled credits of the transfer (order or manual codes), the owner settles all but one */
  credits: string[];
  /** a difference only money closes (credit, refund, settlement), never a note */
  money: boolean;
  /** NO_CREDIT: the payments-queue item where it is credited or refunded */
  queueId: string | null;
  amount: string;
  bankTime: number | null;
  /** withdrawals: when staff marked it paid */
  markedPaidAt: number | null;
  sources: WitnessSource[];
  /** the deposit, hand credit or withdrawal the line is about */
  orderCode: string | null;
  provider: string | null;
  resolution: Resolution | null;
  /** timing lines: the bank's day and the reports' day */
  bankDay: string | null;
  reportsDay: string | null;
  raw: string | null;
  note: Note | null;
};

type ProviderFigures = { provider: string; inByBank: number; inByReports: number; outByBank: number; outByReports: number };
type Totals = { n: number; kip: string };

/** The lines of one kind (a difference: of one reason) and direction: how many, and their kip. */
type LineGroup = { kind: LineKind; reason: DifferenceReason | null; direction: "credit" | "debit"; n: number; kip: string; unnoted: number };

export type ReconciledDay = {
  day: string;
  /** differences first, then waiting, timing and matched lines; each kind by time, then key */
  lines: Line[];
  /** the lines counted by kind, reason and direction, in the order of `lines` (differences by reason, money first) */
  groups: LineGroup[];
  summary: {
    bankCredits: Totals;
    bankDebits: Totals;
    depositsReported: Totals;
    withdrawalsReported: Totals;
    differences: number;
    noted: number;
    /** money differences still open (a note does not close them) */
    moneyOpen: number;
    waiting: number;
  };
  providers: ProviderFigures[];
  /** channels with a bank line on the day that no imported statement covers */
  uncoveredChannels: string[];
  covered: boolean;
  closed: boolean;
};

/** A function of an amount's text, remembered: a day's thousands of rows repeat a few thousand amounts (forgotten past 20,000 texts). */
function remembered<T>(of: (text: string) => T): (text: string) => T {
  const seen = new Map<string, T>();
  return (text) => {
    if (seen.has(text)) return seen.get(text) as T;
    if (seen.size >= 20_000) seen.clear();
    const value = of(text);
    seen.set(text, value);
    return value;
  };
}
const canonical = remembered(canonicalLak);
const lak = remembered((amount: string): bigint => parseAmount(canonicalLak(amount) ?? "0", "LAK") ?? 0n);
const sum = (amounts: string[]): Totals => ({
  n: amounts.length,
  kip: formatAmount(
    amounts.reduce((a, b) => a + lak(b), 0n),
    "LAK",
  ),
});

function line(fields: Partial<Omit<Line, "money">> & Pick<Line, "key" | "kind" | "direction" | "amount">): Line {
  return {
    reason: null,
    channelCode: null,
    transferId: null,
    twinId: null,
    credits: [],
    queueId: null,
    bankTime: null,
    markedPaidAt: null,
    sources: [],
    orderCode: null,
    provider: null,
    resolution: null,
    bankDay: null,
    reportsDay: null,
    raw: null,
    note: null,
    ...fields,
    money: fields.kind === "difference" && fields.reason !== undefined && fields.reason !== null && MONEY_DIFFERENCES.includes(fields.reason),
  };
}

export { namesAccount };

/** The withdrawals marked paid by the digits of the account they were paid to (6 digits or more: shorter never name one). */
type AccountIndex = { byDigits: Map<string, PayoutRow[]>; lengths: number[] };

function accountIndex(payouts: readonly PayoutRow[]): AccountIndex {
  const byDigits = new Map<string, PayoutRow[]>();
  for (const payout of payouts) {
    const digits = payout.accountNumber?.replace(/\D/g, "") ?? "";
    if (digits.length < 6) continue;
    byDigits.set(digits, [...(byDigits.get(digits) ?? []), payout]);
  }
  return { byDigits, lengths: [...new Set([...byDigits.keys()].map((d) => d.length))] };
}

/**
 * The withdrawals whose account a debit's text names (what `namesAccount` says of each), found
 * by looking each stretch of the text's digit runs up in the index: the cost is the text's
 * length, not the number of withdrawals.
 */
function payoutsNamedBy(raw: string | null, index: AccountIndex): PayoutRow[] {
  const found = new Set<PayoutRow>();
  for (const run of digitRuns(raw))
    for (const length of index.lengths)
      for (let at = 0; at + length <= run.length; at++) for (const payout of index.byDigits.get(run.slice(at, at + length)) ?? []) found.add(payout);
  return [...found];
}

const amountKey = (amount: string) => String(canonical(amount));
/** The kip a debit paid out (less its channel's fee), as the withdrawals' amounts are keyed. */
const paidOutKey = (debit: DebitRow) => (debit.fee && debit.fee !== "0" ? String(paidOutOf(debit.amount, debit.fee)) : amountKey(debit.amount));

function groupBy<T>(rows: readonly T[], keyOf: (row: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const row of rows) {
    const key = keyOf(row);
    const group = groups.get(key);
    if (group) group.push(row);
    else groups.set(key, [row]);
  }
  return groups;
}

/**
 * Each (debit, withdrawal) of one amount whose times can pair: the withdrawal requested before
 * the debit's bank time plus the window and marked paid after it minus the window. A sweep in
 * bank time order: a withdrawal joins the open set when its request comes within reach and
 * leaves it once its marking is out of reach, so only pairs that can pair are visited (and each
 * withdrawal left once).
 */
function pairsInTime(debits: readonly DebitRow[], payouts: readonly PayoutRow[], window: number, visit: (debit: DebitRow, payout: PayoutRow) => void): void {
  const byTime = [...debits].sort((a, b) => a.bankTime - b.bankTime);
  const byRequest = [...payouts].sort((a, b) => a.requestedAt - b.requestedAt);
  const open = new Set<PayoutRow>();
  let next = 0;
  for (const debit of byTime) {
    while (next < byRequest.length && byRequest[next]!.requestedAt - window <= debit.bankTime) open.add(byRequest[next++]!);
    for (const payout of open) {
      if (payout.markedPaidAt + window < debit.bankTime) open.delete(payout);
      else visit(debit, payout);
    }
  }
}

/**
 * Debits paired with withdrawals marked paid (the rule in the header). Returns the withdrawal
 * code per debit (channel + transfer id) it is matched to.
 */
export function matchDebits(debits: readonly DebitRow[], payouts: readonly PayoutRow[], windows: Record<string, number>): Map<string, string> {
  const keys = new Map(debits.map((d) => [d, debitKey(d)]));
  // rank: 2 the withdrawal the debit closed itself, 1 an account its text names, 0 amount and time
  const pairs: { debit: DebitRow; payout: PayoutRow; rank: number; distance: number }[] = [];
  const pair = (debit: DebitRow, payout: PayoutRow, named: boolean | 2) =>
    pairs.push({ debit, payout, rank: Number(named), distance: Math.abs(debit.bankTime - payout.markedPaidAt) });
  const windowOf = (debit: DebitRow) => windowMs(windows[debit.channelCode] ?? 0);
  const payoutByCode = new Map(payouts.map((p) => [p.code, p]));

  // a debit naming accounts pairs only with withdrawals to them, of its amount and in time
  const index = accountIndex(payouts);
  const unnamed: DebitRow[] = [];
  for (const debit of debits) {
    const closed = debit.withdrawal ? payoutByCode.get(debit.withdrawal) : undefined;
    if (closed) {
      pair(debit, closed, 2);
      continue;
    }
    const naming = payoutsNamedBy(debit.raw, index);
    if (naming.length === 0) {
      unnamed.push(debit);
      continue;
    }
    const [amount, window] = [paidOutKey(debit), windowOf(debit)];
    for (const payout of naming)
      if (amountKey(payout.amount) === amount && debit.bankTime >= payout.requestedAt - window && debit.bankTime <= payout.markedPaidAt + window)
        pair(debit, payout, true);
  }
  // the others: the withdrawals of the same amount whose time span holds the debit's (per window: channels may differ)
  const payoutsByAmount = groupBy(payouts, (p) => amountKey(p.amount));
  for (const group of groupBy(unnamed, (d) => `${paidOutKey(d)} ${windowOf(d)}`).values()) {
    const candidates = payoutsByAmount.get(paidOutKey(group[0]!)) ?? [];
    pairsInTime(group, candidates, windowOf(group[0]!), (debit, payout) => pair(debit, payout, false));
  }

  pairs.sort(
    (a, b) => b.rank - a.rank || a.distance - b.distance || a.payout.code.localeCompare(b.payout.code) || keys.get(a.debit)!.localeCompare(keys.get(b.debit)!),
  );
  const byDebit = new Map<string, string>();
  const taken = new Set<string>();
  for (const p of pairs) {
    const key = keys.get(p.debit)!;
    if (byDebit.has(key) || taken.has(p.payout.code)) continue;
    byDebit.set(key, p.payout.code);
    taken.add(p.payout.code);
  }
  return byDebit;
}

const debitKey = (d: { channelCode: string; transferId: string }) => `${d.channelCode}:${d.transferId}`;

/** Whether a credit became a credit to a player (applied, or credited by hand from the queue). */
const credited = (c: CreditRow) => c.unsettled.n > 0 || c.outcome === "APPLIED" || c.queue?.status === "CREDITED";

/** The day's lines, totals and whether it is closed. */
export function reconcileDay(input: DayInput): ReconciledDay {
  const bounds = bankDayBounds(input.day);
  if (!bounds) throw new Error(`not a day: ${input.day}`);
  const onDay = (t: number | null) => t !== null && t >= bounds.start && t < bounds.end;
  const note = (key: string) => input.notes[key] ?? null;
  const lines: Line[] = [];

  // credits seen on the day
  const dayCredits = input.credits.filter((c) => onDay(c.bankTime));
  for (const c of dayCredits) {
    const base = {
      direction: "credit" as const,
      channelCode: c.channelCode,
      transferId: c.transferId,
      amount: canonical(c.amount) ?? c.amount,
      bankTime: c.bankTime,
      sources: c.sources,
      raw: c.raw,
    };
    const deposit = {
      orderCode: c.deposit?.code ?? (c.outcome === "APPLIED" ? c.orderCode : (c.queue?.manualCode ?? null)),
      provider: c.deposit?.provider ?? null,
    };
    if (credited(c) && c.sources.every((s) => s === "staff")) {
      const key = `staff-only:${c.channelCode}:${c.transferId}`;
      lines.push(
        line({
          ...base,
          ...deposit,
          key,
          kind: "difference",
          reason: "STAFF_ONLY",
          resolution: c.outcome === "APPLIED" ? "applied" : "hand-credited",
          note: note(key),
        }),
      );
    } else if (credited(c)) {
      lines.push(
        line({
          ...base,
          ...deposit,
          key: `credit:${c.channelCode}:${c.transferId}`,
          kind: "matched",
          resolution: c.outcome === "APPLIED" ? "applied" : "hand-credited",
        }),
      );
    } else if (c.queue?.status === "REFUNDED") {
      lines.push(line({ ...base, key: `credit:${c.channelCode}:${c.transferId}`, kind: "matched", resolution: "refunded" }));
    } else {
      const key = `no-credit:${c.channelCode}:${c.transferId}`;
      lines.push(line({ ...base, orderCode: c.orderCode, key, kind: "difference", reason: "NO_CREDIT", queueId: c.queue?.id ?? null, note: note(key) }));
    }
  }

  // one transfer credited twice (two unsettled credits of one derived transfer), on its bank day
  for (const c of dayCredits) {
    if (c.unsettled.n < 2) continue;
    const key = `twice:${c.channelCode}:${c.transferId}`;
    lines.push(
      line({
        key,
        kind: "difference",
        reason: "CREDITED_TWICE",
        direction: "credit",
        channelCode: c.channelCode,
        transferId: c.transferId,
        amount: canonical(c.amount) ?? c.amount,
        bankTime: c.bankTime,
        sources: c.sources,
        orderCode: c.unsettled.codes.join(" + "),
        credits: c.unsettled.codes,
        raw: c.raw,
        note: note(key),
      }),
    );
  }

  // reports dated after they arrived: on the day they arrived
  for (const f of input.future) {
    if (!onDay(f.receivedAt)) continue;
    const key = `future:${f.channelCode}:${f.source}:${f.witnessId}`;
    lines.push(
      line({
        key,
        kind: "difference",
        reason: "FUTURE_DATED",
        direction: f.direction,
        channelCode: f.channelCode,
        transferId: f.witnessId,
        amount: canonical(f.amount) ?? f.amount,
        bankTime: f.bankTime,
        sources: [f.source],
        raw: f.raw,
        note: note(key),
      }),
    );
  }

  // debits and withdrawals marked paid
  const pairs = matchDebits(input.debits, input.payouts, input.windows);
  const payoutByCode = new Map(input.payouts.map((p) => [p.code, p]));
  const debitOf = new Map<string, DebitRow>();
  for (const d of input.debits) {
    const code = pairs.get(debitKey(d));
    if (code) debitOf.set(code, d);
  }
  const dayDebits = input.debits.filter((d) => onDay(d.bankTime));
  for (const d of dayDebits) {
    const base = {
      direction: "debit" as const,
      channelCode: d.channelCode,
      transferId: d.transferId,
      amount: canonical(d.amount) ?? d.amount,
      bankTime: d.bankTime,
      sources: d.sources,
      raw: d.raw,
    };
    const payout = payoutByCode.get(pairs.get(debitKey(d)) ?? "");
    if (payout) {
      lines.push(
        line({
          ...base,
          key: `debit:${d.channelCode}:${d.transferId}`,
          kind: "matched",
          orderCode: payout.code,
          provider: payout.provider,
          resolution: "paid",
          markedPaidAt: payout.markedPaidAt,
        }),
      );
    } else {
      const key = `debit:${d.channelCode}:${d.transferId}`;
      lines.push(line({ ...base, key, kind: "difference", reason: "DEBIT_NO_WITHDRAWAL", note: note(key) }));
    }
  }
  const coveredAt = (t: number) => input.imports.some((i) => i.from <= t && t <= i.to);
  for (const p of input.payouts) {
    if (!onDay(p.markedPaidAt) || debitOf.has(p.code)) continue;
    const key = `withdrawal:${p.code}`;
    const base = {
      direction: "debit" as const,
      amount: canonical(p.amount) ?? p.amount,
      markedPaidAt: p.markedPaidAt,
      orderCode: p.code,
      provider: p.provider,
      resolution: "paid" as const,
    };
    if (coveredAt(p.markedPaidAt)) lines.push(line({ ...base, key, kind: "difference", reason: "WITHDRAWAL_NO_DEBIT", note: note(key) }));
    else lines.push(line({ ...base, key, kind: "waiting" }));
  }

  // timing: the reports' day (applied / marked paid) against the bank's
  const timing = (direction: "credit" | "debit", code: string, provider: string, amount: string, bankTime: number, reportsAt: number) => {
    // on two days, one of them this one: exactly one of the two times falls on the day
    if (onDay(bankTime) === onDay(reportsAt)) return;
    const [bankDay, reportsDay] = [vientianeDate(bankTime), vientianeDate(reportsAt)];
    lines.push(
      line({
        key: `timing:${code}`,
        kind: "timing",
        direction,
        amount: canonical(amount) ?? amount,
        orderCode: code,
        provider,
        bankTime,
        bankDay,
        reportsDay,
      }),
    );
  };
  const creditOfDeposit = new Map<string, CreditRow>();
  for (const c of input.credits) if (credited(c) && c.deposit) creditOfDeposit.set(c.deposit.code, c);
  for (const c of creditOfDeposit.values()) timing("credit", c.deposit!.code, c.deposit!.provider, c.amount, c.bankTime, c.deposit!.paidAt);
  for (const [code, d] of debitOf) {
    const p = payoutByCode.get(code)!;
    timing("debit", code, p.provider, p.amount, d.bankTime, p.reportsAt ?? p.markedPaidAt);
  }

  // credit moved to each provider: by the bank's day (the lines) and by the reports' day (the ledger's, as the reports count it)
  const providers = new Map<string, ProviderFigures>();
  const figures = (provider: string) => {
    let f = providers.get(provider);
    if (!f) providers.set(provider, (f = { provider, inByBank: 0, inByReports: 0, outByBank: 0, outByReports: 0 }));
    return f;
  };
  for (const c of dayCredits) if (credited(c) && c.deposit) figures(c.deposit.provider).inByBank += c.deposit.creditMinor;
  for (const d of input.reportedDeposits) figures(d.provider).inByReports += d.creditMinor;
  for (const [code, d] of debitOf) if (onDay(d.bankTime)) figures(payoutByCode.get(code)!.provider).outByBank += payoutByCode.get(code)!.creditMinor;
  const reportedPayouts = input.payouts.filter((p) => onDay(p.reportsAt ?? p.markedPaidAt));
  for (const p of reportedPayouts) figures(p.provider).outByReports += p.creditMinor;

  // covered: every channel with a bank line on the day has an imported statement overlapping it
  const channels = new Set([...dayCredits, ...dayDebits].map((r) => r.channelCode));
  const uncoveredChannels = [...channels]
    .filter((ch) => !input.imports.some((i) => i.channelCode === ch && i.from < bounds.end && i.to >= bounds.start))
    .sort();
  const covered = uncoveredChannels.length === 0 && input.imports.some((i) => i.from < bounds.end && i.to >= bounds.start);
  const differences = lines.filter((l) => l.kind === "difference");
  const noted = differences.filter((l) => l.note !== null).length;
  const moneyOpen = differences.filter((l) => l.money).length;
  const waiting = lines.filter((l) => l.kind === "waiting").length;

  lines.sort(compareLines);
  return {
    day: input.day,
    lines,
    groups: lineGroups(lines),
    summary: {
      bankCredits: sum(dayCredits.map((c) => c.amount)),
      bankDebits: sum(dayDebits.map((d) => d.amount)),
      depositsReported: {
        n: input.reportedDeposits.reduce((a, d) => a + d.n, 0),
        kip: formatAmount(BigInt(input.reportedDeposits.reduce((a, d) => a + d.kipMinor, 0)), "LAK"),
      },
      withdrawalsReported: sum(reportedPayouts.map((p) => p.amount)),
      differences: differences.length,
      noted,
      moneyOpen,
      waiting,
    },
    providers: [...providers.values()].sort((a, b) => a.provider.localeCompare(b.provider)),
    uncoveredChannels,
    covered,
    closed: covered && waiting === 0 && moneyOpen === 0 && differences.every((l) => l.note !== null),
  };
}

const KIND_ORDER: Record<LineKind, number> = { difference: 0, waiting: 1, timing: 2, matched: 3 };
const lineTime = (l: Line) => l.bankTime ?? l.markedPaidAt ?? 0;
/** Where a line stands on the day: its kind (differences first), its time, its key. A page's cursor is the same three. */
type LinePlace = { order: number; time: number; key: string };
const placeOf = (l: Line): LinePlace => ({ order: KIND_ORDER[l.kind], time: lineTime(l), key: l.key });
const comparePlace = (l: Line, place: LinePlace) => KIND_ORDER[l.kind] - place.order || lineTime(l) - place.time || l.key.localeCompare(place.key);
const compareLines = (a: Line, b: Line) => KIND_ORDER[a.kind] - KIND_ORDER[b.kind] || lineTime(a) - lineTime(b) || a.key.localeCompare(b.key);

/** The lines counted per kind, reason and direction, ordered as the lines are (the reasons in DIFFERENCE_REASONS' order). */
function lineGroups(lines: readonly Line[]): LineGroup[] {
  const groups = new Map<string, { group: LineGroup; kip: bigint }>();
  for (const l of lines) {
    const id = `${l.kind}:${l.reason}:${l.direction}`;
    let entry = groups.get(id);
    if (!entry) groups.set(id, (entry = { group: { kind: l.kind, reason: l.reason, direction: l.direction, n: 0, kip: "0", unnoted: 0 }, kip: 0n }));
    entry.group.n++;
    entry.kip += lak(l.amount);
    if (l.kind === "difference" && l.note === null) entry.group.unnoted++;
  }
  const rank = (g: LineGroup) => KIND_ORDER[g.kind] * 100 + (g.reason ? DIFFERENCE_REASONS.indexOf(g.reason) : 0) * 2 + (g.direction === "credit" ? 0 : 1);
  return [...groups.values()].map(({ group, kip }) => ({ ...group, kip: formatAmount(kip, "LAK") })).sort((a, b) => rank(a) - rank(b));
}

/** Which lines a page lists: one kind, or the differences of one reason; none lists every line. */
export type LineFilter = LineKind | DifferenceReason;
export const LINES_PER_PAGE = 50;

/** The filter a link asked for, or null (every line) when it names none. */
export function parseLineFilter(value: string | null | undefined): LineFilter | null {
  return [...LINE_KINDS, ...DIFFERENCE_REASONS].find((f) => f === value) ?? null;
}

const shownBy = (filter: LineFilter | null) => (l: Line) => filter === null || l.kind === filter || l.reason === filter;

/** A page's cursor: the place of a line, as text for a link ("order.time.key"). */
const cursorOf = (l: Line) => {
  const place = placeOf(l);
  return `${place.order}.${place.time}.${place.key}`;
};
function parseCursor(text: string | null | undefined): LinePlace | null {
  const m = /^(\d)\.(\d{1,16})\.(.{1,300})$/s.exec(text ?? "");
  return m ? { order: Number(m[1]), time: Number(m[2]), key: m[3]! } : null;
}

/** The first index of sorted `lines` for which `past` holds (it holds from some index on). */
function firstPast(lines: readonly Line[], past: (l: Line) => boolean): number {
  let [lo, hi] = [0, lines.length];
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (past(lines[mid]!)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

export type LineView = { show?: LineFilter | null; after?: string | null; before?: string | null };
export type LinePage = {
  lines: Line[];
  show: LineFilter | null;
  /** the lines the filter keeps on the day, and the place of the page's first among them (1-based; 0 when none) */
  total: number;
  first: number;
  /** cursors of the pages before and after this one (`before=` and `after=`), null at either end */
  previous: string | null;
  next: string | null;
};

/**
 * One page of a day's sorted lines (keyset: the lines after a cursor, or the `size` before
 * one), so a link names a place among the lines, not an offset: a line that is noted, settled
 * or gone meanwhile moves no other line to another page.
 */
export function pageOfLines(lines: readonly Line[], view: LineView, size = LINES_PER_PAGE): LinePage {
  const show = view.show ?? null;
  const shown = show === null ? lines : lines.filter(shownBy(show));
  const [after, before] = [parseCursor(view.after), parseCursor(view.before)];
  let [start, end] = [0, Math.min(size, shown.length)];
  if (after) {
    start = firstPast(shown, (l) => comparePlace(l, after) > 0);
    end = Math.min(start + size, shown.length);
  } else if (before) {
    end = firstPast(shown, (l) => comparePlace(l, before) >= 0);
    start = Math.max(0, end - size);
  }
  // a cursor past either end (the lines after it went meanwhile): the last page, or the first
  if (start >= end && shown.length > 0) [start, end] = after ? [Math.max(0, shown.length - size), shown.length] : [0, Math.min(size, shown.length)];
  return {
    lines: shown.slice(start, end),
    show,
    total: shown.length,
    first: start < end ? start + 1 : 0,
    previous: start > 0 && start < shown.length ? cursorOf(shown[start]!) : null,
    next: end < shown.length && end > 0 ? cursorOf(shown[end - 1]!) : null,
  };
}
