/**
 * Sandbox game provider: plays askmebet, betflix, gclub, gclub_live and alphabet as
 * transfer wallets for local development and tests (never deployed). See
 * docs/sandbox-provider.md for the API, the fault modes and how a tester uses them.
 */
import { formatAmount, parseAmount } from "../../core/money";
import { gamesOf } from "./games";
import { GAME_PICTURES } from "./game-pictures";
import { isProvider, PROVIDERS, type Provider } from "../../core/providers";
import {
  CONTROL_NAME,
  FAULT_MODES,
  FAULT_OPS,
  REF_SHARDS,
  refShardName,
  type CommandResult,
  type Direction,
  type Fault,
  type FaultMode,
  type FaultOp,
  type TxRecord,
} from "./object";
import { expiredPage, pageLanguage, playPage } from "./page";
import { shardOf } from "../shard";
import { LAUNCH_TTL_SECONDS, returnUrlOf, safeEqual, signLaunchToken, verifyLaunchToken } from "./token";
import type { ProviderEnv } from "./object";

export { SandboxProvider } from "./object";
export type { ProviderEnv } from "./object";

const CURRENCY = "THB";
const DEFAULT_SLOW_MS = 15_000;
const MAX_DELAY_MS = 120_000;
const USERNAME = /^[A-Za-z0-9_.@-]{1,64}$/;
const REF = /^[A-Za-z0-9_.:-]{1,128}$/;
/** At most 2 decimals, at most 13 integer digits (keeps minor units far below 2^53). */
const AMOUNT = /^\d{1,13}(?:\.\d{1,2})?$/;

class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message?: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message ?? code);
  }
}

const json = (data: unknown, status = 200, headers: HeadersInit = {}) => Response.json(data, { status, headers: { "Cache-Control": "no-store", ...headers } });
const fail = (status: number, code: string, message?: string, extra: Record<string, unknown> = {}) =>
  json({ error: { code, ...(message ? { message } : {}), ...extra } }, status);

const money = (minor: string | null) => (minor === null ? null : formatAmount(BigInt(minor), CURRENCY));
const signedMoney = (minor: string) => (minor.startsWith("-") ? `-${formatAmount(-BigInt(minor), CURRENCY)}` : formatAmount(BigInt(minor), CURRENCY));
const MAX_REPORT_MS = 92 * 24 * 3600_000;
const MAX_REPORT_USERS = 50_000;
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The member's own instance: the wallet and every transaction of that member (object.ts). */
function memberStub(env: ProviderEnv, provider: Provider, username: string) {
  return env.PROVIDER.get(env.PROVIDER.idFromName(`${provider}:member:${username}`));
}
function refShard(ref: string): number {
  return shardOf(ref, REF_SHARDS);
}
function refStub(env: ProviderEnv, provider: Provider, shard: number) {
  return env.PROVIDER.get(env.PROVIDER.idFromName(refShardName(provider, shard)));
}

/** The provider's members, across its ref shards (the sandbox's wallet list and reset only). */
async function members(env: ProviderEnv, provider: Provider): Promise<string[]> {
  const parts = await Promise.all(Array.from({ length: REF_SHARDS }, (_, n) => refStub(env, provider, n).members()));
  return [...new Set(parts.flat())];
}

/** The recorded transaction of a ref, wherever its member lives (null: NOT_FOUND), and whether a fault is set. */
async function findTransaction(env: ProviderEnv, provider: Provider, ref: string): Promise<{ tx: TxRecord | null; armed: boolean }> {
  const { owner, armed } = await refStub(env, provider, refShard(ref)).refOwner(ref);
  return { tx: owner === null ? null : await memberStub(env, provider, owner).status(ref), armed };
}

/** The member's wallet, created when missing and then listed in its shard of the members. */
async function ensureMember(env: ProviderEnv, provider: Provider, username: string) {
  const wallet = await memberStub(env, provider, username).member(username);
  if (wallet.created) await refStub(env, provider, refShard(username)).addMember(username);
  return wallet;
}
function controlStub(env: ProviderEnv) {
  return env.PROVIDER.get(env.PROVIDER.idFromName(CONTROL_NAME));
}

/**
 * The fault that fires for this call, asked of the control instance only when the ref
 * shard's copy says a fault is set for this provider (object.ts): a fault-free sandbox asks
 * nothing global.
 */
