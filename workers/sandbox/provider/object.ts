import { DurableObject } from "cloudflare:workers";
import { PROVIDERS, type Provider } from "../../core/providers";
import { roundMultiplier } from "./game";

/** The sandbox's own bindings (see wrangler.toml); not part of the portal's Env. */
export type ProviderEnv = {
  PROVIDER: DurableObjectNamespace<SandboxProvider>;
  AGENT_USERNAME: string;
  AGENT_SECRET: string;
};

/**
 * The provider's state is sharded like a real provider's backend is (decision 024): one
 * instance per member (`<provider>:member:<username>`: the wallet and every transaction of
 * that member), REF_SHARDS instances per provider keeping which member each transaction ref
 * belongs to (`<provider>:ref:<n>`, so the status query by ref alone still works and a ref is
 * used once across the whole provider), and one more instance (CONTROL_NAME) holding the
 * faults, so a fault with provider "*" and a count is counted once across all providers.
 * One instance per provider used to hold everything: every player's transfer of that
 * provider queued behind every other's, a bottleneck no real provider has.
 *
 * Nothing global is on a transfer's path while no fault is set: each ref shard keeps the
 * members who claimed a ref there (the sandbox's wallet list and reset read them across the
 * shards; a provider-wide directory written by every member's first deposit was one more
 * queue), and a copy of "a fault is set for this provider", which the control instance
 * pushes to every shard when its faults change; only then does a call ask the control
 * instance which fault fires.
 *
 * Every command is a single synchronous transactionSync (no await between its read and
 * its write), so a Durable Object runs it atomically: 50 concurrent deposits with one ref
 * credit once. Money is kept as integer minor units in TEXT columns and computed with
 * BigInt; nothing on the money path is a floating point number.
 */
export const CONTROL_NAME = "__control__";
/** Ref index shards per provider: enough that no one of them is a queue. */
export const REF_SHARDS = 16;

export function refShardName(provider: Provider, shard: number): string {
  return `${provider}:ref:${shard}`;
}

export type Direction = "DEPOSIT" | "WITHDRAW" | "BET";
type TxStatus = "SUCCESS" | "FAILED";

/** A recorded transaction; amounts are integer minor units as decimal strings. */
export type TxRecord = {
  transactionRef: string;
  username: string;
  direction: Direction;
  amount: string;
  status: TxStatus;
  /** Why a FAILED transaction failed: INSUFFICIENT_BALANCE or REFUSED. */
  code: string | null;
  txId: string | null;
  beforeBalance: string | null;
  balance: string | null;
  /** BET only: what the round paid back. */
  win: string | null;
  createdAt: number;
};

export type CommandResult = { outcome: "recorded"; tx: TxRecord; repeated: boolean } | { outcome: "conflict"; tx: Pick<TxRecord, "transactionRef"> };

type Wallet = { username: string; balance: string; turnover: string; createdAt: number };

export const FAULT_OPS = ["deposit", "withdraw", "balance", "status", "bet", "games", "report", "*"] as const;
export type FaultOp = (typeof FAULT_OPS)[number];
export const FAULT_MODES = ["slow", "error-before", "error-after", "refuse"] as const;
export type FaultMode = (typeof FAULT_MODES)[number];

type FaultInput = {
  provider: Provider | "*";
  op: FaultOp;
  mode: FaultMode;
  username: string | null;
  count: number | null;
  /** Probability in parts per million (integer), or null for "every matching call". */
  ratePpm: number | null;
  delayMs: number;
};

export type Fault = FaultInput & { id: number; seen: number; fired: number; createdAt: number };

type TxRow = {
  ref: string;
  username: string;
  direction: string;
  amount: string;
  status: string;
  code: string | null;
  tx_id: string | null;
  before_balance: string | null;
  balance: string | null;
  win: string | null;
  created_at: number;
};

type FaultRow = {
  id: number;
  provider: string;
  op: string;
  mode: string;
  username: string | null;
  remaining: number | null;
  rate_ppm: number | null;
  delay_ms: number;
  seen: number;
  fired: number;
  created_at: number;
};

const TX_PREFIX: Record<Provider, string> = { askmebet: "AMB", betflix: "BFX", gclub: "GCB", gclub_live: "GCL", alphabet: "ALP" };

export class SandboxProvider extends DurableObject<ProviderEnv> {
  private readonly sql: SqlStorage;

