import { vientianeInstant } from "./vientiane";

/**
 * Reading a bank's forwarded SMS / app notification (decision 016): the amount, the
 * bank's time and, when present, our order code and the bank's transaction id, by patterns
 * kept as data per bank (the owner edits them in the back office and tries them on a pasted
 * sample before saving). Pure: no I/O.
 *
 * The defaults below are EXAMPLES written from the general shape of bank notifications
 * (no Lao bank publishes its texts): the owner adjusts them to what the agency's phone
 * really receives.
 *
 * Regular expressions from an owner run on text from outside, so both are bounded
 * (`checkPatterns`): the text is cut to MAX_TEXT characters; a pattern is short, has no
 * back-reference, no repeated group that itself repeats or alternates (`(a+)+`, `(a|b)*`),
 * at most one unbounded repeat (`*`, `+`, `{n,}`) and a small product of repeat bounds, so
 * the work per character stays small whatever the text.
 */

export type BankPatterns = {
  /** `from` (the SMS sender or the app's package name) contains one of these, case-insensitively; empty: any sender. */
  senders: string[];
  /** A match of one of these says money came in. */
  credit: string[];
  /** A match of one of these (and of no credit pattern) says money went out: not a deposit. */
  debit: string[];
  /** The first capture group is the amount ("100,037.00", "100.037"). */
  amount: string[];
  /** Named groups day, month, year, hour, minute (second optional): the bank's time, Vientiane time. */
  time: string[];
  /** The first capture group is our order code, when the payer wrote it. */
  reference: string[];
  /** The first capture group is the bank's own transaction id. */
  transactionId: string[];
};

export const PATTERN_FIELDS = ["senders", "credit", "debit", "amount", "time", "reference", "transactionId"] as const satisfies readonly (keyof BankPatterns)[];
type PatternField = (typeof PATTERN_FIELDS)[number];

export const MAX_TEXT = 2000;
const MAX_PATTERN = 200;
const MAX_PATTERNS_PER_FIELD = 10;
const MAX_SENDER = 60;
/** An unbounded repeat counts as this many steps in the repeat budget. */
const UNBOUNDED_COST = 1000;
const REPEAT_BUDGET = 100_000;

const GENERIC: Omit<BankPatterns, "senders"> = {
  credit: ["\\b(?:received|credited|credit|deposit|incoming|transfer in|money in|CR)\\b", "ໄດ້ຮັບ", "ເງິນເຂົ້າ", "ໂອນເຂົ້າ", "(?:^|\\s)\\+\\s?\\d"],
  debit: ["\\b(?:debited|debit|withdrawal|withdraw|paid to|transfer out|sent|DR)\\b", "ໂອນອອກ", "ຖອນ", "ຫັກ", "(?:^|\\s)-\\s?\\d"],
  amount: ["(?:LAK|KIP|₭)\\s?[+]?\\s?([0-9][0-9.,]{0,20})", "[+]?([0-9][0-9.,]{0,20})\\s?(?:LAK|KIP|ກີບ|₭)"],
  time: [
    "(?<!\\d)(?<day>\\d{1,2})[/.-](?<month>\\d{1,2})[/.-](?<year>\\d{4}|\\d{2})[ ,T]{1,3}(?<hour>\\d{1,2}):(?<minute>\\d{2})(?::(?<second>\\d{2}))?",
    // SmsForwarder's default template adds the phone's receive time as "yyyy-MM-dd HH:mm:ss"
    "(?<year>\\d{4})-(?<month>\\d{2})-(?<day>\\d{2})[ T](?<hour>\\d{2}):(?<minute>\\d{2})(?::(?<second>\\d{2}))?",
  ],
  reference: ["\\b(D\\d{6}[0-9A-HJKMNP-TV-Z]{5})\\b"],
  transactionId: ["(?:Ref(?:erence)?|Txn ?ID|Trans(?:action)? ?ID|FT|ເລກອ້າງອີງ|ເລກທີ|ລະຫັດທຸລະກຳ)\\s?(?:No\\.?|#)?\\s?[:：]?\\s?([A-Z0-9]{6,32})"],
};