async function takeFault(env: ProviderEnv, provider: Provider, op: Exclude<FaultOp, "*">, username: string | null, armed: boolean): Promise<Fault | null> {
  return armed ? controlStub(env).takeFault(provider, op, username) : null;
}

export default {
  async fetch(request: Request, env: ProviderEnv): Promise<Response> {
    try {
      return await route(request, env);
    } catch (error) {
      if (error instanceof HttpError) return fail(error.status, error.code, error.message === error.code ? undefined : error.message, error.extra);
      console.error("sandbox-provider: unexpected error", error);
      return fail(500, "INTERNAL_ERROR");
    }
  },
} satisfies ExportedHandler<ProviderEnv>;

async function route(request: Request, env: ProviderEnv): Promise<Response> {
  const url = new URL(request.url);
  const path = url.pathname.replace(/\/+$/, "") || "/";
  let segments: string[];
  try {
    segments = path.split("/").slice(1).map(decodeURIComponent);
  } catch {
    return fail(400, "INVALID_REQUEST", "malformed path");
  }

  if (path === "/health") {
    return json({ status: await controlStub(env).health() });
  }
  if (segments[0] === "api") {
    if (!(await authorized(request, env))) {
      return json({ error: { code: "UNAUTHORIZED" } }, 401, { "WWW-Authenticate": 'Basic realm="sandbox-provider"' });
    }
    const provider = segments[1];
    if (!isProvider(provider)) return fail(404, "NOT_FOUND", "unknown provider");
    return api(request, env, url, provider, segments.slice(2));
  }
  if (segments[0] === "play" && segments.length === 2) {
    const provider = segments[1];
    if (!isProvider(provider)) return fail(404, "NOT_FOUND", "unknown provider");
    if (request.method === "GET" || request.method === "HEAD") return playGet(env, url, provider);
    if (request.method === "POST") return playPost(request, env, url, provider);
    return methodNotAllowed("GET, POST");
  }
  if (segments[0] === "sandbox") return control(request, env, url, segments.slice(1));
  if (segments[0] === "img" && segments.length === 2 && (request.method === "GET" || request.method === "HEAD")) {
    // Game pictures are public, like a real provider's image host, and raster like theirs.
    const match = /^([a-z0-9-]{1,64})\.webp$/.exec(segments[1]!);
    const picture = match && Object.hasOwn(GAME_PICTURES, match[1]!) ? GAME_PICTURES[match[1]!] : undefined;
    if (!picture) return fail(404, "NOT_FOUND");
    const bytes = Uint8Array.from(atob(picture), (c) => c.charCodeAt(0));
    return new Response(bytes, { headers: { "Content-Type": "image/webp", "Cache-Control": "public, max-age=86400" } });
  }
  return fail(404, "NOT_FOUND");
}

// ---- auth -----------------------------------------------------------------------------

async function authorized(request: Request, env: ProviderEnv): Promise<boolean> {
  const header = request.headers.get("Authorization") ?? "";
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
  let given = "";
  if (match) {
    try {
      given = new TextDecoder().decode(Uint8Array.from(atob(match[1]!), (c) => c.charCodeAt(0)));
    } catch {
      given = "";
    }
  }
  // Always compare, even for a missing header, so timing says nothing about the secret.
  const ok = await safeEqual(given, `${env.AGENT_USERNAME}:${env.AGENT_SECRET}`);
  return ok && given !== "";
}

// ---- the provider API -----------------------------------------------------------------

