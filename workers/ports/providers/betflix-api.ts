import { vientianeDate } from "../../core/vientiane";
import type { Figures } from "../provider";
import { answerBody, gameNamed, httpUrl, isRecord, isSuccessStatus, minorOf, trimSlash, type Exchange, type ProviderGame, type Unavailable } from "./http";

/**
 * Betflix v4's answers, as betflix.ts and betflix-members.ts read them: the envelope, the
 * failure texts that are read as refusals, the credit history's entries, the games_share
 * files, the report summary and the launch answer. Betflix publishes no documentation: the
 * sources named in brackets ([OAK], [TSA], [BFP], [EXP], [PHP], [RWD]) are the public clients
 * listed in betflix.ts's header.
 */

type Envelope = { ok: boolean; msg: string; data: unknown; raw: Record<string, unknown> };
export type Read = { kind: "envelope"; env: Envelope } | { kind: "unknown"; reason: string } | { kind: "unauthorized" };

/** [BFP]/[OAK] envelope: `status` "success" (error_code 0) or "error" with `msg`; HTTP 401/403 for bad keys. */
export function readEnvelope(reply: Exchange): Read {
  const answer = answerBody(reply, [401, 403]);
  if (answer.kind !== "body") return answer;
  const { body, status } = answer;
  if (typeof body.status !== "string") return { kind: "unknown", reason: `unparsable answer (HTTP ${status})` };
  const msg = typeof body.msg === "string" ? body.msg : typeof body.message === "string" ? body.message : "";
  if (body.status === "success") {
    if (!isSuccessStatus(status)) return { kind: "unknown", reason: `success with HTTP ${status}` };
    if (body.error_code !== undefined && Number(body.error_code) !== 0)
      return { kind: "unknown", reason: `success with error_code ${String(body.error_code)}` };
    return { kind: "envelope", env: { ok: true, msg, data: body.data, raw: body } };
  }
  if (body.status === "error") return { kind: "envelope", env: { ok: false, msg, data: body.data, raw: body } };
  return { kind: "unknown", reason: `status ${body.status}` };
}

/** A read that needs `status: "success"` (balance, launch, report): the envelope, or why the read is unavailable. */
export function readable(r: Read): { kind: "ok"; env: Envelope } | Unavailable {
  if (r.kind === "unknown") return { kind: "unavailable", reason: r.reason };
  if (r.kind === "unauthorized") return { kind: "unavailable", reason: "unauthorized" };
  if (!r.env.ok) return { kind: "unavailable", reason: r.env.msg || "error" };
  return { kind: "ok", env: r.env };
}

// Failure texts are not public: only these narrow patterns are read (betflix.ts header).
export const INSUFFICIENT = /insufficient|not enough|เครดิตไม่พอ|ยอดเงินไม่พอ/i;
export const MEMBER_MISSING = /user not found|member not found|username not found|ไม่พบ(ผู้ใช้|สมาชิก|ยูส)/i;
export const DUPLICATE = /duplicate|already|ซ้ำ/i;
/** [BFP]: "exist / duplicate / already" in `msg` means the member exists. */
export const EXISTS = /exist|duplicate|already|ซ้ำ/i;
/** A member name as Betflix could answer it: no spaces or markup; longer than any seen (20). */
export const MEMBER_NAME = /^[A-Za-z0-9_.@-]{1,64}$/;

export const DAY_MS = 24 * 60 * 60 * 1000;

/** YYYY-MM-DD in Asia/Bangkok, as the public clients send: Bangkok keeps Vientiane's UTC+7, no daylight saving. */
export const bangkokDate: (ms: number) => string = vientianeDate;

/** Fields that may carry the transfer reference in a history entry (shape not public). */
const REF_FIELDS = ["ref", "ref_id", "refId", "reference", "transactionRef"];
const AMOUNT_FIELDS = ["amount", "credit"];

/**
 * [TSA]/[EXP] creditHistory: is there an entry whose reference field equals ours exactly
 * (anywhere in `data`; the inner shape is not public), and does its sign agree with the
 * direction, when it carries an amount?
 */
