import { windowMs, type WitnessSource } from "./bank-witness";
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
 * shows the pairs the reconciliation page does).
 *
 * A day is closed once, for every channel with a bank line that day, an imported statement's
 * range overlaps the day, nothing is waiting, no money difference is open (NO_CREDIT: its queue
 * item credited or refunded; CREDITED_TWICE: the surplus settled by the owner; a note alone
 * never closes those), and every other difference has a note.
 */

type DifferenceReason = "STAFF_ONLY" | "NO_CREDIT" | "CREDITED_TWICE" | "FUTURE_DATED" | "DEBIT_NO_WITHDRAWAL" | "WITHDRAWAL_NO_DEBIT";
/** Differences of money a note cannot close: the money must be credited, refunded or settled. */
const MONEY_DIFFERENCES: readonly DifferenceReason[] = ["NO_CREDIT", "CREDITED_TWICE"];
type LineKind = "matched" | "difference" | "waiting" | "timing";
type Resolution = "applied" | "hand-credited" | "refunded" | "paid";

/** How far around the day rows are read, so a pair across midnight is seen from both days (the window is at most a day). */
export const LOOK_AROUND_MS = 2 * DAY_MS;

/** [start, end) of a Vientiane day 'YYYY-MM-DD' in ms, or null when not a real day. */
export const bankDayBounds = vientianeDayBounds;

/** A deposit as the reports see it (deposit_orders_view, SUCCESS): its provider, credit and the time the portal applied it. */
export type DepositRow = { code: string; provider: string; paidAt: number; kipMinor: number; creditMinor: number };

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
  /** a witness split off by staff made this transfer: it is not one with another */
  split: boolean;
  /** order codes its reference or raw text names (orderCodeCandidates) */
  namedOrders: string[];
  /** the raw text of its key report (else of the first report that has one) */
  raw: string | null;
  /** the credits its reports caused (order or hand), with the owner's settlement of a surplus one */
  credits: { code: string; kind: "order" | "hand"; settled: "reversed" | "loss" | null }[];
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

export type DebitRow = { channelCode: string; transferId: string; amount: string; bankTime: number; sources: WitnessSource[]; raw: string | null };

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
  /** credits of [day - LOOK_AROUND, day end + LOOK_AROUND), and the transfers of deposits the reports put on the day */
  credits: CreditRow[];
  /** debits of [day - LOOK_AROUND, day end + LOOK_AROUND) */
  debits: DebitRow[];
  /** withdrawals marked paid in [day - LOOK_AROUND, day end + LOOK_AROUND) */
  payouts: PayoutRow[];
  /** reports dated after they arrived, that arrived in [day - LOOK_AROUND, day end + LOOK_AROUND) */
  future: FutureRow[];
  /** deposits the reports count on the day (own-account channels and hand credits of their queue) */
  reportedDeposits: DepositRow[];
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

export type ReconciledDay = {
  day: string;
  lines: Line[];
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

const lak = (amount: string): bigint => parseAmount(canonicalLak(amount) ?? "0", "LAK") ?? 0n;
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

/** The digit runs of a text (spaces and dashes inside a number kept out), e.g. "0101-000 123" -> "0101000123". */
function digitRuns(text: string | null): string[] {
  return (text?.match(/\d[\d -]*\d|\d/g) ?? []).map((run) => run.replace(/[ -]/g, ""));
}

/** Whether a raw bank text names an account number (its digits inside one number of the text; short numbers never count). */
export function namesAccount(raw: string | null, accountNumber: string | null): boolean {
  const digits = accountNumber?.replace(/\D/g, "") ?? "";
  if (digits.length < 6) return false;
  return digitRuns(raw).some((run) => run.includes(digits));
}

/**
 * Debits paired with withdrawals marked paid (the rule in the header). Returns the withdrawal
 * code per debit (channel + transfer id) it is matched to.
 */
export function matchDebits(debits: readonly DebitRow[], payouts: readonly PayoutRow[], windows: Record<string, number>): Map<string, string> {
  const pairs: { debit: string; payout: string; named: boolean; distance: number }[] = [];
  for (const debit of debits) {
    const amount = canonicalLak(debit.amount);
    const window = windowMs(windows[debit.channelCode] ?? 0);
    const naming = payouts.filter((p) => namesAccount(debit.raw, p.accountNumber));
    for (const payout of naming.length > 0 ? naming : payouts) {
      if (canonicalLak(payout.amount) !== amount) continue;
      if (debit.bankTime < payout.requestedAt - window || debit.bankTime > payout.markedPaidAt + window) continue;
      pairs.push({ debit: debitKey(debit), payout: payout.code, named: naming.length > 0, distance: Math.abs(debit.bankTime - payout.markedPaidAt) });
    }
  }
  pairs.sort((a, b) => Number(b.named) - Number(a.named) || a.distance - b.distance || a.payout.localeCompare(b.payout) || a.debit.localeCompare(b.debit));
  const byDebit = new Map<string, string>();
  const taken = new Set<string>();
  for (const pair of pairs) {
    if (byDebit.has(pair.debit) || taken.has(pair.payout)) continue;
    byDebit.set(pair.debit, pair.payout);
    taken.add(pair.payout);
  }
  return byDebit;
}

const debitKey = (d: { channelCode: string; transferId: string }) => `${d.channelCode}:${d.transferId}`;

/** A transfer's credits the owner has not settled. */
const unsettled = (c: CreditRow) => c.credits.filter((x) => x.settled === null);

/** Whether a credit became a credit to a player (applied, or credited by hand from the queue). */
const credited = (c: CreditRow) => unsettled(c).length > 0 || c.outcome === "APPLIED" || c.queue?.status === "CREDITED";

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
      amount: canonicalLak(c.amount) ?? c.amount,
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
    const open = unsettled(c);
    if (open.length < 2) continue;
    const key = `twice:${c.channelCode}:${c.transferId}`;
    lines.push(
      line({
        key,
        kind: "difference",
        reason: "CREDITED_TWICE",
        direction: "credit",
        channelCode: c.channelCode,
        transferId: c.transferId,
        amount: canonicalLak(c.amount) ?? c.amount,
        bankTime: c.bankTime,
        sources: c.sources,
        orderCode: open.map((x) => x.code).join(" + "),
        credits: open.map((x) => x.code),
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
        amount: canonicalLak(f.amount) ?? f.amount,
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
      amount: canonicalLak(d.amount) ?? d.amount,
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
      amount: canonicalLak(p.amount) ?? p.amount,
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
    const [bankDay, reportsDay] = [vientianeDate(bankTime), vientianeDate(reportsAt)];
    if (bankDay === reportsDay || (bankDay !== input.day && reportsDay !== input.day)) return;
    lines.push(
      line({
        key: `timing:${code}`,
        kind: "timing",
        direction,
        amount: canonicalLak(amount) ?? amount,
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

  const order: Record<LineKind, number> = { difference: 0, waiting: 1, timing: 2, matched: 3 };
  const time = (l: Line) => l.bankTime ?? l.markedPaidAt ?? 0;
  lines.sort((a, b) => order[a.kind] - order[b.kind] || time(a) - time(b) || a.key.localeCompare(b.key));
  return {
    day: input.day,
    lines,
    summary: {
      bankCredits: sum(dayCredits.map((c) => c.amount)),
      bankDebits: sum(dayDebits.map((d) => d.amount)),
      depositsReported: { n: input.reportedDeposits.length, kip: formatAmount(BigInt(input.reportedDeposits.reduce((a, d) => a + d.kipMinor, 0)), "LAK") },
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
