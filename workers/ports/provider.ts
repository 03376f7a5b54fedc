import type { Provider } from "../core/providers";
import { formatAmount, parseAmount, parseSignedAmount } from "../core/money";
import { vientianeDayBounds } from "../core/vientiane";

/**
 * Game provider port (decision 017): a transfer wallet per player at each provider.
 * Every transfer carries our reference and is processed at most once by the provider;
 * after a timeout or a 5xx the outcome is UNKNOWN and is resolved by transferStatus(ref),
 * never by a new transfer under a new reference.
 */
export type TransferOutcome = { kind: "ok"; balance: string; txId: string } | { kind: "refused"; code: string } | { kind: "unknown"; reason: string };

/**
 * A transfer as the port takes it: `amountMinor` in credit minor units (THB satang), the bigint
 * the wallet and the services hold; an adapter writes it as text only in the provider's body.
 */
export type TransferInput = { username: string; amountMinor: bigint; direction: "in" | "out"; reference: string };

export type TransferStatus = { kind: "success" } | { kind: "failed" } | { kind: "not-found" } | { kind: "unknown"; reason: string };

/** A lobby: tabs and games; `img` is the game's picture (an absolute URL, or a path under our origin for the sandbox). */
export type GameList = { tabs: string[]; games: { code: string; name: string; tab: string; img?: string | null }[] };

/** The game to open: its code and the tab it was listed under (Betflix launches by brand + code). */
export type LaunchGame = { code: string; tab: string | null };

/**
 * A player as the period report names him: `username` is the legacy provider name
 * `agencyId_username` every other method takes, `playerId` lets a real adapter derive the
 * name it uses at the provider without a lookup (core/provider-username.ts).
 */
type ReportPlayer = { username: string; playerId: string };

/**
 * A period's totals at one provider for a set of players (decision 058),
 * in credit minor units (THB satang):
 * - turnoverMinor: the sum of the VALID bets placed in the period (cancelled, void and
 *   refunded bets left out; where the provider answers a valid amount, that one);
 * - winLossMinor: the AGENCY's result, stakes minus what the bets paid back: positive when
 *   the players lost (the house won), negative when the players won.
 * `unavailable` is never a zero: the figures were not read (provider down, too slow, answer
 * unreadable, or the provider's API has no such report).
 */
export type PeriodSummary = ({ kind: "ok"; players: PlayerFigures } & Figures) | { kind: "unavailable"; reason: string };

/**
 * The same figures per player (decisions 029 and 030: cashback and the referral share are computed from
 * each player's days), from the very answers the totals were summed from: the adapter never
 * asks the provider a second time for them. Keyed by the `playerId` of the SummaryInput
 * player, so no caller has to map provider names back. Every player asked has an entry, zero
 * when they placed no bet, and the entries add up to the totals; the one exception is a
 * provider name two of the players share (a derived-name collision, core/provider-username.ts,
 * or two names equal but for case at AMB): those bets cannot be told apart, so they count in
 * the totals and neither player gets an entry (missing, never a guess).
 */
export type PlayerFigures = ReadonlyMap<string, Figures>;

/** Turnover and the agency's win/loss, as defined for PeriodSummary. */
export type Figures = { turnoverMinor: bigint; winLossMinor: bigint };

/** The period: Asia/Vientiane days, inclusive ('YYYY-MM-DD'; Vientiane = Bangkok = UTC+7). */
export type SummaryInput = { from: string; to: string; players: readonly ReportPlayer[]; signal?: AbortSignal };

