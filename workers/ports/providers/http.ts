import { canonicalAmount, formatAmount, parseSignedAmount } from "../../core/money";

/**
 * What the real provider adapters (amb.ts, betflix.ts) share: one HTTP exchange with a
 * deadline, and the reading of amounts that providers send as strings or as numbers.
 * Runs in Workers and in Node alike: global fetch and AbortSignal.timeout, no node: imports.
 */

export type FetchLike = typeof fetch;

/**
 * The provider answered something (any status, any body), or it did not (timeout, network
 * error, connection reset). `json` is undefined when the body is not JSON.
 */
export type Exchange =
  | { kind: "answer"; status: number; text: string; json: unknown }
  | { kind: "no-answer"; reason: string };

export async function exchange(fetchFn: FetchLike, url: string, init: RequestInit, timeoutMs: number): Promise<Exchange> {
  try {
    const res = await fetchFn(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    // The body is read under the same deadline: a provider that sends headers then stalls
    // is a timeout too.
    const text = await res.text();
    let json: unknown = undefined;
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

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
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

/** A positive transfer amount in our format, normalised to 2 decimals ("100" -> "100.00"): core/money's canonical form. */
export function transferAmount(amount: string): string | null {
  return canonicalAmount(amount, "THB");
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
 * Whose transfer a reference is, for providers whose status call needs the player: the
 * owner, or the unknown outcome to answer (never a guess) when nobody can tell.
 */
export async function lookUpOwner(ownerOf: OwnerLookup | undefined, reference: string, noLookupReason: string): Promise<{ owner: TransferOwner } | { kind: "unknown"; reason: string }> {
  if (!ownerOf) return { kind: "unknown", reason: noLookupReason };
  try {
    const owner = await ownerOf(reference);
    return owner ? { owner } : { kind: "unknown", reason: "reference unknown to the owner lookup" };
  } catch (error) {
    return { kind: "unknown", reason: `owner lookup: ${String(error)}` };
  }
}

/** A game as the real adapters return it: the port's shape plus the picture. */
export type ProviderGame = { code: string; name: string; tab: string; img: string | null };
export type ProviderGameList = { tabs: string[]; games: ProviderGame[] };