async function api(request: Request, env: ProviderEnv, url: URL, provider: Provider, rest: string[]): Promise<Response> {
  const [resource, ...tail] = rest;
  const method = request.method;
  const key = tail.length === 0 ? resource : resource === "transactions" && tail.length === 1 ? "transactions/" : "";
  switch (key) {
    case "member": {
      if (method !== "POST") return methodNotAllowed("POST");
      const body = await readBody(request);
      const username = requireUsername(body.username);
      const wallet = await ensureMember(env, provider, username);
      return json({ data: { username, balance: money(wallet.balance), currency: CURRENCY } });
    }
    case "balance": {
      if (method !== "GET") return methodNotAllowed("GET");
      const username = requireUsername(url.searchParams.get("username"));
      const armed = await refStub(env, provider, refShard(username)).faultsArmed();
      const fault = await takeFault(env, provider, "balance", username, armed);
      if (fault && (fault.mode === "error-before" || fault.mode === "error-after")) return faultError(fault);
      if (fault?.mode === "refuse") return refused(fault);
      const wallet = await memberStub(env, provider, username).wallet(username);
      if (fault?.mode === "slow") await sleep(fault.delayMs);
      return json({ data: { username, balance: money(wallet.balance), currency: CURRENCY } });
    }
    case "turnover": {
      if (method !== "GET") return methodNotAllowed("GET");
      const username = requireUsername(url.searchParams.get("username"));
      const wallet = await memberStub(env, provider, username).wallet(username);
      return json({ data: { username, turnover: money(wallet.turnover), currency: CURRENCY } });
    }
    case "deposit":
    case "withdraw":
    case "bet": {
      if (method !== "POST") return methodNotAllowed("POST");
      const body = await readBody(request);
      const command = parseCommand(body);
      const op = resource as "deposit" | "withdraw" | "bet";
      // A bet may say when it was placed (a test's yesterday); never in the future.
      if (op === "bet" && body.placedAt !== undefined) {
        const at = parseInstant(body.placedAt, "placedAt");
        if (at > Date.now()) throw new HttpError(400, "INVALID_REQUEST", "placedAt in the future");
        command.at = at;
      }
      const result = await runCommand(env, provider, op, command);
      return result.response;
    }
    case "transactions/": {
      if (method !== "GET") return methodNotAllowed("GET");
      const ref = tail[0]!;
      if (!REF.test(ref)) throw new HttpError(400, "INVALID_REQUEST", "transactionRef");
      // A read has no side effect, so it is read first: a username-scoped fault then
      // matches the transaction's own player.
      const { tx, armed } = await findTransaction(env, provider, ref);
      const fault = await takeFault(env, provider, "status", tx?.username ?? null, armed);
      if (fault && (fault.mode === "error-before" || fault.mode === "error-after")) return faultError(fault);
      if (fault?.mode === "refuse") return refused(fault);
      if (fault?.mode === "slow") await sleep(fault.delayMs);
      return json({ data: statusData(ref, tx) });
    }
    case "report": {
      // The period report (decision 058): bets of these players placed in [startTime, endTime).
      if (method !== "POST") return methodNotAllowed("POST");
      const body = await readBody(request);
      const start = parseInstant(body.startTime, "startTime");
      const end = parseInstant(body.endTime, "endTime");
      if (end <= start || end - start > MAX_REPORT_MS) throw new HttpError(400, "INVALID_REQUEST", "endTime after startTime, at most 92 days");
      const usernames = body.usernames;
      if (!Array.isArray(usernames) || usernames.length > MAX_REPORT_USERS || !usernames.every((u) => typeof u === "string" && USERNAME.test(u))) {
        throw new HttpError(400, "INVALID_REQUEST", `usernames: at most ${MAX_REPORT_USERS} usernames`);
      }
      const fault = await controlStub(env).takeFault(provider, "report", null);
      if (fault && fault.mode !== "slow") return faultError(fault);
      if (fault?.mode === "slow") await sleep(fault.delayMs);
      const r = await report(env, provider, start, end, usernames as string[]);
      return json({
        data: {
          startTime: new Date(start).toISOString(),
          endTime: new Date(end).toISOString(),
          turnover: money(r.turnover),
          payout: money(r.payout),
          winLoss: signedMoney(r.winLoss),
          bets: r.bets,
          players: r.players,
          // each member named who placed a bet in the window (one report answers the agency's
          // day and each player's, decision 058): a member without a row had no bet
          rows: r.rows.map((row) => ({
            username: row.username,
            turnover: money(row.turnover),
            payout: money(row.payout),
            winLoss: signedMoney(row.winLoss),
            bets: row.bets,
          })),
          currency: CURRENCY,
        },
      });
    }
    case "games": {
      if (method !== "GET") return methodNotAllowed("GET");
      const fault = await controlStub(env).takeFault(provider, "games", null);
      if (fault && fault.mode !== "slow") return faultError(fault);
      if (fault?.mode === "slow") await sleep(fault.delayMs);
      return json({ data: gamesOf(provider, url.searchParams.get("tab")) });
    }
    case "launch": {
      if (method !== "GET") return methodNotAllowed("GET");
      const username = requireUsername(url.searchParams.get("username"));
      const lang = pageLanguage(url.searchParams.get("lang"));
      const exp = Math.floor(Date.now() / 1000) + LAUNCH_TTL_SECONDS;
      const back = returnUrlOf(url.searchParams.get("returnUrl"));
      const token = await signLaunchToken(env.AGENT_SECRET, { u: username, p: provider, l: lang, exp, ...(back ? { r: back } : {}) });
      return json({ data: { url: `/play/${provider}?token=${encodeURIComponent(token)}`, expiresAt: new Date(exp * 1000).toISOString() } });
    }
    default:
      return fail(404, "NOT_FOUND");
  }
}

