import { describe, expect, it } from "vitest";
import { windowMs } from "../../workers/core/bank-witness";
import { canonicalLak } from "../../workers/core/money";
import {
  LINES_PER_PAGE,
  matchDebits,
  namesAccount,
  pageOfLines,
  reconcileDay,
  type CreditRow,
  type DayInput,
  type DebitRow,
  type Line,
  type PayoutRow,
} from "../../workers/core/reconciliation";
import { seeded } from "../setup/random";

/**
 * A large bank day (decision 074): the rules stay linear in the day's rows (counted, never
 * timed), the debit pairing gives the pairs the rule of decision 047 gives, the lines come
 * differences first and page by cursor without a line lost or shown twice, and the counts by
 * kind agree with a count made from the generator's own list.
 */

const DAY = "2026-11-26";
const START = Date.parse("2026-11-25T17:00:00Z");
const HOUR = 3600_000;
const DAY_MS = 24 * HOUR;

type Fate = "matched" | "staffOnly" | "noCredit" | "refunded" | "twice";
type Generated = { input: DayInput; fates: Map<string, Fate> };

/**
 * A day and the two around it each side: `n` credits spread over 2,000 pay amounts and three
 * channels, and n / 2 withdrawals marked paid over n / 400 amounts (as many of one amount in an
 * hour whatever the day's size: the pairs that can pair grow with the rows, not faster) with the
 * debit of most of them (most naming the account paid to). `fates` is what the generator made
 * of each credit of the day.
 */
function day(n: number, seed = 47): Generated {
  const r = seeded(seed);
  const credits: CreditRow[] = [];
  const fates = new Map<string, Fate>();
  for (let i = 0; i < n; i++) {
    const bankTime = START - 2 * DAY_MS + r.int(5 * DAY_MS);
    const fate = r.pick<Fate>(["matched", "matched", "matched", "matched", "matched", "matched", "staffOnly", "noCredit", "refunded", "twice"]);
    const amount = `${100_000 + r.int(2000)}.00`;
    const code = `D${i}`;
    const credited = fate === "matched" || fate === "staffOnly" || fate === "twice";
    const row: CreditRow = {
      channelCode: r.pick(["OWN1", "OWN2", "OWN3"]),
      transferId: `T${i}`,
      amount,
      bankTime,
      outcome: credited ? "APPLIED" : "NO_ORDER",
      orderCode: credited ? code : null,
      sources: fate === "staffOnly" ? ["staff"] : ["statement", "forwarder"],
      raw: null,
      unsettled: { n: !credited ? 0 : fate === "twice" ? 2 : 1, codes: fate === "twice" ? [code, `${code}M`] : [] },
      queue: credited ? null : { id: `Q${i}`, status: fate === "refunded" ? "REFUNDED" : "OPEN", manualCode: null, note: null },
      deposit: credited ? { code, provider: "betflix", paidAt: bankTime + 60_000, kipMinor: 10_000_000, creditMinor: 16_000 } : null,
    };
    credits.push(row);
    if (bankTime >= START && bankTime < START + DAY_MS) fates.set(`${row.channelCode}:${row.transferId}`, fate);
  }
  const payouts: PayoutRow[] = [];
  const debits: DebitRow[] = [];
  for (let i = 0; i < n / 2; i++) {
    const marked = START - 2 * DAY_MS + r.int(5 * DAY_MS);
    const amount = `${(1 + r.int(n / 400)) * 50_000}`;
    const account = `0101000${String(100_000 + i)}`;
    payouts.push({
      code: `W${i}`,
      provider: "betflix",
      amount,
      creditMinor: 100,
      accountNumber: account,
      requestedAt: marked - r.int(HOUR),
      markedPaidAt: marked,
      reportsAt: marked,
    });
    if (r.next() < 0.9)
      debits.push({
        channelCode: r.pick(["OWN1", "OWN2", "OWN3"]),
        transferId: `X${i}`,
        amount: `${amount}.00`,
        bankTime: marked + r.int(5 * 60_000),
        sources: ["statement"],
        raw: r.next() < 0.7 ? `To: ${account} | LAK ${amount}` : "BCEL transfer out",
      });
  }
  const input: DayInput = {
    day: DAY,
    credits,
    debits,
    payouts,
    future: [],
    reportedDeposits: [],
    imports: [{ channelCode: "OWN1", from: START - DAY_MS, to: START + 2 * DAY_MS }],
    windows: { OWN1: 10, OWN2: 10, OWN3: 30 },
    notes: {},
  };
  return { input, fates };
}

/** Wraps every row in a proxy that counts each read of its fields: what the rules do per row, whatever algorithm they use. */
function counted(input: DayInput): { input: DayInput; reads: () => number } {
  let reads = 0;
  const watch = <T extends object>(row: T): T =>
    new Proxy(row, {
      get(target, property, receiver) {
        reads++;
        return Reflect.get(target, property, receiver);
      },
    });
  return {
    input: { ...input, credits: input.credits.map(watch), debits: input.debits.map(watch), payouts: input.payouts.map(watch) },
    reads: () => reads,
  };
}

