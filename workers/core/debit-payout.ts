import { canonicalLak, formatAmount, parseAmount } from "./money";
import { BANK_CLOCK_GRACE_MS } from "./pay-amount";

/**
 * The bank's debit closes a withdrawal (decision 084). After paying a withdrawal by hand from
 * the agency's bank app, the cashier's phone forwards the bank's debit message (and the
 * statement lists the row later): when that debit is the payout of exactly one withdrawal
 * waiting for the cashier, the portal marks it paid itself. Pure: the service reads the open
 * withdrawals and the channel's fee.
 *
 * A debit pays a withdrawal when:
 * - its amount is the kip the withdrawal pays out plus the fee the owner declared for the
 *   channel (what the bank takes per transfer, shown in the same debit; default 0);
 * - its bank time falls after the withdrawal opened (less the clock grace every source has)
 *   and within DEBIT_PAYOUT_WINDOW_MS of it: a cashier pays the queue the same day;
 * - where the text says who was paid (a masked account tail "xxxx1234", a whole account
 *   number, the holder's name), it says this withdrawal's payee. A text with a masked tail is
 *   judged by the account alone (a name beside another account's tail is not enough).
 * Exactly one such withdrawal: paid. Several: the cashier decides between the candidates.
 * A debit that says nothing of the payee (amount only) pays a withdrawal only while no other
 * open withdrawal has the same amount, whatever its age: else its candidates wait too.
 */

/** How long after a withdrawal opened a debit may still be its payout. */
export const DEBIT_PAYOUT_WINDOW_MS = 24 * 60 * 60 * 1000;
/** A masked tail shorter than this says nothing (too many accounts end alike). */
const MIN_TAIL_DIGITS = 3;
/** A holder's name shorter than this (letters) says nothing. */
const MIN_NAME_LETTERS = 4;

/** A withdrawal waiting for the cashier (open, manual review, no payout requested), as the matcher sees it. */
export type OpenPayout = {
  code: string;
  playerId: string;
  /** kip it pays out */
  amount: string;
  /** when it opened (ms) */
  openedAt: number;
  accountNumber: string | null;
  accountName: string | null;
};

export type DebitFacts = { amount: string; bankTime: number | null; raw: string | null };

/** How the payee was known: by the account, by the holder's name, or by the amount alone. */
export type PayeeEvidence = "account" | "name" | "amount";
export type DebitMatch = { kind: "pay"; code: string; by: PayeeEvidence } | { kind: "ambiguous"; candidates: string[]; by: PayeeEvidence } | { kind: "none" };

/** The kip a debit paid out to the payee: the debit less the channel's fee (null: not an amount, or no more than the fee). */
export function paidOutOf(debitAmount: string, fee: string): string | null {
  const debit = parseAmount(canonicalLak(debitAmount) ?? "", "LAK");
  const charged = parseAmount(canonicalLak(fee) ?? "0", "LAK") ?? 0n;
  if (debit === null || debit <= charged) return null;
  return canonicalLak(formatAmount(debit - charged, "LAK"));
}

/** The digit runs of a text (spaces and dashes inside a number kept out), e.g. "0101-000 123" -> "0101000123". */
export function digitRuns(text: string | null): string[] {
  return (text?.match(/\d[\d -]*\d|\d/g) ?? []).map((run) => run.replace(/[ -]/g, ""));
}

/** Whether a raw bank text names an account number (its digits inside one number of the text; short numbers never count). */
export function namesAccount(raw: string | null, accountNumber: string | null): boolean {
  const digits = accountNumber?.replace(/\D/g, "") ?? "";
  if (digits.length < 6) return false;
  return digitRuns(raw).some((run) => run.includes(digits));
}

/** The masked account tails a text carries ("xxxx1234", "***-5678", "•••• 9012"): their digits. */
export function maskedTails(raw: string | null): string[] {
  const tails = [...(raw ?? "").matchAll(/[xX*•#]{2,}[ -]?(\d+)/g)].map((m) => m[1]!);
  return tails.filter((t) => t.length >= MIN_TAIL_DIGITS);
}

/** Letters and digits in upper case, words one space apart ("Somchai  phomma." -> "SOMCHAI PHOMMA"). */
const words = (text: string | null): string =>
  (text ?? "")
    .toUpperCase()
    .replace(/[^\p{L}\p{M}\p{N}]+/gu, " ")
    .trim();

/** Whether a text names the holder: the holder's whole name, as words of the text. */
export function namesHolder(raw: string | null, accountName: string | null): boolean {
  const name = words(accountName);
  if (name.replace(/\s/g, "").length < MIN_NAME_LETTERS) return false;
  return ` ${words(raw)} `.includes(` ${name} `);
}

function tailSays(tails: readonly string[], accountNumber: string | null): boolean {
  const digits = accountNumber?.replace(/\D/g, "") ?? "";
  return digits.length > 0 && tails.some((t) => digits.endsWith(t));
}

/** What a text says of one withdrawal's payee: its account, its holder's name, or nothing. */
function payeeSaid(raw: string | null, tails: readonly string[], w: OpenPayout): PayeeEvidence | null {
  if (tailSays(tails, w.accountNumber) || namesAccount(raw, w.accountNumber)) return "account";
  if (tails.length > 0) return null; // the text names an account: a name beside another's tail is not this payee
  return namesHolder(raw, w.accountName) ? "name" : null;
}

const inWindow = (bankTime: number, w: OpenPayout) => bankTime >= w.openedAt - BANK_CLOCK_GRACE_MS && bankTime <= w.openedAt + DEBIT_PAYOUT_WINDOW_MS;

/**
 * The withdrawal a debit pays (the rule in the header). `open`: every withdrawal of the agency
 * waiting for the cashier (all amounts: a text naming another amount's payee names a payee).
 */
export function matchDebitToPayout(debit: DebitFacts, open: readonly OpenPayout[], fee: string): DebitMatch {
  const paidOut = paidOutOf(debit.amount, fee);
  if (paidOut === null || debit.bankTime === null) return { kind: "none" };
  const bankTime = debit.bankTime;
  const tails = maskedTails(debit.raw);
  const said = new Map(open.map((w) => [w.code, payeeSaid(debit.raw, tails, w)]));
  const sameAmount = open.filter((w) => canonicalLak(w.amount) === paidOut).sort((a, b) => (a.code < b.code ? -1 : 1));
  const timely = sameAmount.filter((w) => inWindow(bankTime, w));
  const carriesPayee = tails.length > 0 || [...said.values()].some((s) => s !== null);
  if (carriesPayee) {
    const named = timely.filter((w) => said.get(w.code) !== null);
    const by = named.some((w) => said.get(w.code) === "account") ? "account" : "name";
    if (named.length === 1) return { kind: "pay", code: named[0]!.code, by: said.get(named[0]!.code)! };
    return named.length > 1 ? { kind: "ambiguous", candidates: named.map((w) => w.code), by } : { kind: "none" };
  }
  if (timely.length === 0) return { kind: "none" };
  if (timely.length === 1 && sameAmount.length === 1) return { kind: "pay", code: timely[0]!.code, by: "amount" };
  return { kind: "ambiguous", candidates: sameAmount.map((w) => w.code), by: "amount" };
}
