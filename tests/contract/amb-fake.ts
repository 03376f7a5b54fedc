import { asNumber, asString, cents, FakeServer, json, type RecordedRequest, type Reply } from "./fake-server";

/**
 * A local AMB "Super API" (transfer wallet) for contract tests: node:http on 127.0.0.1,
 * speaking the shapes of the vendor's docs (doc.ambsuperapi.com, summarised in
 * /work/shared/OUTSIDE.md "AMB Super API") and of public clients (named per endpoint),
 * with the quirks the adapter must survive:
 * - errors come as HTTP 200 with a non-zero `code` in the envelope;
 * - amounts are answered as numbers (or strings, `amountsAsStrings`);
 * - `balance` sits under `data` or at the top level (`balanceAtTop`), as clients disagree;
 * - a reference is processed at most once; a repeated reference answers 4001/5001;
 * - bet records (betTransactionsV2) of every member of the agent's product, by hour window
 *   and page (`nextId`), from what a test records with addBet;
 * - refused requests (5003, 9002, ...) are not recorded under their reference (an
 *   assumption: AMB's docs do not say whether a refusal burns the reference);
 * - the fault switch of fake-server.ts (timeout, 5xx, garbage, applied-then-lost).
 */

export type AmbTxn = { username: string; type: "DEPOSIT" | "WITHDRAW"; amount: bigint; before: bigint; after: bigint; success: boolean };
export type AmbBet = { username: string; stake: bigint; payout: bigint; betStatus: string; time: number; id: number };

export class AmbFake {
  readonly server: FakeServer;
  readonly members = new Map<string, bigint>();
  readonly txns = new Map<string, AmbTxn>();
  readonly bets: AmbBet[] = [];
  games: { code: string; name: string; category: string; type: string; img: string; rank: number }[] = [
    { code: "PGS-2", name: "Fortune Tiger", category: "SLOT", type: "SLOT", img: "https://img.example.test/pg/fortune-tiger.png", rank: 2 },
    { code: "PGS-1", name: "Mahjong Ways", category: "SLOT", type: "SLOT", img: "https://img.example.test/pg/mahjong-ways.png", rank: 1 },
    { code: "EVO-1", name: "Baccarat A", category: "LIVE", type: "CASINO", img: "https://img.example.test/evo/baccarat.png", rank: 3 },
  ];
  /** Quirks. */
  balanceAtTop = false;
  amountsAsStrings = false;
  /** The next deposit/withdraw answers this code (recorded as a failed transaction when 4000/5000). */
  nextTransferCode: number | null = null;
  /** Bets per page of betTransactionsV2. */
  pageSize = 2;
  private reqCounter = 0;

  constructor(
    readonly agent: string,
    readonly key: string,
    readonly productId: string,
  ) {
    this.server = new FakeServer((req) => this.handle(req));
  }

  start(): Promise<string> {
    return this.server.start();
  }
  stop(): Promise<void> {
    return this.server.stop();
  }

  private amount(minor: bigint): number | string {
    return this.amountsAsStrings ? asString(minor) : asNumber(minor);
  }

  /** [DOC] envelope `{ reqId, code, message, data }`. */
  private envelope(code: number, message: string, data?: unknown, extra?: Record<string, unknown>): Reply {
    return json(200, { reqId: `req-${++this.reqCounter}`, code, message, ...(data === undefined ? {} : { data }), ...(extra ?? {}) });
  }