describe("a large day costs about its rows", () => {
  it("reads each row a bounded number of times: 20,000 credits and 10,000 withdrawals, and twice as many", () => {
    const rows = (g: Generated) => g.input.credits.length + g.input.debits.length + g.input.payouts.length;
    const small = day(20_000);
    const large = day(40_000);
    const [a, b] = [counted(small.input), counted(large.input)];
    reconcileDay(a.input);
    reconcileDay(b.input);
    const [perRow, perRowLarge] = [a.reads() / rows(small), b.reads() / rows(large)];
    // about 24 reads a row at either size (sorting a group costs a logarithm of the group); comparing every row with every
    // other grows with the day, and pairing every debit with every withdrawal of its amount (200 of an amount here) read
    // about 70 a row
    expect(perRow).toBeLessThan(40);
    expect(perRowLarge / perRow).toBeLessThan(1.15);
  });

  it("pairs debits with withdrawals visiting only the pairs that can pair (one amount, times in reach)", () => {
    const { input } = day(40_000);
    const { input: watched, reads } = counted({ ...input, credits: [] });
    matchDebits(watched.debits, watched.payouts, watched.windows);
    // a debit has a few withdrawals of its amount within its reach: about 28 reads a row; trying every withdrawal of its
    // amount read about 120
    expect(reads() / (input.debits.length + input.payouts.length)).toBeLessThan(40);
  });
});

/** The pairing rule of decision 047 as first written: every debit against every withdrawal. The oracle of the pairs. */
function everyPair(debits: readonly DebitRow[], payouts: readonly PayoutRow[], windows: Record<string, number>): Map<string, string> {
  const pairs: { debit: string; payout: string; named: boolean; distance: number }[] = [];
  for (const debit of debits) {
    const amount = canonicalLak(debit.amount);
    const window = windowMs(windows[debit.channelCode] ?? 0);
    const naming = payouts.filter((p) => namesAccount(debit.raw, p.accountNumber));
    for (const payout of naming.length > 0 ? naming : payouts) {
      if (canonicalLak(payout.amount) !== amount) continue;
      if (debit.bankTime < payout.requestedAt - window || debit.bankTime > payout.markedPaidAt + window) continue;
      const key = `${debit.channelCode}:${debit.transferId}`;
      pairs.push({ debit: key, payout: payout.code, named: naming.length > 0, distance: Math.abs(debit.bankTime - payout.markedPaidAt) });
    }
  }
  pairs.sort((a, b) => Number(b.named) - Number(a.named) || a.distance - b.distance || a.payout.localeCompare(b.payout) || a.debit.localeCompare(b.debit));
  const byDebit = new Map<string, string>();
  const taken = new Set<string>();
  for (const p of pairs) {
    if (byDebit.has(p.debit) || taken.has(p.payout)) continue;
    byDebit.set(p.debit, p.payout);
    taken.add(p.payout);
  }
  return byDebit;
}

describe("the pairs are the rule's", () => {
  it("on 200 crowded random days (few amounts, near times, shared and masked accounts, names of another amount), as every pair tried", () => {
    for (let seed = 1; seed <= 200; seed++) {
      const r = seeded(seed);
      const accounts = ["0101000111111", "0202000222222", "0303-000-333333", "12345", null, "0101000111111"];
      const payouts: PayoutRow[] = Array.from({ length: 5 + r.int(25) }, (_, i) => {
        const marked = START + r.int(6 * HOUR);
        return {
          code: `W${i}`,
          provider: "betflix",
          amount: r.pick(["100000", "100000.00", "200000", "300000"]),
          creditMinor: 1,
          accountNumber: r.pick(accounts),
          requestedAt: marked - r.int(3 * HOUR),
          markedPaidAt: marked,
          reportsAt: null,
        };
      });
      const debits: DebitRow[] = Array.from({ length: 5 + r.int(25) }, (_, i) => ({
        channelCode: r.pick(["A", "B"]),
        transferId: `X${i}`,
        amount: r.pick(["100000.00", "200000.00", "300000.00", "100000"]),
        bankTime: START + r.int(7 * HOUR) - HOUR,
        sources: ["statement"],
        raw: r.pick([null, "ATM", "To: 0101000111111", "To 0303 000 333333 ref 77", "acc 99990202000222222", "0101000111111 and 0202000222222", "12345"]),
      }));
      const windows = { A: 10, B: 1 + r.int(120) };
      expect(Object.fromEntries(matchDebits(debits, payouts, windows)), `seed ${seed}`).toEqual(Object.fromEntries(everyPair(debits, payouts, windows)));
    }
  });
});