/** Example patterns per bank (adjust to the real texts): the same generic reading, each bank's usual senders. */
const DEFAULT_BANK_PATTERNS: Readonly<Record<string, BankPatterns>> = {
  BCEL: { senders: ["BCEL", "com.bcel.bcelone"], ...GENERIC },
  LDB: { senders: ["LDB", "com.ldb"], ...GENERIC },
  JDB: { senders: ["JDB", "com.jdb"], ...GENERIC },
  APB: { senders: ["APB", "com.apb"], ...GENERIC },
  LVB: { senders: ["LVB", "LaoVietBank", "com.laovietbank"], ...GENERIC },
  IB: { senders: ["IB", "Indochina", "com.ib"], ...GENERIC },
  STB: { senders: ["STB", "com.stbank"], ...GENERIC },
};

/** The stored patterns of a bank, else its example defaults, else the generic reading for any sender. */
export function defaultPatterns(bankCode: string): BankPatterns {
  return DEFAULT_BANK_PATTERNS[bankCode] ?? { senders: [], ...GENERIC };
}

type PatternProblem = "TOO_MANY" | "TOO_LONG" | "INVALID" | "UNSAFE" | "NO_GROUP" | "TIME_GROUPS";
export type PatternCheck = { ok: true } | { ok: false; field: PatternField; index: number; problem: PatternProblem };

/**
 * Why a regular expression source is unsafe to run on outside text, or null. A small scanner
 * (escapes, character classes, groups and their repeats); conservative on purpose: a pattern
 * it refuses can always be written more simply.
 */
export function unsafeRegex(source: string): "UNSAFE" | null {
  type Frame = { repeats: boolean; alternates: boolean };
  const stack: Frame[] = [{ repeats: false, alternates: false }];
  let unbounded = 0;
  let total = 1;
  let i = 0;
  // A repeat right after position `at` (the atom just ended): its upper bound (exact {n}: n, fixed) and length.
  const repeatAt = (at: number): { bound: number; fixed: boolean; length: number } | null => {
    const c = source[at];
    const lazy = (end: number) => (source[end] === "?" ? 1 : 0);
    if (c === "*" || c === "+") return { bound: Infinity, fixed: false, length: 1 + lazy(at + 1) };
    if (c === "?") return { bound: 1, fixed: false, length: 1 + lazy(at + 1) };
    if (c === "{") {
      const m = /^\{(\d{1,4})(,(\d{0,4}))?\}/.exec(source.slice(at));
      if (!m) return null;
      const fixed = m[2] === undefined;
      const bound = fixed ? Number(m[1]) : m[3] === "" ? Infinity : Number(m[3]);
      return { bound, fixed, length: m[0].length + lazy(at + m[0].length) };
    }
    return null;
  };
  const applyRepeat = (rep: { bound: number; fixed: boolean }, frame: Frame | null): boolean => {
    if (frame && rep.bound > 1 && (frame.repeats || frame.alternates)) return false;
    if (rep.fixed) return true; // {n}: exactly n, no choice to backtrack over
    stack[stack.length - 1]!.repeats = true;
    if (rep.bound === Infinity) unbounded += 1;
    total *= rep.bound === Infinity ? UNBOUNDED_COST : rep.bound + 1;
    return unbounded <= 1 && total <= REPEAT_BUDGET;
  };
  while (i < source.length) {
    const c = source[i]!;
    if (c === "\\") {
      const next = source[i + 1] ?? "";
      if (/[1-9]/.test(next) || next === "k") return "UNSAFE";
      i += 2;
    } else if (c === "[") {
      i += 1;
      if (source[i] === "^") i += 1;
      if (source[i] === "]") i += 1;
      while (i < source.length && source[i] !== "]") i += source[i] === "\\" ? 2 : 1;
      i += 1;
    } else if (c === "(") {
      stack.push({ repeats: false, alternates: false });
      i += 1;
      if (source[i] === "?") {
        // (?: (?= (?! (?<= (?<! (?<name>
        i += 1;
        if (source[i] === "<" && source[i + 1] !== "=" && source[i + 1] !== "!") {
          while (i < source.length && source[i] !== ">") i += 1;
        }
        i += 1;
      }
      continue;
    } else if (c === ")") {
      const frame = stack.pop();
      if (!frame || stack.length === 0) return "UNSAFE";
      const parent = stack[stack.length - 1]!;
      parent.repeats ||= frame.repeats;
      const rep = repeatAt(i + 1);
      i += 1;
      if (rep) {
        if (!applyRepeat(rep, frame)) return "UNSAFE";
        i += rep.length;
      }
      continue;
    } else if (c === "|") {
      stack[stack.length - 1]!.alternates = true;
      i += 1;
      continue;
    } else {
      i += 1;
    }
    const rep = repeatAt(i);
    if (rep) {
      if (!applyRepeat(rep, null)) return "UNSAFE";
      i += rep.length;
    }
  }
  return stack.length === 1 ? null : "UNSAFE";
}