export interface GameProviderPort {
  games(tab: string | null): Promise<{ kind: "ok"; list: GameList } | { kind: "unavailable"; reason: string }>;
  /**
   * The provider's lobby, or one game when `game` is given. `returnUrl`: where the game's own
   * "home"/"lobby" button leads back to (AMB's callbackUrl, Betflix's returnUrl).
   */
  launchUrl(
    username: string,
    lang: string,
    game?: LaunchGame | null,
    returnUrl?: string | null,
  ): Promise<{ kind: "ok"; url: string } | { kind: "unavailable"; reason: string }>;
  balance(username: string): Promise<{ kind: "ok"; amount: string; currency: string } | { kind: "unavailable"; reason: string }>;
  /**
   * The player's bets: a counter that only grows (the sandbox, Betflix from the setup's
   * first day), whose growth is a promotion's turnover; a provider that reports bets by
   * time window only (AMB) answers the bets since `since` (ms) and 0 when `since` is now,
   * so "counter now - counter at the start" reads the same for both (decision 017).
   */
  turnover(username: string, since?: number): Promise<{ kind: "ok"; amountMinor: bigint } | { kind: "unavailable"; reason: string }>;
  transfer(input: TransferInput): Promise<TransferOutcome>;
  transferStatus(reference: string): Promise<TransferStatus>;
  /** Turnover and the agency's win/loss of these players over whole days, in total and per player, in one pass (see PeriodSummary). */
  periodSummary(input: SummaryInput): Promise<PeriodSummary>;
}

/** How long we wait for a provider before calling the outcome unknown. */
export const PROVIDER_TIMEOUT_MS = 5000;

type SandboxCredentials = { agent: string; secret: string };

/** The sandbox provider Worker (service binding), shaped like AMB's transfer API. */
class SandboxProviderAdapter implements GameProviderPort {
  constructor(
    private readonly fetcher: Fetcher,
    private readonly provider: Provider,
    private readonly credentials: SandboxCredentials,
    private readonly timeoutMs = PROVIDER_TIMEOUT_MS,
  ) {}

  private async call(path: string, init?: { method?: string; body?: unknown; signal?: AbortSignal }): Promise<Response> {
    return this.fetcher.fetch(`http://sandbox-provider/api/${this.provider}${path}`, {
      method: init?.method ?? "GET",
      headers: {
        Authorization: `Basic ${btoa(`${this.credentials.agent}:${this.credentials.secret}`)}`,
        ...(init?.body ? { "Content-Type": "application/json" } : {}),
      },
      body: init?.body ? JSON.stringify(init.body) : undefined,
      signal: init?.signal ? AbortSignal.any([init.signal, AbortSignal.timeout(this.timeoutMs)]) : AbortSignal.timeout(this.timeoutMs),
    });
  }

  async games(tab: string | null) {
    try {
      const res = await this.call(`/games${tab ? `?tab=${encodeURIComponent(tab)}` : ""}`);
      if (!res.ok) return { kind: "unavailable" as const, reason: `HTTP ${res.status}` };
      const body = (await res.json()) as { data?: GameList };
      if (!body.data || !Array.isArray(body.data.games)) return { kind: "unavailable" as const, reason: "bad answer" };
      // The sandbox's pictures are paths of its own, served by the portal under /sandbox/provider.
      const games = body.data.games.map((g) => ({ ...g, img: typeof g.img === "string" && g.img.startsWith("/") ? `/sandbox/provider${g.img}` : null }));
      return { kind: "ok" as const, list: { tabs: body.data.tabs, games } };
    } catch (error) {
      return { kind: "unavailable" as const, reason: String(error) };
    }
  }

  /** The sandbox answers a path of its own; the portal serves it under /sandbox/provider. */
  async launchUrl(username: string, lang: string, game?: LaunchGame | null, returnUrl?: string | null) {
    try {
      const res = await this.call(
        `/launch?username=${encodeURIComponent(username)}&lang=${encodeURIComponent(lang)}${game ? `&game=${encodeURIComponent(game.code)}` : ""}${
          returnUrl ? `&returnUrl=${encodeURIComponent(returnUrl)}` : ""
        }`,
      );
      if (!res.ok) return { kind: "unavailable" as const, reason: `HTTP ${res.status}` };
      const body = (await res.json()) as { data?: { url?: string } };
      if (!body.data?.url) return { kind: "unavailable" as const, reason: "bad answer" };
      return { kind: "ok" as const, url: body.data.url.startsWith("/") ? `/sandbox/provider${body.data.url}` : body.data.url };
    } catch (error) {
      return { kind: "unavailable" as const, reason: String(error) };
    }
  }

  async balance(username: string) {
    try {
      const res = await this.call(`/balance?username=${encodeURIComponent(username)}`);
      if (!res.ok) return { kind: "unavailable" as const, reason: `HTTP ${res.status}` };
      const body = (await res.json()) as { data?: { balance?: string; currency?: string } };
      if (typeof body.data?.balance !== "string") return { kind: "unavailable" as const, reason: "bad answer" };
      return { kind: "ok" as const, amount: body.data.balance, currency: body.data.currency ?? "THB" };
    } catch (error) {
      return { kind: "unavailable" as const, reason: String(error) };
    }
  }