describe("the lines of a large day", () => {
  const { input, fates } = day(4000, 7);
  const reconciled = reconcileDay(input);

  it("come differences first, then waiting, timing and matched lines", () => {
    const order = { difference: 0, waiting: 1, timing: 2, matched: 3 };
    const ranks = reconciled.lines.map((l) => order[l.kind]);
    expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
    expect(new Set(reconciled.lines.map((l) => l.kind))).toEqual(new Set(["difference", "timing", "matched"]));
  });

  it("are counted by kind and reason as the generator made them", () => {
    const made = (fate: Fate) => [...fates.values()].filter((f) => f === fate).length;
    const group = (kind: string, reason: string | null, direction: string) =>
      reconciled.groups.find((g) => g.kind === kind && g.reason === reason && g.direction === direction)?.n ?? 0;
    expect(group("difference", "STAFF_ONLY", "credit")).toBe(made("staffOnly"));
    expect(group("difference", "NO_CREDIT", "credit")).toBe(made("noCredit"));
    expect(group("difference", "CREDITED_TWICE", "credit")).toBe(made("twice"));
    // every credit of the day on one credit line: matched (applied, refunded, or the twice transfer's own line) or a difference
    expect(group("matched", null, "credit")).toBe(made("matched") + made("refunded") + made("twice"));
    expect(reconciled.summary.bankCredits.n).toBe(fates.size);
    // the debits of the day: each matched or a difference, as many as the generator put on the day
    const debitsOfDay = input.debits.filter((d) => d.bankTime >= START && d.bankTime < START + DAY_MS).length;
    expect(group("matched", null, "debit") + group("difference", "DEBIT_NO_WITHDRAWAL", "debit")).toBe(debitsOfDay);
    // each group's kip is its lines' sum, and the groups hold every line once
    for (const g of reconciled.groups) {
      const of = reconciled.lines.filter((l) => l.kind === g.kind && l.reason === g.reason && l.direction === g.direction);
      const kip = of.reduce((sum, l) => sum + BigInt(l.amount.replace(".", "")), 0n);
      expect([g.n, g.kip.replace(".", "")], `${g.kind} ${g.reason} ${g.direction}`).toEqual([of.length, String(kip)]);
    }
    expect(reconciled.groups.reduce((n, g) => n + g.n, 0)).toBe(reconciled.lines.length);
    expect(reconciled.summary.differences).toBe(reconciled.groups.filter((g) => g.kind === "difference").reduce((n, g) => n + g.n, 0));
  });

  it("page by cursor: forward and back, every line once and in order, with or without a filter", () => {
    const walk = (show: Parameters<typeof pageOfLines>[1]["show"]) => {
      const seen: Line[] = [];
      let page = pageOfLines(reconciled.lines, { show });
      const firsts: number[] = [];
      for (;;) {
        expect(page.lines.length).toBeLessThanOrEqual(LINES_PER_PAGE);
        expect(page.first).toBe(seen.length + 1);
        firsts.push(page.first);
        seen.push(...page.lines);
        if (!page.next) break;
        page = pageOfLines(reconciled.lines, { show, after: page.next });
      }
      // and back from the last page to the first
      const back: Line[] = [...page.lines];
      while (page.previous) {
        page = pageOfLines(reconciled.lines, { show, before: page.previous });
        back.unshift(...page.lines);
        expect(firsts).toContain(page.first);
      }
      return { seen, back };
    };
    const every = walk(null);
    expect(every.seen.map((l) => l.key)).toEqual(reconciled.lines.map((l) => l.key));
    expect(every.back.map((l) => l.key)).toEqual(reconciled.lines.map((l) => l.key));
    const noCredit = walk("NO_CREDIT");
    expect(noCredit.seen.map((l) => l.key)).toEqual(reconciled.lines.filter((l) => l.reason === "NO_CREDIT").map((l) => l.key));
    expect(walk("matched").seen.length).toBe(reconciled.lines.filter((l) => l.kind === "matched").length);
  });

  it("a line gone between two pages moves no other line: the next page starts after the cursor's place", () => {
    const first = pageOfLines(reconciled.lines, {});
    const second = pageOfLines(reconciled.lines, { after: first.next });
    // the first page's first difference is noted and settled meanwhile: gone from the day
    const fewer = reconciled.lines.filter((l) => l.key !== first.lines[0]!.key);
    expect(pageOfLines(fewer, { after: first.next }).lines.map((l) => l.key)).toEqual(second.lines.map((l) => l.key));
    // a cursor that is no line's place still finds its place; one past the end is the last page; a broken one the first
    const place = first.next!.replace(/\.([^.]*)$/, ".$1~");
    expect(pageOfLines(reconciled.lines, { after: place }).lines[0]).toEqual(second.lines[0]);
    const last = pageOfLines(reconciled.lines, { after: "3.99999999999999.~" });
    expect([last.first + last.lines.length - 1, last.next]).toEqual([reconciled.lines.length, null]);
    expect(pageOfLines(reconciled.lines, { after: "not a cursor" }).first).toBe(1);
  });
});