export function historyEntry(data: unknown, reference: string, direction: "in" | "out"): "found" | "absent" | "other-direction" {
  const entry = findByReference(data, reference, 0);
  if (!entry) return "absent";
  for (const field of AMOUNT_FIELDS) {
    const minor = minorOf(entry[field], true);
    if (minor === null) continue;
    if ((direction === "in" && minor < 0n) || (direction === "out" && minor > 0n)) return "other-direction";
    break;
  }
  return "found";
}

function findByReference(value: unknown, reference: string, depth: number): Record<string, unknown> | null {
  if (depth > 4) return null;
  if (Array.isArray(value)) {
    for (const item of value) {
      const found = findByReference(item, reference, depth + 1);
      if (found) return found;
    }
    return null;
  }
  if (!isRecord(value)) return null;
  for (const field of REF_FIELDS) if (value[field] === reference) return value;
  for (const inner of Object.values(value)) {
    if (typeof inner === "object" && inner !== null) {
      const found = findByReference(inner, reference, depth + 1);
      if (found) return found;
    }
  }
  return null;
}

/**
 * [EXP]/[OAK] /v4/play/login: `data.launch_url` or `data.url` directly ([BFP]), else
 * `data.login_token`, opened as `{entrance}/login/apilogin/{token}`; null when neither.
 */
export function launchUrlOf(data: unknown, entrance: string): string | null {
  const fields = isRecord(data) ? data : {};
  for (const key of ["launch_url", "url"]) {
    const url = httpUrl(fields[key]);
    if (url) return url;
  }
  const token = fields.login_token;
  return typeof token === "string" && /^[A-Za-z0-9._~-]+$/.test(token) ? `${entrance}/login/apilogin/${token}` : null;
}

/** list.txt's shape is not public: strings, or objects naming the brand by code/provider/id. */
export function brandsOf(json: unknown): string[] {
  const items = Array.isArray(json) ? json : isRecord(json) && Array.isArray(json.data) ? json.data : [];
  const out: string[] = [];
  for (const item of items) {
    const code = typeof item === "string" ? item : isRecord(item) ? [item.code, item.provider, item.id].find((v) => typeof v === "string" && v) : undefined;
    if (typeof code === "string" && /^[a-z0-9_-]+$/i.test(code) && !out.includes(code.toLowerCase())) out.push(code.toLowerCase());
  }
  return out;
}

/** [PHP] games_share/{brand}.txt: a JSON array of `{ code, name, type, img }`, `img` relative to the image host (`imageBase`). */
export function gamesOf(items: unknown[], brand: string, imageBase: string): ProviderGame[] {
  const base = trimSlash(imageBase);
  const games: ProviderGame[] = [];
  for (const item of items) {
    if (!isRecord(item)) continue;
    const named = gameNamed(item);
    if (!named) continue;
    const img = typeof item.img === "string" && item.img ? (httpUrl(item.img) ?? `${base}/${item.img.replace(/^\/+/, "")}`) : null;
    games.push({ ...named, tab: brand, img });
  }
  return games;
}

/** [OAK] /v4/report/summary `data.turnover` as minor units (absent: 0), or null when unreadable. */
export function turnoverOf(data: unknown): bigint | null {
  const raw = isRecord(data) ? data.turnover : undefined;
  return raw === null || raw === undefined ? 0n : minorOf(raw);
}

/**
 * A member's period from /v4/report/summary: turnover = `valid_amount` where answered
 * ([RWD], [EXP]: valid bets), else `turnover`; win/loss = -`winloss` (Betflix answers the
 * member's side, [RWD]; ours is the agency's). null when the amounts cannot be read.
 */
export function summaryFigures(data: Record<string, unknown>): Figures | null {
  const valid = data.valid_amount ?? data.turnover;
  const turnover = valid === undefined || valid === null ? 0n : minorOf(valid);
  const memberSide = data.winloss === undefined || data.winloss === null ? 0n : minorOf(data.winloss, true);
  if (turnover === null || memberSide === null) return null;
  return { turnoverMinor: turnover, winLossMinor: -memberSide };
}