  async turnover(username: string) {
    try {
      const res = await this.call(`/turnover?username=${encodeURIComponent(username)}`);
      if (!res.ok) return { kind: "unavailable" as const, reason: `HTTP ${res.status}` };
      const body = (await res.json()) as { data?: { turnover?: string | null } };
      const amountMinor = body.data?.turnover == null ? 0n : parseAmount(body.data.turnover, "THB");
      if (amountMinor === null) return { kind: "unavailable" as const, reason: "bad answer" };
      return { kind: "ok" as const, amountMinor };
    } catch (error) {
      return { kind: "unavailable" as const, reason: String(error) };
    }
  }

  async transfer(input: TransferInput): Promise<TransferOutcome> {
    try {
      // No separate "create member" call first: the sandbox's deposit opens the member's
      // wallet itself, so one round trip per transfer, not two (decision 024).
      const res = await this.call(input.direction === "in" ? "/deposit" : "/withdraw", {
        method: "POST",
        body: { username: input.username, amount: formatAmount(input.amountMinor, "THB"), transactionRef: input.reference },
      });
      if (res.status >= 500) return { kind: "unknown", reason: `HTTP ${res.status}` };
      const body = (await res.json().catch(() => ({}))) as { data?: { status?: string; balance?: string; txId?: string }; error?: { code?: string } };
      if (res.ok && body.data?.status === "SUCCESS") return { kind: "ok", balance: body.data.balance ?? "0", txId: body.data.txId ?? "" };
      if (res.status >= 400 && res.status < 500) return { kind: "refused", code: body.error?.code ?? `HTTP_${res.status}` };
      return { kind: "unknown", reason: `unexpected answer ${res.status}` };
    } catch (error) {
      // Timeout or network error: the provider may or may not have applied it.
      return { kind: "unknown", reason: String(error) };
    }
  }

  /**
   * POST /api/:provider/report `{ startTime, endTime, usernames }` (the sandbox's own report,
   * docs/sandbox-provider.md) -> `data: { turnover, payout, winLoss, bets, rows }`, winLoss
   * already from the agency's side (stakes minus payouts); `rows`: one per member named who
   * placed a bet in the period, `{ username, turnover, payout, winLoss, bets }`, the members'
   * figures in the same answer (a member without a row had no bet: zero).
   */
  async periodSummary(input: SummaryInput): Promise<PeriodSummary> {
    const window = vientianeWindow(input.from, input.to);
    if (!window) return { kind: "unavailable", reason: "bad period" };
    if (input.players.length === 0) return { kind: "ok", turnoverMinor: 0n, winLossMinor: 0n, players: new Map() };
    try {
      const res = await this.call("/report", {
        method: "POST",
        body: { startTime: new Date(window.start).toISOString(), endTime: new Date(window.end).toISOString(), usernames: input.players.map((p) => p.username) },
        signal: input.signal,
      });
      if (!res.ok) return { kind: "unavailable", reason: `HTTP ${res.status}` };
      const body = (await res.json()) as { data?: { turnover?: unknown; winLoss?: unknown; rows?: unknown } };
      const turnover = typeof body.data?.turnover === "string" ? parseAmount(body.data.turnover, "THB") : null;
      const winLoss = typeof body.data?.winLoss === "string" ? parseSignedAmount(body.data.winLoss, "THB") : null;
      if (turnover === null || winLoss === null || !Array.isArray(body.data?.rows)) return { kind: "unavailable", reason: "bad answer" };
      const byName = new Map<string, Figures>();
      for (const row of body.data.rows as { username?: unknown; turnover?: unknown; winLoss?: unknown }[]) {
        const rowTurnover = typeof row?.turnover === "string" ? parseAmount(row.turnover, "THB") : null;
        const rowWinLoss = typeof row?.winLoss === "string" ? parseSignedAmount(row.winLoss, "THB") : null;
        if (typeof row?.username !== "string" || rowTurnover === null || rowWinLoss === null) return { kind: "unavailable", reason: "bad answer" };
        byName.set(row.username, { turnoverMinor: rowTurnover, winLossMinor: rowWinLoss });
      }
      return { kind: "ok", turnoverMinor: turnover, winLossMinor: winLoss, players: figuresOf(input.players, (username) => byName.get(username)) };
    } catch (error) {
      return { kind: "unavailable", reason: String(error) };
    }
  }