function compile(source: string): RegExp | null {
  try {
    return new RegExp(source, "i");
  } catch {
    return null;
  }
}

const groupCount = (re: RegExp) => (new RegExp(`(?:${re.source})|`, "i").exec("")?.length ?? 1) - 1;

/** Every pattern of a set checked (count, length, syntax, safety, groups): the first problem, or ok. */
export function checkPatterns(patterns: BankPatterns): PatternCheck {
  for (const field of PATTERN_FIELDS) {
    const list = patterns[field];
    if (list.length > MAX_PATTERNS_PER_FIELD) return { ok: false, field, index: MAX_PATTERNS_PER_FIELD, problem: "TOO_MANY" };
    for (const [index, source] of list.entries()) {
      if (field === "senders") {
        if (source.length > MAX_SENDER) return { ok: false, field, index, problem: "TOO_LONG" };
        continue;
      }
      if (source.length > MAX_PATTERN) return { ok: false, field, index, problem: "TOO_LONG" };
      const re = compile(source);
      if (!re) return { ok: false, field, index, problem: "INVALID" };
      if (unsafeRegex(source)) return { ok: false, field, index, problem: "UNSAFE" };
      if ((field === "amount" || field === "reference" || field === "transactionId") && groupCount(re) < 1)
        return { ok: false, field, index, problem: "NO_GROUP" };
      if (field === "time" && !["day", "month", "year", "hour", "minute"].every((g) => source.includes(`(?<${g}>`)))
        return { ok: false, field, index, problem: "TIME_GROUPS" };
    }
  }
  return { ok: true };
}

/**
 * A written amount as a canonical decimal string, or null. Grouping and decimal marks both
 * occur ("100,037.00", "100.037", "1.234.567,50"): with both marks, the last one is the
 * decimal mark; with one mark used once and followed by one or two digits, it is the decimal
 * mark; otherwise marks group thousands.
 */