  private handle(req: RecordedRequest): Reply {
    // [DOC] authentication: HTTP Basic agent_username:api_key, missing/wrong -> HTTP 401.
    if (req.headers.authorization !== `Basic ${Buffer.from(`${this.agent}:${this.key}`).toString("base64")}`) {
      return json(401, { code: 10, message: "Unauthorized" });
    }
    let body: Record<string, unknown> = {};
    if (req.method === "POST") {
      if (!(req.headers["content-type"] ?? "").startsWith("application/json")) return this.envelope(20, "Invalid payload");
      try {
        body = JSON.parse(req.body) as Record<string, unknown>;
      } catch {
        return this.envelope(20, "Invalid payload");
      }
    }
    const productId = req.method === "POST" ? body.productId : req.query.get("productId");
    if (productId !== this.productId) return this.envelope(9001, "Invalid productId");
    switch (`${req.method} ${req.path}`) {
      case "POST /deposit":
        return this.transfer(body, "DEPOSIT");
      case "POST /withdraw":
        return this.transfer(body, "WITHDRAW");
      case "POST /verifyDepositWithdraw":
        return this.verify(body);
      case "GET /balance":
        return this.balance(req.query.get("username") ?? "");
      case "POST /seamless/member":
        return this.member(body);
      case "POST /logIn":
        return this.logIn(body);
      case "GET /seamless/games":
        return this.listGames();
      case "GET /betTransactionsV2":
        return this.betTransactions(req.query);
      default:
        return json(404, { code: 40, message: "Not found" });
    }
  }

  /**
   * [DOC] transfer/deposit, transfer/withdraw: `{ username, amount: "100.25",
   * transactionRef, productId }` -> `data: { status: "SUCCESS", amount, balance,
   * beforeBalance, txId, username }`; codes 4001/5001 duplicate, 4002/5002 invalid amount,
   * 5003 not enough credit, 9002 member not found. Same fields sent by a public Laravel
   * client (search index id 46886270853, SeamlessRepository::deposit/withdraw).
   */
  private transfer(body: Record<string, unknown>, type: "DEPOSIT" | "WITHDRAW"): Reply {
    const deposit = type === "DEPOSIT";
    const { username, transactionRef } = body;
    if (typeof username !== "string" || typeof transactionRef !== "string" || !transactionRef) return this.envelope(20, "Invalid payload");
    if (this.txns.has(transactionRef)) return this.envelope(deposit ? 4001 : 5001, "Duplicate transaction");
    const amount = typeof body.amount === "string" ? cents(body.amount) : null; // documented as a string
    if (amount === null || amount <= 0n) return this.envelope(deposit ? 4002 : 5002, deposit ? "Invalid deposit amount" : "Invalid withdraw amount");
    const before = this.members.get(username);
    if (before === undefined) return this.envelope(9002, "Member not found");
    if (this.nextTransferCode !== null) {
      const code = this.nextTransferCode;
      this.nextTransferCode = null;
      if (code === 4000 || code === 5000) this.txns.set(transactionRef, { username, type, amount, before, after: before, success: false });
      return this.envelope(code, "Transfer failed");
    }
    if (!deposit && before < amount) return this.envelope(5003, "Not enough credit");
    const after = deposit ? before + amount : before - amount;
    this.members.set(username, after);
    this.txns.set(transactionRef, { username, type, amount, before, after, success: true });
    return this.envelope(0, "Success", {
      status: "SUCCESS",
      amount: this.amount(amount),
      balance: this.amount(after),
      beforeBalance: this.amount(before),
      txId: transactionRef,
      username,
    });
  }

  /**
   * [DOC] transfer/verifyDepositWithdraw: `{ username, transactionRef, productId, type }`
   * -> `data: { success, amount, beforeBalance, afterBalance, ... }`; 5004 not found.
   */
  private verify(body: Record<string, unknown>): Reply {
    const { username, transactionRef, type } = body;
    if (typeof username !== "string" || typeof transactionRef !== "string" || (type !== "DEPOSIT" && type !== "WITHDRAW"))
      return this.envelope(20, "Invalid payload");
    if (!this.members.has(username)) return this.envelope(9002, "Member not found");
    const txn = this.txns.get(transactionRef);
    if (!txn || txn.username !== username || txn.type !== type) return this.envelope(5004, "Transaction not found");
    return this.envelope(0, "Success", {
      success: txn.success,
      transactionRef,
      username,
      type,
      amount: this.amount(txn.amount),
      beforeBalance: this.amount(txn.before),
      afterBalance: this.amount(txn.after),
    });
  }