type Command = { username: string; amount: string; amountMinor: bigint; transactionRef: string; at?: number };

const DIRECTION: Record<"deposit" | "withdraw" | "bet", Direction> = { deposit: "DEPOSIT", withdraw: "WITHDRAW", bet: "BET" };

/**
 * Deposit, withdraw or bet through the fault machinery:
 * error-before -> 500, nothing applied; refuse -> ref recorded FAILED/REFUSED, 400;
 * error-after -> applied, then 500; slow -> applied, then the answer waits delayMs.
 */
async function runCommand(
  env: ProviderEnv,
  provider: Provider,
  op: "deposit" | "withdraw" | "bet",
  command: Command,
): Promise<{ response: Response; result: CommandResult | null }> {
  const shard = refShard(command.transactionRef);
  // The ref shard claims the ref at once, unless a fault is set: then the fault is taken first
  // (error-before must leave nothing behind) and the ref claimed after.
  const first = await refStub(env, provider, shard).claimUnlessArmed(command.transactionRef, command.username);
  const fault = first.armed ? await controlStub(env).takeFault(provider, op, command.username) : null;
  if (fault?.mode === "error-before") return { response: faultError(fault), result: null };
  const claim = first.armed ? await refStub(env, provider, shard).claimRef(command.transactionRef, command.username) : first;
  const result = await applyCommand(env, provider, DIRECTION[op], command, fault?.mode === "refuse", shard, claim);
  if (fault?.mode === "error-after") return { response: faultError(fault), result };
  if (fault?.mode === "slow") await sleep(fault.delayMs);
  return { response: commandResponse(result), result };
}

/**
 * The ref was claimed for this member in its shard (a ref is used once across the provider);
 * the member's own instance applies the command exactly as before.
 */
async function applyCommand(
  env: ProviderEnv,
  provider: Provider,
  direction: Direction,
  command: Command,
  refuse: boolean,
  shard: number,
  claim: { owner: string; seq: number },
): Promise<CommandResult> {
  if (claim.owner !== command.username) return { outcome: "conflict", tx: { transactionRef: command.transactionRef } };
  const txNumber = `${String(shard).padStart(2, "0")}${String(claim.seq).padStart(6, "0")}`;
  return memberStub(env, provider, command.username).command(
    provider,
    direction,
    command.username,
    command.amountMinor.toString(),
    command.transactionRef,
    refuse,
    command.at,
    txNumber,
  );
}

/** The period report, summed over the named members' own instances, with each member's part that has bets. */
async function report(env: ProviderEnv, provider: Provider, start: number, end: number, usernames: string[]) {
  let turnover = 0n;
  let payout = 0n;
  let bets = 0;
  let players = 0;
  const rows: { username: string; turnover: string; payout: string; winLoss: string; bets: number }[] = [];
  const unique = [...new Set(usernames)];
  for (let i = 0; i < unique.length; i += 50) {
    const names = unique.slice(i, i + 50);
    const parts = await Promise.all(names.map((u) => memberStub(env, provider, u).report(start, end, [u])));
    parts.forEach((part, j) => {
      turnover += BigInt(part.turnover);
      payout += BigInt(part.payout);
      bets += part.bets;
      players += part.players;
      if (part.bets > 0) rows.push({ username: names[j]!, turnover: part.turnover, payout: part.payout, winLoss: part.winLoss, bets: part.bets });
    });
  }
  return { turnover: turnover.toString(), payout: payout.toString(), winLoss: (turnover - payout).toString(), bets, players, rows };
}

