import type { AlertChannel, AlertMessage, AlertSendResult } from "../alerts";
import { exchange, isRecord, trimSlash, type Exchange, type FetchLike } from "../providers/http";

/**
 * The Telegram adapter of the alert port: one Bot API call per message.
 *
 * Where each shape comes from:
 * - Request: `POST https://api.telegram.org/bot<token>/sendMessage`, parameters as JSON
 *   (core.telegram.org/bots/api "Making requests": query string, urlencoded, JSON or
 *   multipart). sendMessage's `chat_id` ("Integer or String", sent as the string staff typed),
 *   `text` (1-4096 characters) and `link_preview_options: { is_disabled: true }` (Bot API 7.0,
 *   replacing `disable_web_page_preview`): an alert's link is to our own back office, a
 *   preview of its login page helps nobody. core.telegram.org/bots/api#sendmessage.
 * - Answer: `{ ok: true, result: Message }` (`result.message_id`), or `{ ok: false,
 *   error_code, description, parameters?: ResponseParameters }`, where `retry_after` is the
 *   seconds to wait after flood control and `migrate_to_chat_id` the new id of a group that
 *   became a supergroup ("Making requests", #responseparameters; grammyjs/types api.ts).
 * - Failures seen in the field (issue threads of bot libraries): 429 "Too Many Requests: retry
 *   after 34" with `parameters.retry_after` 34; 400 "Bad Request: chat not found", "Bad
 *   Request: message is too long", "Bad Request: message text is empty"; 401 "Unauthorized"
 *   (a revoked token); 404 "Not Found" (a token that is not one); 403 "Forbidden: bot was
 *   kicked from the group chat" / "...supergroup chat", "Forbidden: bot was blocked by the user".
 * - getMe: `{ ok: true, result: User }` with `id`, `is_bot`, `first_name`, `username`
 *   (core.telegram.org/bots/api#getme).
 *
 * The token is part of the URL, so it can surface in a network error's text: every text this
 * adapter returns goes through `redact` first, and it never logs.
 */

/** Telegram's API host; the sandbox (alert-channel-factory.ts) and the tests pass their own. */
const TELEGRAM_API = "https://api.telegram.org";
const DEFAULT_TIMEOUT_MS = 10_000;
/** A 429 without `parameters.retry_after` (seen behind proxies): wait this long. */
const DEFAULT_RETRY_AFTER_S = 30;
/** BotFather's tokens: the bot's numeric id, a colon, then letters, digits, - and _. */
const TOKEN_SHAPE = /^\d{1,20}:[A-Za-z0-9_-]{1,100}$/;
/** What stands for the token wherever it would have been written out. */
const HIDDEN = "<bot token>";

export type TelegramSetup = {
  token: string;
  /** Default https://api.telegram.org. */
  baseUrl?: string;
  /** Tests and the sandbox's service binding inject theirs; production uses the global fetch. */
  fetch?: FetchLike;
  /** Default 10 s; the body is read under the same deadline. */
  timeoutMs?: number;
};

/**
 * A token that is not a bot token is refused without a request (`rejected`, status 0): it
 * would only meet Telegram's 404, and a token with a "/" or "?" would change the URL.
 */
export function telegramChannel(setup: TelegramSetup): AlertChannel {
  return {
    name: "telegram",
    async send(message: AlertMessage): Promise<AlertSendResult> {
      if (!TOKEN_SHAPE.test(setup.token))
        return { kind: "rejected", status: 0, description: "the bot token is not a Telegram bot token (<digits>:<letters>); nothing was sent" };
      const answer = await callBotApi(setup, "sendMessage", { chat_id: message.chatId, text: message.text, link_preview_options: { is_disabled: true } });
      return sendResultOf(answer, setup.token);
    },
  };
}

/** The settings page's check of a token: who the bot is, or Telegram's reason. */
export type BotCheck = { ok: true; username: string } | { ok: false; description: string };

