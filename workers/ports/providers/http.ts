import { formatAmount, parseSignedAmount } from "../../core/money";
import { PROVIDER_TIMEOUT_MS, type TransferStatus } from "../provider";

/**
 * What the real provider adapters (amb.ts, betflix.ts) share: one HTTP exchange with a
 * deadline, the API client that sends their credentials with every call, the first reading
 * of an answer (before each vendor's envelope), the reading of amounts that providers send
 * as strings or as numbers, of games and links, and the owner lookup of a transfer's status.
 * Runs in Workers and in Node alike: global fetch and AbortSignal.timeout, no node: imports.
 */

export type FetchLike = typeof fetch;

/**
 * The provider answered something (any status, any body), or it did not (timeout, network
 * error, connection reset). `json` is undefined when the body is not JSON.
 */
export type Exchange = { kind: "answer"; status: number; text: string; json: unknown } | { kind: "no-answer"; reason: string };

export async function exchange(fetchFn: FetchLike, url: string, init: RequestInit, timeoutMs: number): Promise<Exchange> {
  try {
    const res = await fetchFn(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    // The body is read under the same deadline: a provider that sends headers then stalls
    // is a timeout too.
    const text = await res.text();
    let json: unknown;
    try {
      json = text.length > 0 ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    return { kind: "answer", status: res.status, text, json };
  } catch (error) {
    const name = error instanceof Error ? error.name : "";
    if (name === "TimeoutError" || name === "AbortError") return { kind: "no-answer", reason: `timeout after ${timeoutMs} ms` };
    return { kind: "no-answer", reason: `network: ${error instanceof Error ? error.message : String(error)}` };
  }
}

const JSON_TYPE = "application/json";

/**
 * One provider API: its base URL, its deadline (PROVIDER_TIMEOUT_MS unless configured), its
 * fetch (tests inject one), and the credentials' headers on every API call; JSON answers are
 * asked for. AMB takes JSON bodies, Betflix form bodies.
 */
export class ProviderHttp {
  private readonly baseUrl: string;
  private readonly fetchFn: FetchLike;
  private readonly timeoutMs: number;

  constructor(
    config: { baseUrl: string; fetch?: FetchLike; timeoutMs?: number },
    private readonly credentials: Record<string, string>,
  ) {
    this.baseUrl = trimSlash(config.baseUrl);
    this.fetchFn = config.fetch ?? ((input, init) => fetch(input, init));
    this.timeoutMs = config.timeoutMs ?? PROVIDER_TIMEOUT_MS;
  }

  get(path: string, query: Record<string, string>): Promise<Exchange> {
    return this.send(`${this.baseUrl}${path}?${new URLSearchParams(query).toString()}`, { method: "GET", headers: { ...this.credentials, Accept: JSON_TYPE } });
  }

  postJson(path: string, body: Record<string, unknown>): Promise<Exchange> {
    return this.send(`${this.baseUrl}${path}`, {
      method: "POST",
      headers: { ...this.credentials, "Content-Type": JSON_TYPE, Accept: JSON_TYPE },
      body: JSON.stringify(body),
    });
  }

  postForm(path: string, fields: Record<string, string>): Promise<Exchange> {
    return this.send(`${this.baseUrl}${path}`, {
      method: "POST",
      headers: { ...this.credentials, "Content-Type": "application/x-www-form-urlencoded", Accept: JSON_TYPE },
      body: new URLSearchParams(fields).toString(),
    });
  }

  /** A file outside the API, under the same deadline and without the credentials (Betflix's game lists). */
  getFile(url: string, accept: string): Promise<Exchange> {
    return this.send(url, { method: "GET", headers: { Accept: accept } });
  }

  private send(url: string, init: RequestInit): Promise<Exchange> {
    return exchange(this.fetchFn, url, init, this.timeoutMs);
  }
}

/** An answer read before the vendor's envelope: its JSON object, or why it cannot be read. */
type AnswerBody = { kind: "body"; status: number; body: Record<string, unknown> } | { kind: "unknown"; reason: string } | { kind: "unauthorized" };

/**
 * The first reading of every API answer, the same at each provider: no answer (timeout,
 * network) or an HTTP 5xx is an unknown outcome, never a refusal; the vendor's statuses for
 * bad credentials are "unauthorized"; a body that is not a JSON object cannot be read.
 */
export function answerBody(reply: Exchange, unauthorizedStatuses: readonly number[]): AnswerBody {
  if (reply.kind === "no-answer") return { kind: "unknown", reason: reply.reason };
  if (reply.status >= 500) return { kind: "unknown", reason: `HTTP ${reply.status}` };
  if (unauthorizedStatuses.includes(reply.status)) return { kind: "unauthorized" };
  if (!isRecord(reply.json)) return { kind: "unknown", reason: `unparsable answer (HTTP ${reply.status})` };
  return { kind: "body", status: reply.status, body: reply.json };
}

export function isSuccessStatus(status: number): boolean {
  return status >= 200 && status < 300;
}

/** A read (balance, games, launch, report) that could not be made. */
export type Unavailable = { kind: "unavailable"; reason: string };

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** An id or code that providers send as a string or as a number: as text, or null. */
export function textOf(value: unknown): string | null {
  return typeof value === "string" ? value : typeof value === "number" ? String(value) : null;
}

/** An absolute http(s) link (a launch URL, a picture), never another scheme: the link, or null. */
export function httpUrl(value: unknown): string | null {
  return typeof value === "string" && /^https?:\/\//i.test(value) ? value : null;
}

/** A game list entry's code and name (the name defaults to the code), or null without a code. */
export function gameNamed(item: Record<string, unknown>): { code: string; name: string } | null {
  const code = textOf(item.code);
  if (!code) return null;
  return { code, name: typeof item.name === "string" && item.name ? item.name : code };
}

/**
 * A provider amount (credit, THB-like, 2 decimals) as our decimal string "1234.50", or null.
 * Accepts "1234.5", "1,234.50" (thousand separators seen in PHP clients' str_replace), and
 * finite numbers with at most 2 decimals (providers answer numbers where docs say strings).
 * Negative amounts are accepted only when `signed` (a transfer-out seen in a history).
 */
export function decimalOf(value: unknown, signed = false): string | null {
  let text: string;
  if (typeof value === "number") {
    if (!Number.isFinite(value)) return null;
    const cents = Math.round(value * 100);
    if (Math.abs(value * 100 - cents) > 1e-6) return null; // more than 2 decimals: not an amount we understand
    text = formatAmount(BigInt(cents), "THB");
  } else if (typeof value === "string") {
    text = value.trim().replace(/,/g, "");
  } else {
    return null;
  }
  if (text.startsWith("-") && !signed) return null;
  const minor = parseSignedAmount(text, "THB");
  return minor === null ? null : formatAmount(minor, "THB");
}

/** Our decimal string -> minor units, or null. */
export function minorOf(value: unknown, signed = false): bigint | null {
  const text = decimalOf(value, signed);
  return text === null ? null : parseSignedAmount(text, "THB");
}

/** A transfer's amount as a provider's body writes it, 2 decimals (10000n -> "100.00"); null when not positive (nothing is sent). */
export function transferAmount(minor: bigint): string | null {
  return minor > 0n ? formatAmount(minor, "THB") : null;
}

export function trimSlash(url: string): string {
  return url.replace(/\/+$/, "");
}

/**
 * Who a transfer reference belongs to. Both real providers need the player (and AMB the
 * direction) to look a reference up, while the port's transferStatus(reference) carries
 * only the reference: the wiring supplies this lookup from our own orders (see the port
 * gap in each adapter's header).
 */
export type TransferOwner = { username: string; direction: "in" | "out"; at?: number };
export type OwnerLookup = (reference: string) => Promise<TransferOwner | null>;

/**
 * The port's transferStatus(reference) for providers whose status call needs the player:
 * the status asked with the reference's owner, or the unknown outcome (never a guess) when
 * nobody can tell whose it is.
 */
export async function statusWithOwner(
  ownerOf: OwnerLookup | undefined,
  reference: string,
  noLookupReason: string,
  statusOf: (reference: string, owner: TransferOwner) => Promise<TransferStatus>,
): Promise<TransferStatus> {
  if (!ownerOf) return { kind: "unknown", reason: noLookupReason };
  let owner: TransferOwner | null;
  try {
    owner = await ownerOf(reference);
  } catch (error) {
    return { kind: "unknown", reason: `owner lookup: ${String(error)}` };
  }
  return owner ? statusOf(reference, owner) : { kind: "unknown", reason: "reference unknown to the owner lookup" };
}

/** A game as the real adapters return it: the port's shape plus the picture. */
export type ProviderGame = { code: string; name: string; tab: string; img: string | null };
export type ProviderGameList = { tabs: string[]; games: ProviderGame[] };
