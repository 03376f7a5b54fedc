import { asNumber, cents, FakeServer, json, type RecordedRequest, type Reply } from "./fake-server";

/**
 * A local Betflix v4 for contract tests: node:http on 127.0.0.1. Betflix has no public
 * docs; the shapes are what public clients send and read (summary in /work/shared/
 * OUTSIDE.md "Betflix v4"; each endpoint names its source; [OAK] = github.com/Oaker23/
 * Betfilx-xten api_betflix.php, other clients by search index id), with their quirks:
 * - every failure is HTTP 200 with `{ status: "error", msg }` and no numeric code;
 * - amounts are answered as JSON numbers;
 * - the upline (the agent prefix) is put before member names by `register`, which answers
 *   the prefixed name in `data.username` ([EXP] hands it on as the member; OUTSIDE.md "use
 *   what it returns"), and expected on every other call; the adapter is not told the prefix
 *   unless the owner typed it (decision 048);
 * - registering a name that exists answers "Username already exists" ([BFP] matches
 *   exist/duplicate/already);
 * - a repeated `ref` is answered as an error whose text says duplicate, and processed at
 *   most once. NOT documented publicly: nothing public shows Betflix's answer to a repeated
 *   ref; modelled so the adapter's handling of such an answer is tested;
 * - failure texts ("User not found", "Credit not enough", ...) are NOT public either; these
 *   are stand-ins, which is why the adapter only maps narrow patterns to refusals;
 * - the fault switch of fake-server.ts (timeout, 5xx, garbage, applied-then-lost).
 */

export type BetflixEntry = { ref: string; amount: bigint; before: bigint; after: bigint; at: number };
/** A member's bet: staked, paid back, when; a void bet is in `turnover` but not in `valid_amount`. */
export type BetflixBet = { stake: bigint; payout: bigint; at: number; valid: boolean };

export class BetflixFake {
  readonly api: FakeServer;
  /** The game entrance host (lobby login page and games_share files) runs as its own server. */
  readonly entrance: FakeServer;
  readonly members = new Map<string, { balance: bigint; password: string; history: BetflixEntry[]; turnover: bigint; bets?: BetflixBet[] }>();
  /** Quirk switch: the summary without `valid_amount` (clients that read only turnover/winloss, [OAK]). */
  summaryValidAmount = true;
  readonly refs = new Set<string>();
  brands = ["pg", "pp", "jl"];
  brandFiles: Record<string, unknown[]> = {
    pg: [
      { code: "fortune-tiger", name: "Fortune Tiger", type: "slot", img: "games/pg/fortune-tiger.png" },
      { code: "mahjong-ways", name: "Mahjong Ways", type: "slot", img: "/games/pg/mahjong-ways.png" },
    ],
    pp: [{ code: "vs20olympgate", name: "Gates of Olympus", type: "slot", img: "https://cdn.example.test/pp/gates.png" }],
  };
  /** Quirk switch: register answers no `data.username` ([BFP] then falls back to the name it sent). */
  registerAnswersUsername = true;
  /** Which field /v4/play/login answers a game launch with ([OAK]-style clients read launch_url, others url). */
  launchField: "launch_url" | "url" = "launch_url";
  /** Accept the older header name instead of x-api-cat. */
  catHeader: "x-api-cat" | "x-api-betflix" = "x-api-cat";
  /** Quirk switch: history entries carry the reference as `ref_id` instead of `ref`. */
  historyRefField = "ref";
  /** Quirk switch: the history forgets entries (its completeness is not documented). */
  historyDropsEntries = false;
  now = () => Date.now();

  constructor(
    readonly apiKey: string,
    readonly apiCat: string,
    readonly upline: string,
  ) {
    this.api = new FakeServer((req) => this.handle(req));
    this.entrance = new FakeServer((req) => this.handleEntrance(req));
  }

  async start(): Promise<void> {
    await this.api.start();
    await this.entrance.start();
  }
  async stop(): Promise<void> {
    await this.api.stop();
    await this.entrance.stop();
  }