function commandResponse(result: CommandResult): Response {
  if (result.outcome === "conflict") {
    return fail(409, "REF_CONFLICT", "transactionRef already used for another operation", { transactionRef: result.tx.transactionRef });
  }
  const tx = result.tx;
  if (tx.status === "FAILED") {
    return fail(400, tx.code ?? "FAILED", undefined, { transactionRef: tx.transactionRef });
  }
  if (tx.direction === "BET") {
    return json({
      data: {
        status: "SUCCESS",
        transactionRef: tx.transactionRef,
        txId: tx.txId,
        bet: money(tx.amount),
        win: money(tx.win),
        balance: money(tx.balance),
        beforeBalance: money(tx.beforeBalance),
      },
    });
  }
  return json({
    data: {
      status: "SUCCESS",
      transactionRef: tx.transactionRef,
      txId: tx.txId,
      amount: money(tx.amount),
      balance: money(tx.balance),
      beforeBalance: money(tx.beforeBalance),
    },
  });
}

function statusData(ref: string, tx: TxRecord | null) {
  if (!tx) return { transactionRef: ref, status: "NOT_FOUND" };
  return {
    transactionRef: ref,
    status: tx.status,
    direction: tx.direction,
    username: tx.username,
    amount: money(tx.amount),
    ...(tx.status === "SUCCESS" ? { txId: tx.txId, balance: money(tx.balance), beforeBalance: money(tx.beforeBalance) } : { code: tx.code }),
    ...(tx.direction === "BET" && tx.status === "SUCCESS" ? { win: money(tx.win) } : {}),
    createdAt: new Date(tx.createdAt).toISOString(),
  };
}

function faultError(fault: Fault): Response {
  return fail(500, "PROVIDER_ERROR", `sandbox fault #${fault.id} (${fault.mode})`);
}

function refused(fault: Fault): Response {
  return fail(400, "REFUSED", `sandbox fault #${fault.id} (refuse)`);
}

// ---- request parsing ------------------------------------------------------------------

async function readBody(request: Request): Promise<Record<string, unknown>> {
  const text = await request.text();
  const type = request.headers.get("Content-Type") ?? "";
  // JSON whatever the declared type (curl -d says form-encoded); form bodies as betflix uses.
  if (!text.trimStart().startsWith("{") && type.includes("application/x-www-form-urlencoded")) {
    return Object.fromEntries(new URLSearchParams(text));
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new HttpError(400, "INVALID_REQUEST", "body must be JSON");
  }
  if (!body || typeof body !== "object" || Array.isArray(body)) throw new HttpError(400, "INVALID_REQUEST", "body must be a JSON object");
  return body as Record<string, unknown>;
}

/** An ISO 8601 instant with its offset (e.g. 2026-11-23T17:00:00.000Z) -> epoch ms. */
function parseInstant(value: unknown, field: string): number {
  const ms = typeof value === "string" && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/.test(value) ? Date.parse(value) : NaN;
  if (!Number.isFinite(ms)) throw new HttpError(400, "INVALID_REQUEST", `${field}: an ISO 8601 instant`);
  return ms;
}

function requireUsername(value: unknown): string {
  if (typeof value !== "string" || !USERNAME.test(value)) throw new HttpError(400, "INVALID_REQUEST", "username");
  return value;
}

/** Amounts are decimal strings, > 0, at most 2 decimals (numbers are refused: no floats). */
function parseMoney(value: unknown): { text: string; minor: bigint } {
  if (typeof value !== "string" || !AMOUNT.test(value)) throw new HttpError(400, "INVALID_AMOUNT", "amount must be a decimal string with at most 2 decimals");
  const minor = parseAmount(value, CURRENCY);
  if (minor === null || minor <= 0n) throw new HttpError(400, "INVALID_AMOUNT", "amount must be greater than 0");
  return { text: value, minor };
}

function parseCommand(body: Record<string, unknown>): Command {
  const username = requireUsername(body.username);
  const { text, minor } = parseMoney(body.amount);
  const transactionRef = body.transactionRef;
  if (typeof transactionRef !== "string" || !REF.test(transactionRef)) throw new HttpError(400, "INVALID_REQUEST", "transactionRef");
  return { username, amount: text, amountMinor: minor, transactionRef };
}

function methodNotAllowed(allow: string): Response {
  return json({ error: { code: "METHOD_NOT_ALLOWED" } }, 405, { Allow: allow });
}

// ---- the playable page ----------------------------------------------------------------

