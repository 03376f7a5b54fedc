import {
  answerBody,
  gameNamed,
  httpUrl,
  isRecord,
  isSuccessStatus,
  textOf,
  type Exchange,
  type ProviderGame,
  type ProviderGameList,
  type Unavailable,
} from "./http";

/**
 * AMB Super API's answers, as amb.ts reads them: the answer codes, the envelope, and the
 * shapes of the games list and of a page of bet records. The sources named in brackets
 * ([DOC], [GT], [NX], [LRV], [GT2]) are listed in amb.ts's header.
 */

/** [DOC] errorMessageTransfer: codes after which the credit did not move. */
export const REFUSALS: Record<number, string> = {
  10: "UNAUTHORIZED",
  20: "INVALID_PAYLOAD",
  1001: "INVALID_ACCOUNT_SETTING",
  1002: "CURRENCY_NOT_SUPPORTED",
  4002: "INVALID_AMOUNT",
  5002: "INVALID_AMOUNT",
  5003: "INSUFFICIENT_CREDIT",
  9001: "INVALID_PRODUCT",
  9002: "MEMBER_NOT_FOUND",
  9004: "UNAUTHORIZED_PRODUCT",
};
/** [DOC] 4001 duplicate transaction (deposit), 5001 duplicate transaction (withdraw). */
export const DUPLICATES = new Set([4001, 5001]);
export const MEMBER_NOT_FOUND = 9002;
export const DUPLICATE_USERNAME = 2001;
export const TRANSACTION_NOT_FOUND = 5004;

type Envelope = { code: number; message: string; data: unknown; raw: Record<string, unknown> };

type Classified = { kind: "envelope"; env: Envelope } | { kind: "unknown"; reason: string } | { kind: "unauthorized" };

/** [DOC] envelope `{ reqId, code, message, data }`, code 0 = success; HTTP 401 without credentials. */
export function classify(reply: Exchange): Classified {
  const answer = answerBody(reply, [401]);
  if (answer.kind !== "body") return answer;
  const { body, status } = answer;
  const code = typeof body.code === "number" ? body.code : typeof body.code === "string" && /^-?\d+$/.test(body.code) ? Number(body.code) : null;
  if (code === null) return { kind: "unknown", reason: `answer without a code (HTTP ${status})` };
  if (code === 0 && !isSuccessStatus(status)) return { kind: "unknown", reason: `code 0 with HTTP ${status}` };
  return { kind: "envelope", env: { code, message: typeof body.message === "string" ? body.message : "", data: body.data, raw: body } };
}

/** A read that needs code 0 (balance, launch, games, bet records): the envelope, or why the read is unavailable. */
export function readable(c: Classified): { kind: "ok"; env: Envelope } | Unavailable {
  if (c.kind === "unknown") return { kind: "unavailable", reason: c.reason };
  if (c.kind === "unauthorized") return { kind: "unavailable", reason: "HTTP 401" };
  if (c.env.code !== 0) return { kind: "unavailable", reason: `code ${c.env.code} ${c.env.message}`.trim() };
  return { kind: "ok", env: c.env };
}

/**
 * [DOC] GET /seamless/games -> `data.games[]` `{ code, name, category, type, img, rank }`
 * ([GT] and [NX] read the same). Tabs are the categories, games in rank order; null when the
 * answer holds no list.
 */
export function gamesOf(data: unknown, tab: string | null): ProviderGameList | null {
  const raw = isRecord(data) ? data.games : undefined;
  if (!Array.isArray(raw)) return null;
  const ranked: { game: ProviderGame; rank: number }[] = [];
  for (const item of raw) {
    if (!isRecord(item)) continue;
    const named = gameNamed(item);
    if (!named) continue;
    const category = typeof item.category === "string" && item.category ? item.category : typeof item.type === "string" && item.type ? item.type : "ALL";
    const img = httpUrl(item.img);
    const rank = typeof item.rank === "number" ? item.rank : Number.MAX_SAFE_INTEGER;
    ranked.push({ game: { ...named, tab: category, img }, rank });
  }
  ranked.sort((a, b) => a.rank - b.rank);
  const tabs = [...new Set(ranked.map((r) => r.game.tab))];
  // AMB's categories are upper case ("SLOT"); the portal's tab names may not be.
  const games = ranked.map((r) => r.game).filter((g) => tab === null || g.tab.toLowerCase() === tab.toLowerCase());
  return { tabs, games };
}

/**
 * One page of [DOC] betTransactionsV2: its `txns` and the `nextId` of the next page, read
 * under `data` or at the top level ([LRV]/[GT2] read `data.txns`); null without `txns`.
 */
export function betPage(env: Envelope): { txns: unknown[]; nextId: string | null } | null {
  const holder = isRecord(env.data) ? env.data : env.raw;
  const txns = Array.isArray(holder.txns) ? holder.txns : Array.isArray(env.raw.txns) ? env.raw.txns : null;
  if (!txns) return null;
  return { txns, nextId: textOf(holder.nextId ?? env.raw.nextId) || null };
}

/** A bet that does not count: cancelled, void or refunded ([DOC] `betStatus`; [LRV] `payoutStatus`). */
export function isVoid(txn: Record<string, unknown>): boolean {
  return [txn.betStatus, txn.payoutStatus].some((v) => typeof v === "string" && /cancel|void|refund/i.test(v));
}