  async transferStatus(reference: string): Promise<TransferStatus> {
    try {
      const res = await this.call(`/transactions/${encodeURIComponent(reference)}`);
      if (!res.ok) return { kind: "unknown", reason: `HTTP ${res.status}` };
      const body = (await res.json()) as { data?: { status?: string } };
      switch (body.data?.status) {
        case "SUCCESS":
          return { kind: "success" };
        case "FAILED":
          return { kind: "failed" };
        case "NOT_FOUND":
          return { kind: "not-found" };
        default:
          return { kind: "unknown", reason: "bad answer" };
      }
    } catch (error) {
      return { kind: "unknown", reason: String(error) };
    }
  }
}

/** The provider username of a player: agency id + player username (betflix style prefix). */
export function providerUsername(agencyId: string, username: string): string {
  return `${agencyId}_${username}`;
}

/**
 * A deployment with no provider adapter (a production environment has no sandbox binding
 * and, today, no real adapter): nothing is sent anywhere, a transfer is refused (it never
 * happened), everything else is unavailable.
 */
export class UnconfiguredProviderAdapter implements GameProviderPort {
  private readonly reason = "no game provider adapter configured";
  async games() {
    return { kind: "unavailable" as const, reason: this.reason };
  }
  async launchUrl() {
    return { kind: "unavailable" as const, reason: this.reason };
  }
  async balance() {
    return { kind: "unavailable" as const, reason: this.reason };
  }
  async turnover() {
    return { kind: "unavailable" as const, reason: this.reason };
  }
  async transfer(): Promise<TransferOutcome> {
    return { kind: "refused", code: "NOT_CONFIGURED" };
  }
  async transferStatus(): Promise<TransferStatus> {
    return { kind: "unknown", reason: this.reason };
  }
  async periodSummary(): Promise<PeriodSummary> {
    return { kind: "unavailable", reason: this.reason };
  }
}

/**
 * The UTC instants of Vientiane days from..to inclusive: [from 00:00 +07, to+1 00:00 +07).
 * Null when a day is not a calendar date or the period runs backwards.
 */
export function vientianeWindow(from: string, to: string): { start: number; end: number } | null {
  const first = vientianeDayBounds(from);
  const last = vientianeDayBounds(to);
  if (first === null || last === null || last.start < first.start) return null;
  return { start: first.start, end: last.end };
}

/**
 * The per-player map of a PeriodSummary (see PlayerFigures): each player's figures under
 * their playerId, zero for a player `figuresFor` has nothing for, and no entry for players
 * whose provider name another player shares (`key`: how the provider compares names).
 */
export function figuresOf(
  players: SummaryInput["players"],
  figuresFor: (name: string) => Figures | undefined,
  key: (name: string) => string = (name) => name,
): PlayerFigures {
  const holders = new Map<string, Set<string>>();
  for (const p of players) holders.set(key(p.username), (holders.get(key(p.username)) ?? new Set()).add(p.playerId));
  const out = new Map<string, Figures>();
  for (const p of players) {
    if (holders.get(key(p.username))!.size > 1) continue;
    out.set(p.playerId, figuresFor(key(p.username)) ?? { turnoverMinor: 0n, winLossMinor: 0n });
  }
  return out;
}

/** The sandbox provider Worker where its binding exists (local, tests), else not configured. */
export function sandboxPort(env: Env, provider: Provider): GameProviderPort {
  if (!env.SANDBOX_PROVIDER || !env.SANDBOX_PROVIDER_AGENT || !env.SANDBOX_PROVIDER_SECRET) return new UnconfiguredProviderAdapter();
  return new SandboxProviderAdapter(env.SANDBOX_PROVIDER, provider, {
    agent: env.SANDBOX_PROVIDER_AGENT,
    secret: env.SANDBOX_PROVIDER_SECRET,
  });
}