  private ok(data: unknown): Reply {
    return json(200, { status: "success", error_code: 0, msg: "Success", data });
  }
  private error(msg: string): Reply {
    return json(200, { status: "error", msg });
  }

  private handle(req: RecordedRequest): Reply {
    // [TSA] (index id 54536873361) / [OAK]: x-api-key + x-api-cat ([EXP] older x-api-betflix).
    if (req.headers["x-api-key"] !== this.apiKey || req.headers[this.catHeader] !== this.apiCat) return this.error("Invalid API key");
    let form = new URLSearchParams();
    if (req.method === "POST") {
      if (!(req.headers["content-type"] ?? "").startsWith("application/x-www-form-urlencoded")) return this.error("Invalid content type");
      form = new URLSearchParams(req.body);
    }
    switch (`${req.method} ${req.path}`) {
      case "POST /v4/user/register":
        return this.register(form);
      case "POST /v4/user/balance":
        return this.balance(form);
      case "POST /v4/user/transfer":
        return this.transfer(form);
      case "GET /v4/user/creditHistory":
        return this.creditHistory(req.query);
      case "POST /v4/play/login":
        return this.playLogin(form);
      case "GET /v4/report/summary":
        return this.summary(req.query);
      default:
        return json(404, { status: "error", msg: "Not found" });
    }
  }

  /** [OAK] POST /v4/user/register `username, password, name, tel, note` -> data.username (upline added); exists -> "already exists" ([BFP] index id 6930066870). */
  private register(form: URLSearchParams): Reply {
    const username = form.get("username") ?? "";
    const password = form.get("password") ?? "";
    if (!/^[a-z0-9]{3,20}$/.test(username) || password.length < 6) return this.error("Invalid username or password");
    const member = this.upline + username;
    if (member.length > 20) return this.error("Username too long");
    if (this.members.has(member)) return this.error("Username already exists");
    this.members.set(member, { balance: 0n, password, history: [], turnover: 0n });
    return this.ok(this.registerAnswersUsername ? { username: member } : {});
  }

  /** [OAK] POST /v4/user/balance `username` -> data.balance (a number). */
  private balance(form: URLSearchParams): Reply {
    const member = this.members.get(form.get("username") ?? "");
    if (!member) return this.error("User not found");
    return this.ok({ username: form.get("username"), balance: asNumber(member.balance) });
  }

  /** [OAK]/[TSA] POST /v4/user/transfer `username, amount (negative = out), ref` -> data.balance, data.before_balance. */
  private transfer(form: URLSearchParams): Reply {
    const username = form.get("username") ?? "";
    const ref = form.get("ref") ?? "";
    const amount = cents(form.get("amount"));
    if (!ref || amount === null || amount === 0n) return this.error("Invalid amount or ref");
    if (this.refs.has(ref)) return this.error("Duplicate ref"); // not public: see the header
    const member = this.members.get(username);
    if (!member) return this.error("User not found");
    if (amount < 0n && member.balance < -amount) return this.error("Credit not enough");
    const before = member.balance;
    member.balance += amount;
    this.refs.add(ref);
    member.history.push({ ref, amount, before, after: member.balance, at: this.now() });
    return this.ok({ balance: asNumber(member.balance), before_balance: asNumber(before) });
  }

  /**
   * [TSA]/[EXP] GET /v4/user/creditHistory?username&start&end. The answer's inner shape is
   * not public: a list of entries with the reference, the signed amount, before/after and
   * a Bangkok time.
   */
  private creditHistory(query: URLSearchParams): Reply {
    const member = this.members.get(query.get("username") ?? "");
    if (!member) return this.error("User not found");
    const start = query.get("start") ?? "";
    const end = query.get("end") ?? "";
    if (!/^\d{4}-\d{2}-\d{2}$/.test(start) || !/^\d{4}-\d{2}-\d{2}$/.test(end)) return this.error("Invalid date");
    const entries = this.historyDropsEntries ? [] : member.history;
    return this.ok(
      entries
        .filter((e) => {
          const day = new Date(e.at + 7 * 3_600_000).toISOString().slice(0, 10);
          return day >= start && day <= end;
        })
        .map((e) => ({
          [this.historyRefField]: e.ref,
          amount: asNumber(e.amount),
          before: asNumber(e.before),
          after: asNumber(e.after),
          date: new Date(e.at + 7 * 3_600_000).toISOString().replace("T", " ").slice(0, 19),
        })),
    );
  }