export async function checkTelegramBot(setup: TelegramSetup): Promise<BotCheck> {
  if (!TOKEN_SHAPE.test(setup.token)) return { ok: false, description: "the bot token is not a Telegram bot token (<digits>:<letters>)" };
  const answer = await callBotApi(setup, "getMe", {});
  if (answer.kind === "no-answer") return { ok: false, description: redact(`no answer from Telegram: ${answer.reason}`, setup.token) };
  const body = answer.json;
  if (isRecord(body) && body.ok === true && isRecord(body.result)) {
    const { username, first_name } = body.result;
    return { ok: true, username: typeof username === "string" ? username : String(first_name ?? "") };
  }
  return { ok: false, description: redact(failureText(answer), setup.token) };
}

function callBotApi(setup: TelegramSetup, method: string, parameters: Record<string, unknown>): Promise<Exchange> {
  const url = `${trimSlash(setup.baseUrl ?? TELEGRAM_API)}/bot${setup.token}/${method}`;
  const init: RequestInit = { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(parameters) };
  return exchange(setup.fetch ?? fetch, url, init, setup.timeoutMs ?? DEFAULT_TIMEOUT_MS);
}

/**
 * One answer as the port's outcome: accepted; flood control (429, by HTTP status or
 * error_code); a refusal no retry can change (4xx: token, chat, text); or nothing usable
 * (no answer, a 5xx, a body that is not the Bot API's), worth trying again.
 */
function sendResultOf(answer: Exchange, token: string): AlertSendResult {
  if (answer.kind === "no-answer") return { kind: "unavailable", description: redact(`no answer from Telegram: ${answer.reason}`, token) };
  const body = answer.json;
  const botApiAnswer = isRecord(body) && typeof body.ok === "boolean";
  if (botApiAnswer && body.ok === true && answer.status >= 200 && answer.status < 300) {
    // Accepted: a message id we cannot read still means the message is in the chat.
    const id = isRecord(body.result) ? body.result.message_id : undefined;
    return { kind: "sent", messageId: typeof id === "number" || typeof id === "string" ? String(id) : "" };
  }
  const code = botApiAnswer && typeof body.error_code === "number" ? body.error_code : answer.status;
  const description = redact(failureText(answer), token);
  if (code === 429 || answer.status === 429) return { kind: "rate-limited", retryAfterSeconds: retryAfterOf(body), description };
  if (!botApiAnswer || code >= 500 || answer.status >= 500) return { kind: "unavailable", description };
  if (code >= 400 && code < 500) return { kind: "rejected", status: code, description };
  return { kind: "unavailable", description };
}

function retryAfterOf(body: unknown): number {
  const seconds = isRecord(body) && isRecord(body.parameters) ? body.parameters.retry_after : undefined;
  return typeof seconds === "number" && Number.isFinite(seconds) && seconds >= 0 ? Math.ceil(seconds) : DEFAULT_RETRY_AFTER_S;
}

/** Telegram's description (with a migrated group's new chat id), or what came back instead. */
function failureText(answer: Extract<Exchange, { kind: "answer" }>): string {
  const body = answer.json;
  if (isRecord(body) && typeof body.description === "string") {
    const moved = isRecord(body.parameters) ? body.parameters.migrate_to_chat_id : undefined;
    return moved === undefined ? body.description : `${body.description} (the group's new chat id is ${String(moved)})`;
  }
  const text = answer.text.replace(/\s+/g, " ").trim().slice(0, 120);
  return `HTTP ${answer.status}${text ? `, not a Bot API answer: ${text}` : ", empty answer"}`;
}

/** The text with the token (as written, or percent-encoded in a URL) and its secret part hidden. */
function redact(text: string, token: string): string {
  if (token === "") return text;
  const secret = token.slice(token.indexOf(":") + 1);
  let out = text.split(token).join(HIDDEN).split(encodeURIComponent(token)).join(HIDDEN);
  // The secret part alone (a URL printed in pieces); a very short one would hide ordinary words.
  if (secret.length >= 8) out = out.split(secret).join(HIDDEN);
  return out;
}