  constructor(ctx: DurableObjectState, env: ProviderEnv) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
    this.sql.exec(`
      CREATE TABLE IF NOT EXISTS wallets (
        username TEXT PRIMARY KEY,
        balance TEXT NOT NULL,
        turnover TEXT NOT NULL,
        created_at INTEGER NOT NULL
      );
      CREATE TABLE IF NOT EXISTS transactions (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        ref TEXT NOT NULL UNIQUE,
        username TEXT NOT NULL,
        direction TEXT NOT NULL CHECK (direction IN ('DEPOSIT', 'WITHDRAW', 'BET')),
        amount TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('SUCCESS', 'FAILED')),
        code TEXT,
        tx_id TEXT,
        before_balance TEXT,
        balance TEXT,
        win TEXT,
        created_at INTEGER NOT NULL
      );
      CREATE INDEX IF NOT EXISTS transactions_bets ON transactions (direction, created_at);
      CREATE TABLE IF NOT EXISTS refs (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        ref TEXT NOT NULL UNIQUE,
        username TEXT NOT NULL
      );
      CREATE TABLE IF NOT EXISTS members (
        username TEXT PRIMARY KEY
      );
      CREATE TABLE IF NOT EXISTS fault_mirror (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        generation INTEGER NOT NULL,
        armed INTEGER NOT NULL
      );
      CREATE TABLE IF NOT EXISTS counters (
        name TEXT PRIMARY KEY,
        value INTEGER NOT NULL
      );
      CREATE TABLE IF NOT EXISTS faults (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        provider TEXT NOT NULL,
        op TEXT NOT NULL,
        mode TEXT NOT NULL,
        username TEXT,
        remaining INTEGER,
        rate_ppm INTEGER,
        delay_ms INTEGER NOT NULL,
        seen INTEGER NOT NULL DEFAULT 0,
        fired INTEGER NOT NULL DEFAULT 0,
        created_at INTEGER NOT NULL
      );
    `);
  }

  async health(): Promise<string> {
    return "ok";
  }

  // ---- wallets -------------------------------------------------------------------------

  /** Creates the wallet if missing (idempotent); `created` tells the caller to list it in the directory. */
  member(username: string): Wallet & { created: boolean } {
    return this.ctx.storage.transactionSync(() => {
      const found = this.findWallet(username);
      return found ? { ...found, created: false } : { ...this.walletOrCreate(username), created: true };
    });
  }

  // ---- ref index shard and directory ---------------------------------------------------

  /**
   * A ref shard: the member this ref belongs to, claimed for `username` when new. A ref
   * claimed by another member is that member's (the command answers REF_CONFLICT); a claim
   * whose command never ran (crash in between) reads NOT_FOUND at that member, like a
   * transfer the provider never received.
   */
  claimRef(ref: string, username: string): { owner: string; seq: number } {
    return this.ctx.storage.transactionSync(() => {
      const found = this.sql.exec<{ username: string; seq: number }>("SELECT username, seq FROM refs WHERE ref = ?", ref).toArray()[0];
      if (found) return { owner: found.username, seq: found.seq };
      const { seq } = this.sql.exec<{ seq: number }>("INSERT INTO refs (ref, username) VALUES (?, ?) RETURNING seq", ref, username).one();
      this.addMember(username);
      return { owner: username, seq };
    });
  }

  /**
   * A transfer's first call: `armed` = a fault is set for this provider (the caller then asks
   * the control instance, before anything is claimed); otherwise the ref is claimed at once.
   */
  claimUnlessArmed(ref: string, username: string): { armed: true } | { armed: false; owner: string; seq: number } {
    if (this.faultsArmed()) return { armed: true };
    return { armed: false, ...this.claimRef(ref, username) };
  }

  refOwner(ref: string): { owner: string | null; armed: boolean } {
    const owner = this.sql.exec<{ username: string }>("SELECT username FROM refs WHERE ref = ?", ref).toArray()[0]?.username ?? null;
    return { owner, armed: this.faultsArmed() };
  }

  /** This shard's part of the provider's members (those who claimed a ref here, or were created here), for the wallet list and reset. */
  addMember(username: string): void {
    this.sql.exec("INSERT OR IGNORE INTO members (username) VALUES (?)", username);
  }

  /** Ref shard: the control instance's last word on whether a fault is set for this provider. */
  faultsArmed(): boolean {
    return this.sql.exec<{ armed: number }>("SELECT armed FROM fault_mirror WHERE id = 1").toArray()[0]?.armed === 1;
  }

  /** Ref shard: pushed by the control instance; `generation` grows with every change, so a late push never undoes a newer one. */
  setFaultsArmed(generation: number, armed: boolean): void {
    this.sql.exec(
      `INSERT INTO fault_mirror (id, generation, armed) VALUES (1, ?, ?)
       ON CONFLICT (id) DO UPDATE SET generation = excluded.generation, armed = excluded.armed WHERE excluded.generation > fault_mirror.generation`,
      generation,
      armed ? 1 : 0,
    );
  }

  members(): string[] {
    return this.sql
      .exec<{ username: string }>("SELECT username FROM members ORDER BY username")
      .toArray()
      .map((row) => row.username);
  }

  /** The wallet, or a zero wallet (not stored) for an unknown member. */
  wallet(username: string): Wallet {
    return this.findWallet(username) ?? { username, balance: "0", turnover: "0", createdAt: 0 };
  }

  // ---- transfers and bets --------------------------------------------------------------

  /**
   * Deposit, withdraw or bet, at most once per ref. `refuse` records the ref as FAILED
   * (code REFUSED) without touching the wallet, unless the ref is already recorded.
   */
  command(
    provider: Provider,
    direction: Direction,
    username: string,
    amount: string,
    ref: string,
    refuse: boolean,
    at: number = Date.now(),
    txNumber?: string,
  ): CommandResult {
    return this.ctx.storage.transactionSync((): CommandResult => {
      const existing = this.findTx(ref);
      if (existing) {
        const same = existing.username === username && existing.direction === direction && existing.amount === amount;
        return same ? { outcome: "recorded", tx: existing, repeated: true } : { outcome: "conflict", tx: existing };
      }
      const value = BigInt(amount);
      if (refuse) return { outcome: "recorded", tx: this.insertFailed(username, direction, amount, ref, "REFUSED"), repeated: false };

      if (direction === "DEPOSIT") {
        const wallet = this.walletOrCreate(username);
        const before = BigInt(wallet.balance);
        const after = before + value;
        this.sql.exec("UPDATE wallets SET balance = ? WHERE username = ?", after.toString(), username);
        return { outcome: "recorded", tx: this.insertSuccess(provider, username, direction, amount, ref, before, after, null, at, txNumber), repeated: false };
      }

      const wallet = this.findWallet(username);
      const before = wallet ? BigInt(wallet.balance) : 0n;
      if (!wallet || before < value) {
        return { outcome: "recorded", tx: this.insertFailed(username, direction, amount, ref, "INSUFFICIENT_BALANCE"), repeated: false };
      }
      if (direction === "WITHDRAW") {
        const after = before - value;
        this.sql.exec("UPDATE wallets SET balance = ? WHERE username = ?", after.toString(), username);
        return { outcome: "recorded", tx: this.insertSuccess(provider, username, direction, amount, ref, before, after, null, at, txNumber), repeated: false };
      }
      // BET: take the bet, pay the round's win, count the turnover.
      const { numerator, denominator } = roundMultiplier(provider, ref);
      const win = (value * numerator) / denominator; // rounds down to the minor unit
      const after = before - value + win;
      const turnover = BigInt(wallet.turnover) + value;
      this.sql.exec("UPDATE wallets SET balance = ?, turnover = ? WHERE username = ?", after.toString(), turnover.toString(), username);
      return { outcome: "recorded", tx: this.insertSuccess(provider, username, direction, amount, ref, before, after, win, at, txNumber), repeated: false };
    });
  }

  /**
   * The period report: the successful bets placed in [start, end) (epoch ms) by these
   * players, summed in minor units (BigInt): stakes (turnover), what they paid back
   * (payout), and the agency's side stakes - payouts (winLoss). Failed bets never count.
   */
  report(start: number, end: number, usernames: readonly string[]): { turnover: string; payout: string; winLoss: string; bets: number; players: number } {
    const wanted = new Set(usernames);
    const rows = this.sql
      .exec<{ username: string; amount: string; win: string | null }>(
        "SELECT username, amount, win FROM transactions WHERE direction = 'BET' AND status = 'SUCCESS' AND created_at >= ? AND created_at < ?",
        start,
        end,
      )
      .toArray();
    let turnover = 0n;
    let payout = 0n;
    let bets = 0;
    const players = new Set<string>();
    for (const row of rows) {
      if (!wanted.has(row.username)) continue;
      turnover += BigInt(row.amount);
      payout += BigInt(row.win ?? "0");
      bets++;
      players.add(row.username);
    }
    return { turnover: turnover.toString(), payout: payout.toString(), winLoss: (turnover - payout).toString(), bets, players: players.size };
  }

  /** The status query: the recorded transaction, or null (NOT_FOUND). */
  status(ref: string): TxRecord | null {
    return this.findTx(ref);
  }

  // ---- faults (control instance) -------------------------------------------------------

  /**
   * Control instance: tells every ref shard of every provider whether a fault is set for it.
   * Awaited when faults are added (the next call must see them) and cleared; after a fault is
   * used up, sent without waiting (a shard told "armed" for nothing only asks the control
   * instance once more than it needs).
   */
  private async pushFaultsArmed(): Promise<void> {
    const generation = this.sql
      .exec<{ value: number }>("INSERT INTO counters (name, value) VALUES ('faults', 1) ON CONFLICT (name) DO UPDATE SET value = value + 1 RETURNING value")
      .one().value;
    const set = new Set(
      this.sql
        .exec<{ provider: string }>("SELECT DISTINCT provider FROM faults")
        .toArray()
        .map((row) => row.provider),
    );
    await Promise.all(
      PROVIDERS.flatMap((provider) =>
        Array.from({ length: REF_SHARDS }, (_, shard) =>
          this.env.PROVIDER.get(this.env.PROVIDER.idFromName(refShardName(provider, shard))).setFaultsArmed(generation, set.has("*") || set.has(provider)),
        ),
      ),
    );
  }

  async addFault(input: FaultInput): Promise<Fault> {
    const row = this.sql
      .exec<FaultRow>(
        `INSERT INTO faults (provider, op, mode, username, remaining, rate_ppm, delay_ms, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING *`,
        input.provider,
        input.op,
        input.mode,
        input.username,
        input.count,
        input.ratePpm,
        input.delayMs,
        Date.now(),
      )
      .one();
    await this.pushFaultsArmed();
    return toFault(row);
  }

  listFaults(): Fault[] {
    return this.sql.exec<FaultRow>("SELECT * FROM faults ORDER BY id").toArray().map(toFault);
  }

  /** Clears all faults, or those of one username, or one fault by id; returns how many. */
  async clearFaults(filter: { id?: number; username?: string }): Promise<number> {
    const cleared =
      filter.id !== undefined
        ? this.sql.exec("DELETE FROM faults WHERE id = ?", filter.id).rowsWritten
        : filter.username !== undefined
          ? this.sql.exec("DELETE FROM faults WHERE username = ?", filter.username).rowsWritten
          : this.sql.exec("DELETE FROM faults").rowsWritten;
    if (cleared > 0) await this.pushFaultsArmed();
    return cleared;
  }

  /**
   * Called once per API call: finds the first fault matching (provider, op, username) that
   * fires for this call, counts it, and returns it (null = behave normally). A fault with a
   * rate fires on a deterministic, evenly spread share of its matching calls (rate 0.5: the
   * 2nd, 4th, 6th...); a fault with a count fires that many times, then disappears.
   */
  takeFault(provider: Provider, op: Exclude<FaultOp, "*">, username: string | null): Fault | null {
    // Asked only while a fault is set (the ref shards' copy says so): with none left it only reads.
    if (this.sql.exec("SELECT 1 FROM faults LIMIT 1").toArray().length === 0) return null;
    return this.ctx.storage.transactionSync(() => {
      const rows = this.sql.exec<FaultRow>("SELECT * FROM faults ORDER BY id").toArray();
      for (const row of rows) {
        if (row.provider !== "*" && row.provider !== provider) continue;
        if (row.op !== "*" && row.op !== op) continue;
        if (row.username !== null && row.username !== username) continue;
        const seen = row.seen + 1;
        const fires = row.rate_ppm === null || Math.floor((seen * row.rate_ppm) / 1_000_000) > Math.floor(((seen - 1) * row.rate_ppm) / 1_000_000);
        if (!fires) {
          this.sql.exec("UPDATE faults SET seen = ? WHERE id = ?", seen, row.id);
          continue;
        }
        const remaining = row.remaining === null ? null : row.remaining - 1;
        if (remaining !== null && remaining <= 0) {
          this.sql.exec("DELETE FROM faults WHERE id = ?", row.id);
          this.ctx.waitUntil(this.pushFaultsArmed());
        } else this.sql.exec("UPDATE faults SET seen = ?, fired = fired + 1, remaining = ? WHERE id = ?", seen, remaining, row.id);
        return toFault({ ...row, seen, fired: row.fired + 1, remaining });
      }
      return null;
    });
  }

  // ---- sandbox control -----------------------------------------------------------------

  async reset(): Promise<void> {
    const hadFaults = this.ctx.storage.transactionSync(() => {
      this.sql.exec("DELETE FROM wallets");
      this.sql.exec("DELETE FROM transactions");
      this.sql.exec("DELETE FROM refs");
      this.sql.exec("DELETE FROM members");
      return this.sql.exec("DELETE FROM faults").rowsWritten > 0;
    });
    if (hadFaults) await this.pushFaultsArmed();
  }

  // ---- internals -----------------------------------------------------------------------

  private findWallet(username: string): Wallet | null {
    const row = this.sql
      .exec<{ username: string; balance: string; turnover: string; created_at: number }>("SELECT * FROM wallets WHERE username = ?", username)
      .toArray()[0];
    return row ? { username: row.username, balance: row.balance, turnover: row.turnover, createdAt: row.created_at } : null;
  }

  private walletOrCreate(username: string): Wallet {
    const found = this.findWallet(username);
    if (found) return found;
    const createdAt = Date.now();
    this.sql.exec("INSERT INTO wallets (username, balance, turnover, created_at) VALUES (?, '0', '0', ?)", username, createdAt);
    return { username, balance: "0", turnover: "0", createdAt };
  }

  private findTx(ref: string): TxRecord | null {
    const row = this.sql.exec<TxRow>("SELECT * FROM transactions WHERE ref = ?", ref).toArray()[0];
    return row ? toTx(row) : null;
  }

  /** `txNumber`: 8 digits unique across the provider (from the ref shard); else this instance's own sequence. */
  private insertSuccess(
    provider: Provider,
    username: string,
    direction: Direction,
    amount: string,
    ref: string,
    before: bigint,
    after: bigint,
    win: bigint | null,
    at: number,
    txNumber?: string,
  ): TxRecord {
    const { seq } = this.sql
      .exec<{ seq: number }>(
        `INSERT INTO transactions (ref, username, direction, amount, status, before_balance, balance, win, created_at)
         VALUES (?, ?, ?, ?, 'SUCCESS', ?, ?, ?, ?) RETURNING seq`,
        ref,
        username,
        direction,
        amount,
        before.toString(),
        after.toString(),
        win === null ? null : win.toString(),
        at,
      )
      .one();
    const txId = `${TX_PREFIX[provider]}${txNumber ?? String(seq).padStart(8, "0")}`;
    this.sql.exec("UPDATE transactions SET tx_id = ? WHERE seq = ?", txId, seq);
    return this.findTx(ref)!;
  }

  private insertFailed(username: string, direction: Direction, amount: string, ref: string, code: string): TxRecord {
    this.sql.exec(
      "INSERT INTO transactions (ref, username, direction, amount, status, code, created_at) VALUES (?, ?, ?, ?, 'FAILED', ?, ?)",
      ref,
      username,
      direction,
      amount,
      code,
      Date.now(),
    );
    return this.findTx(ref)!;
  }
}

function toTx(row: TxRow): TxRecord {
  return {
    transactionRef: row.ref,
    username: row.username,
    direction: row.direction as Direction,
    amount: row.amount,
    status: row.status as TxStatus,
    code: row.code,
    txId: row.tx_id,
    beforeBalance: row.before_balance,
    balance: row.balance,
    win: row.win,
    createdAt: row.created_at,
  };
}

function toFault(row: FaultRow): Fault {
  return {
    id: row.id,
    provider: row.provider as Provider | "*",
    op: row.op as FaultOp,
    mode: row.mode as FaultMode,
    username: row.username,
    count: row.remaining,
    ratePpm: row.rate_ppm,
    delayMs: row.delay_ms,
    seen: row.seen,
    fired: row.fired,
    createdAt: row.created_at,
  };
}