const PAGE_HEADERS = {
  "Content-Type": "text/html; charset=utf-8",
  "Cache-Control": "no-store",
  "Referrer-Policy": "no-referrer",
  "X-Content-Type-Options": "nosniff",
};

function html(body: string, status = 200): Response {
  return new Response(body, { status, headers: PAGE_HEADERS });
}

async function playGet(env: ProviderEnv, url: URL, provider: Provider): Promise<Response> {
  const token = url.searchParams.get("token") ?? "";
  const claims = await verifyLaunchToken(env.AGENT_SECRET, token, provider);
  if (!claims) return html(expiredPage(pageLanguage(url.searchParams.get("lang"))), 401);
  const stub = memberStub(env, provider, claims.u);
  const wallet = await stub.wallet(claims.u);
  let lastRound = null;
  const round = url.searchParams.get("round");
  if (round && REF.test(round)) {
    const tx = await stub.status(round);
    if (tx && tx.username === claims.u && tx.direction === "BET" && tx.status === "SUCCESS") {
      lastRound = { bet: money(tx.amount)!, win: money(tx.win)!, balance: money(tx.balance)! };
    }
  }
  return html(
    playPage({
      lang: pageLanguage(claims.l),
      provider,
      username: claims.u,
      token,
      balance: money(wallet.balance)!,
      turnover: money(wallet.turnover)!,
      nextRef: newPlayRef(),
      lastRound,
      error: null,
      lobbyUrl: claims.r ?? null,
    }),
  );
}

async function playPost(request: Request, env: ProviderEnv, url: URL, provider: Provider): Promise<Response> {
  const form = await request.formData().catch(() => null);
  const field = (name: string) => {
    const value = form?.get(name);
    return typeof value === "string" ? value : "";
  };
  const token = field("token") || url.searchParams.get("token") || "";
  const claims = await verifyLaunchToken(env.AGENT_SECRET, token, provider);
  if (!claims) return html(expiredPage(pageLanguage(url.searchParams.get("lang"))), 401);
  const lang = pageLanguage(claims.l);
  const amount = (field("quick") || field("amount")).trim();
  const ref = REF.test(field("ref")) ? field("ref") : newPlayRef();

  const again = async (error: "insufficient" | "invalidAmount" | "failed", status: number) => {
    const wallet = await memberStub(env, provider, claims.u).wallet(claims.u);
    return html(
      playPage({
        lang,
        provider,
        username: claims.u,
        token,
        balance: money(wallet.balance)!,
        turnover: money(wallet.turnover)!,
        nextRef: newPlayRef(),
        lastRound: null,
        error,
        lobbyUrl: claims.r ?? null,
      }),
      status,
    );
  };

  let parsed: { text: string; minor: bigint };
  try {
    parsed = parseMoney(amount);
  } catch {
    return again("invalidAmount", 400);
  }
  const { response, result } = await runCommand(env, provider, "bet", {
    username: claims.u,
    amount: parsed.text,
    amountMinor: parsed.minor,
    transactionRef: ref,
  });
  if (response.status === 200) {
    // Post/redirect/get; relative, so it also works behind a proxy path.
    return new Response(null, {
      status: 303,
      headers: { Location: `?token=${encodeURIComponent(token)}&round=${encodeURIComponent(ref)}`, "Cache-Control": "no-store" },
    });
  }
  if (result?.outcome === "recorded" && result.tx.code === "INSUFFICIENT_BALANCE") return again("insufficient", 400);
  return again("failed", response.status >= 500 ? 502 : 400);
}

function newPlayRef(): string {
  return `play-${crypto.randomUUID()}`;
}

// ---- sandbox control (no auth: local development and tests only) ---------------------