export function parseAmountText(written: string): string | null {
  const text = written.replace(/[\s\u00a0]/g, "").replace(/[.,]+$/, "");
  if (!/^\d[\d.,]*$/.test(text)) return null;
  const lastDot = text.lastIndexOf(".");
  const lastComma = text.lastIndexOf(",");
  let whole = text;
  let fraction = "";
  if (lastDot >= 0 && lastComma >= 0) {
    const at = Math.max(lastDot, lastComma);
    whole = text.slice(0, at);
    fraction = text.slice(at + 1);
  } else if (lastDot >= 0 || lastComma >= 0) {
    const mark = lastDot >= 0 ? "." : ",";
    const at = text.lastIndexOf(mark);
    const after = text.slice(at + 1);
    if (text.indexOf(mark) === at && after.length >= 1 && after.length <= 2) {
      whole = text.slice(0, at);
      fraction = after;
    }
  }
  if (/[.,]/.test(whole) && !/^\d{1,3}(?:([.,])\d{3})(?:\1\d{3})*$/.test(whole)) return null;
  const digits = whole.replace(/[.,]/g, "");
  if (!/^\d{1,15}$/.test(digits) || !/^\d{0,2}$/.test(fraction)) return null;
  const trimmedWhole = digits.replace(/^0+(?=\d)/, "");
  const trimmedFraction = fraction.replace(/0+$/, "");
  if (/^0+$/.test(trimmedWhole) && trimmedFraction === "") return null;
  return trimmedFraction ? `${trimmedWhole}.${trimmedFraction}` : trimmedWhole;
}

/** Vientiane wall-clock fields as ms since the epoch, or null when they are no real time. */
function vientianeTime(groups: Record<string, string | undefined>): number | null {
  const n = (name: string) => (groups[name] === undefined ? NaN : Number(groups[name]));
  let year = n("year");
  if (year < 100) year += 2000;
  const [month, day, hour, minute] = [n("month"), n("day"), n("hour"), n("minute")];
  const second = groups.second === undefined ? 0 : n("second");
  return vientianeInstant(year, month, day, hour, minute, second);
}

export type NotificationReading =
  | { kind: "credit"; amount: string; bankTime: number | null; reference: string | null; transactionId: string | null }
  /** A debit the bank reports (money out): kept for reconciliation against withdrawals paid. */
  | { kind: "debit"; amount: string | null; bankTime: number | null; transactionId: string | null }
  | { kind: "unreadable"; problem: "SENDER" | "NO_CREDIT" | "NO_AMOUNT" };

function firstGroup(patterns: string[], text: string): string | null {
  for (const source of patterns) {
    const m = compile(source)?.exec(text);
    const value = m?.slice(1).find((g) => g !== undefined);
    if (value) return value;
  }
  return null;
}

/**
 * One notification read with one bank's patterns (checked beforehand with checkPatterns;
 * a pattern that does not compile is skipped). The text is cut to MAX_TEXT characters.
 */
export function readNotification(patterns: BankPatterns, from: string, fullText: string): NotificationReading {
  const text = fullText.slice(0, MAX_TEXT);
  const sender = from.toLowerCase();
  if (patterns.senders.length > 0 && !patterns.senders.some((s) => s.trim() !== "" && sender.includes(s.trim().toLowerCase()))) {
    return { kind: "unreadable", problem: "SENDER" };
  }
  const matches = (list: string[]) => list.some((source) => compile(source)?.test(text) ?? false);
  const credit = matches(patterns.credit);
  if (!credit && !matches(patterns.debit)) return { kind: "unreadable", problem: "NO_CREDIT" };
  let amount: string | null = null;
  for (const source of patterns.amount) {
    const written = firstGroup([source], text);
    amount = written ? parseAmountText(written) : null;
    if (amount) break;
  }
  let bankTime: number | null = null;
  for (const source of patterns.time) {
    const groups = compile(source)?.exec(text)?.groups;
    bankTime = groups ? vientianeTime(groups) : null;
    if (bankTime !== null) break;
  }
  const reference = firstGroup(patterns.reference, text)?.toUpperCase() ?? null;
  const transactionId = firstGroup(patterns.transactionId, text)?.toUpperCase() ?? null;
  if (!credit) return { kind: "debit", amount, bankTime, transactionId };
  if (!amount) return { kind: "unreadable", problem: "NO_AMOUNT" };
  // "Ref: <our order code>" is the payer's note, not the bank's id.
  return { kind: "credit", amount, bankTime, reference, transactionId: transactionId === reference ? null : transactionId };
}