  /**
   * [DOC] GET /balance?username=&productId=; a public Laravel client (index id 46886270853,
   * viewBalance) reads `balance` at the top level: `balanceAtTop` answers that way.
   */
  private balance(username: string): Reply {
    const balance = this.members.get(username);
    if (balance === undefined) return this.envelope(9002, "Member not found");
    if (this.balanceAtTop) return this.envelope(0, "Success", { status: "SUCCESS", username }, { balance: this.amount(balance) });
    return this.envelope(0, "Success", { status: "SUCCESS", username, balance: this.amount(balance), currency: "THB" });
  }

  /** Public clients' POST /seamless/member `{ username, productId }` (index id 46886270853, addUser); [DOC] 2001 duplicate. */
  private member(body: Record<string, unknown>): Reply {
    const { username } = body;
    if (typeof username !== "string" || !/^[a-z0-9]{5,22}$/.test(username)) return this.envelope(20, "Invalid username");
    if (this.members.has(username)) return this.envelope(2001, "Duplicate username");
    this.members.set(username, 0n);
    return this.envelope(0, "Success", { username });
  }

  /**
   * [DOC] POST /logIn `{ username, productId, gameCode, isMobileLogin, language?,
   * callbackUrl? }` -> `data: { url }` (field names also in a public Go client, index id
   * 9231660951).
   */
  private logIn(body: Record<string, unknown>): Reply {
    const { username, gameCode } = body;
    if (typeof username !== "string") return this.envelope(20, "Invalid payload");
    if (!this.members.has(username)) return this.envelope(9002, "Member not found");
    if (typeof body.isMobileLogin !== "boolean") return this.envelope(20, "Invalid payload");
    const params = new URLSearchParams({ token: `tok-${username}`, lang: String(body.language ?? "") });
    if (typeof gameCode === "string") params.set("game", gameCode);
    return this.envelope(0, "Success", { url: `https://play.example.test/launch?${params.toString()}` });
  }

  /** [DOC] GET /seamless/games?productId= -> `data.games[]` `{ code, name, category, type, img, rank }` (public Next.js client, index id 14038706428). */
  private listGames(): Reply {
    return this.envelope(0, "Success", { games: this.games });
  }

  /**
   * [DOC] GET /betTransactionsV2?productId=&startTime=&endTime=&nextId= (ISO times, at
   * most 1 h) -> `txns[]` with `stake`, `payout`, `betStatus`, paged by `nextId`.
   */
  private betTransactions(query: URLSearchParams): Reply {
    const start = Date.parse(query.get("startTime") ?? "");
    const end = Date.parse(query.get("endTime") ?? "");
    if (!Number.isFinite(start) || !Number.isFinite(end) || end <= start || end - start > 60 * 60 * 1000) return this.envelope(20, "Invalid time range");
    const after = Number(query.get("nextId") ?? "0");
    const inRange = this.bets.filter((b) => b.time >= start && b.time < end && b.id > after).sort((a, b) => a.id - b.id);
    const page = inRange.slice(0, this.pageSize);
    const more = inRange.length > page.length;
    // [LRV] (index id 65808779497) reads `payoutStatus` "win" / "lose" beside stake and payout.
    return this.envelope(0, "Success", {
      txns: page.map((b) => ({
        id: b.id,
        username: b.username,
        stake: this.amount(b.stake),
        payout: this.amount(b.payout),
        betStatus: b.betStatus,
        payoutStatus: b.payout > b.stake ? "WIN" : "LOSE",
        createdAt: new Date(b.time).toISOString(),
      })),
      nextId: more ? String(page[page.length - 1]!.id) : null,
    });
  }

  /** A bet record of the agent's product: what was staked and paid back, when. */
  addBet(username: string, stake: string, time: Date, betStatus = "SETTLED", payout = "0"): void {
    this.bets.push({ username, stake: cents(stake)!, payout: cents(payout)!, betStatus, time: time.getTime(), id: this.bets.length + 1 });
  }
}