async function control(request: Request, env: ProviderEnv, url: URL, rest: string[]): Promise<Response> {
  const [resource, id, ...more] = rest;
  if (more.length > 0) return fail(404, "NOT_FOUND");
  if (resource === "faults") {
    const stub = controlStub(env);
    if (id !== undefined) {
      if (request.method !== "DELETE") return methodNotAllowed("DELETE");
      if (!/^\d+$/.test(id)) return fail(404, "NOT_FOUND");
      const cleared = await stub.clearFaults({ id: Number(id) });
      return cleared ? json({ data: { cleared } }) : fail(404, "NOT_FOUND");
    }
    if (request.method === "GET") return json({ data: (await stub.listFaults()).map(faultView) });
    if (request.method === "DELETE") {
      const username = url.searchParams.get("username");
      return json({ data: { cleared: await stub.clearFaults(username === null ? {} : { username }) } });
    }
    if (request.method === "POST") {
      const fault = await stub.addFault(parseFault(await readBody(request)));
      return json({ data: faultView(fault) }, 201);
    }
    return methodNotAllowed("GET, POST, DELETE");
  }
  if (id !== undefined) return fail(404, "NOT_FOUND");
  if (resource === "wallets") {
    if (request.method !== "GET") return methodNotAllowed("GET");
    const only = url.searchParams.get("provider");
    if (only !== null && !isProvider(only)) return fail(404, "NOT_FOUND", "unknown provider");
    const providers = only ? [only] : PROVIDERS;
    const lists = await Promise.all(
      providers.map(async (provider) =>
        (await Promise.all((await members(env, provider)).map((u) => memberStub(env, provider, u).wallet(u))))
          // a member who only claimed a ref (a refused or failed call) has no wallet: not listed, as before
          .filter((w) => w.createdAt > 0)
          .sort((a, b) => a.createdAt - b.createdAt || a.username.localeCompare(b.username))
          .map((w) => ({ provider, username: w.username, balance: money(w.balance), turnover: money(w.turnover), currency: CURRENCY })),
      ),
    );
    return json({ data: lists.flat() });
  }
  if (resource === "reset") {
    if (request.method !== "POST") return methodNotAllowed("POST");
    await Promise.all([
      ...PROVIDERS.map(async (provider) => {
        const names = await members(env, provider);
        await Promise.all([
          ...names.map((u) => memberStub(env, provider, u).reset()),
          ...Array.from({ length: REF_SHARDS }, (_, n) => refStub(env, provider, n).reset()),
        ]);
      }),
      controlStub(env).reset(),
    ]);
    return json({ data: { reset: true } });
  }
  return fail(404, "NOT_FOUND");
}

function parseFault(body: Record<string, unknown>) {
  const provider = body.provider ?? "*";
  if (provider !== "*" && !isProvider(provider)) throw new HttpError(400, "INVALID_REQUEST", "provider");
  const op = body.op;
  if (typeof op !== "string" || !(FAULT_OPS as readonly string[]).includes(op))
    throw new HttpError(400, "INVALID_REQUEST", `op: one of ${FAULT_OPS.join(", ")}`);
  const mode = body.mode;
  if (typeof mode !== "string" || !(FAULT_MODES as readonly string[]).includes(mode))
    throw new HttpError(400, "INVALID_REQUEST", `mode: one of ${FAULT_MODES.join(", ")}`);
  const username = body.username ?? null;
  if (username !== null && (typeof username !== "string" || !USERNAME.test(username))) throw new HttpError(400, "INVALID_REQUEST", "username");
  const count = body.count ?? null;
  if (count !== null && (typeof count !== "number" || !Number.isInteger(count) || count < 1 || count > 1_000_000))
    throw new HttpError(400, "INVALID_REQUEST", "count: integer 1..1000000");
  const rate = body.rate ?? null;
  if (rate !== null && (typeof rate !== "number" || !(rate >= 0 && rate <= 1))) throw new HttpError(400, "INVALID_REQUEST", "rate: number 0..1");
  const delayMs = body.delayMs ?? DEFAULT_SLOW_MS;
  if (typeof delayMs !== "number" || !Number.isInteger(delayMs) || delayMs < 0 || delayMs > MAX_DELAY_MS)
    throw new HttpError(400, "INVALID_REQUEST", `delayMs: integer 0..${MAX_DELAY_MS}`);
  return {
    provider: provider as Provider | "*",
    op: op as FaultOp,
    mode: mode as FaultMode,
    username: username as string | null,
    count: count as number | null,
    ratePpm: rate === null ? null : Math.round((rate as number) * 1_000_000),
    delayMs,
  };
}

function faultView(fault: Fault) {
  return {
    id: fault.id,
    provider: fault.provider,
    op: fault.op,
    mode: fault.mode,
    username: fault.username,
    count: fault.count,
    rate: fault.ratePpm === null ? null : fault.ratePpm / 1_000_000,
    delayMs: fault.delayMs,
    seen: fault.seen,
    fired: fault.fired,
  };
}