  /**
   * [EXP]/[OAK] POST /v4/play/login `username` -> data.login_token (lobby at
   * {entrance}/login/apilogin/{token}); with `provider, gamecode, language, openGame,
   * returnUrl` ([OAK]) or `game, lang, return_url` ([BFP] index id 6713836044) -> a launch URL.
   */
  private playLogin(form: URLSearchParams): Reply {
    const username = form.get("username") ?? "";
    if (!this.members.has(username)) return this.error("User not found");
    const provider = form.get("provider");
    if (!provider) return this.ok({ login_token: `tok_${username}` });
    const game = form.get("gamecode") ?? form.get("game");
    const lang = form.get("language") ?? form.get("lang") ?? "thai";
    if (!game) return this.error("Game not found");
    return this.ok({ [this.launchField]: `https://launch.example.test/${provider}/${game}?user=${username}&lang=${lang}` });
  }

  /**
   * [OAK] GET /v4/report/summary?username&start&end (Y-m-d, Asia/Bangkok, inclusive) ->
   * data.turnover, data.winloss (numbers); [RWD] (index id 6810888535) and [EXP] also read
   * `valid_amount`; `winloss` is the member's side ([RWD]: "Negative = Loss"). `turnover`
   * also carries the member's older counter (tests of the growing turnover set it).
   */
  private summary(query: URLSearchParams): Reply {
    const member = this.members.get(query.get("username") ?? "");
    if (!member) return this.error("User not found");
    const start = query.get("start") ?? "";
    const end = query.get("end") ?? "";
    if (!/^\d{4}-\d{2}-\d{2}$/.test(start) || !/^\d{4}-\d{2}-\d{2}$/.test(end)) return this.error("Invalid date");
    let turnover = member.turnover;
    let valid = member.turnover;
    let winloss = 0n;
    for (const bet of member.bets ?? []) {
      const day = new Date(bet.at + 7 * 3600_000).toISOString().slice(0, 10);
      if (day < start || day > end) continue;
      turnover += bet.stake;
      if (!bet.valid) continue;
      valid += bet.stake;
      winloss += bet.payout - bet.stake;
    }
    return this.ok({ turnover: asNumber(turnover), ...(this.summaryValidAmount ? { valid_amount: asNumber(valid) } : {}), winloss: asNumber(winloss) });
  }

  /** A bet of a member (full name, upline included). */
  addBet(member: string, stake: string, payout: string, at: Date, valid = true): void {
    const m = this.members.get(member);
    if (!m) throw new Error(`no member ${member}`);
    (m.bets ??= []).push({ stake: cents(stake)!, payout: cents(payout)!, at: at.getTime(), valid });
  }

  /** [EXP] (index id 30801547460) {entrance}/games_share/list.txt and /games_share/{brand}.txt; [PHP] (index id 36910203413) items `{ code, name, type, img }`. */
  private handleEntrance(req: RecordedRequest): Reply {
    const m = /^\/games_share\/([a-z0-9_-]+)\.txt$/.exec(req.path);
    if (req.method !== "GET" || !m) return { status: 404, body: "<html>Not Found</html>", contentType: "text/html" };
    if (m[1] === "list")
      return { status: 200, body: JSON.stringify(this.brands.map((code) => ({ code, name: code.toUpperCase() }))), contentType: "text/plain" };
    const file = this.brandFiles[m[1]!];
    if (!file) return { status: 404, body: "<html>Not Found</html>", contentType: "text/html" };
    return { status: 200, body: JSON.stringify(file), contentType: "text/plain" };
  }
}
