/**
 * Sandbox Telegram: a fake Bot API for the portal's staff alerts (decision 057). Local
 * development and tests only; never deployed. docs/sandbox-telegram.md describes it.
 *
 *   /bot<token>/sendMessage, /bot<token>/getMe   the Bot API (JSON, form or query parameters)
 *   /                                            the messages received, per chat (HTML)
 *   /control/*                                   test controls: messages, faults, limits, chats,
 *                                                clock, reset (never reachable through the portal)
 */
import {
  DEFAULT_LIMITS,
  FAULT_MODES,
  MAIN_OBJECT,
  type BotAnswer,
  type FaultMode,
  type FaultSpec,
  type Limits,
  type SandboxTelegram,
  type TelegramEnv,
} from "./telegram";
import { messagesPage, PAGE_CSP } from "./page";

export { SandboxTelegram } from "./telegram";

/** The Bot API's path: https://api.telegram.org/bot<token>/METHOD_NAME (methods are case-insensitive). */
const BOT_PATH = /^\/bot([^/]*)\/([A-Za-z]+)$/;
/** A bot token as BotFather issues it: the bot's id, a colon, then letters, digits, - and _. */
const TOKEN = /^\d{1,20}:[A-Za-z0-9_-]{1,100}$/;
const MESSAGES_PER_CHAT_ON_PAGE = 100;
const MAX_HANG_MS = 120_000;

function telegram(env: TelegramEnv): DurableObjectStub<SandboxTelegram> {
  return env.TELEGRAM.get(env.TELEGRAM.idFromName(MAIN_OBJECT));
}

function json(body: unknown, status = 200): Response {
  return Response.json(body, { status, headers: { "cache-control": "no-store" } });
}

/** Telegram's answer to a path it has no method for (also a token that is not a token). */
function notFound(): Response {
  return json({ ok: false, error_code: 404, description: "Not Found" }, 404);
}

function badRequest(description: string): Response {
  return json({ ok: false, error_code: 400, description: `Bad Request: ${description}` }, 400);
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The answer, after the hold a fault asked for (the sender has given up by then). */
async function reply(answer: BotAnswer): Promise<Response> {
  if (answer.holdMs > 0) await sleep(answer.holdMs);
  return json(answer.body, answer.status);
}

/**
 * A method's parameters, the four ways the Bot API accepts them ("Making requests"): the
 * query string, application/json, application/x-www-form-urlencoded, multipart/form-data.
 */
async function readParameters(request: Request, url: URL): Promise<Record<string, unknown> | null> {
  const params: Record<string, unknown> = Object.fromEntries(url.searchParams);
  if (request.method !== "POST") return params;
  const type = (request.headers.get("content-type") ?? "").toLowerCase();
  if (type.startsWith("application/json")) {
    try {
      const body: unknown = await request.json();
      return typeof body === "object" && body !== null && !Array.isArray(body) ? { ...params, ...(body as Record<string, unknown>) } : null;
    } catch {
      return null;
    }
  }
  if (type.startsWith("application/x-www-form-urlencoded") || type.startsWith("multipart/form-data")) {
    const form = await request.formData();
    for (const [key, value] of form) if (typeof value === "string") params[key] = value;
  }
  return params;
}

/** chat_id is "Integer or String": -1001000000001 and "-1001000000001" are the same chat. */
function chatIdOf(value: unknown): string | null {
  if (typeof value === "number" && Number.isInteger(value)) return String(value);
  return typeof value === "string" ? value.trim() : null;
}

async function botApi(request: Request, env: TelegramEnv, url: URL, rawToken: string, method: string): Promise<Response> {
  let token: string;
  try {
    token = decodeURIComponent(rawToken);
  } catch {
    return notFound();
  }
  if (!TOKEN.test(token)) return notFound();
  const name = method.toLowerCase();
  if (name === "getme") return reply(await telegram(env).getMe(token));
  if (name !== "sendmessage") return notFound();
  const params = await readParameters(request, url);
  if (params === null) return badRequest("the request body is not a JSON object");
  const text = typeof params.text === "string" ? params.text : null;
  return reply(await telegram(env).sendMessage(token, chatIdOf(params.chat_id), text));
}

// ---- test controls ------------------------------------------------------------------------

function controlError(message: string, status = 400): Response {
  return json({ error: message }, status);
}

async function readObject(request: Request): Promise<Record<string, unknown> | null> {
  try {
    const body: unknown = await request.json();
    return typeof body === "object" && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

function isInt(value: unknown, min: number, max: number): value is number {
  return typeof value === "number" && Number.isInteger(value) && value >= min && value <= max;
}

/** `{ mode, count?, retryAfter?, hangMs?, chatId? }` (docs/sandbox-telegram.md "Faults"). */
function parseFault(body: Record<string, unknown>): FaultSpec | string {
  const { mode, count = 1, retryAfter = 5, hangMs = 15_000, chatId = null } = body;
  if (typeof mode !== "string" || !(FAULT_MODES as readonly string[]).includes(mode)) return `mode must be one of ${FAULT_MODES.join(", ")}`;
  if (!isInt(count, 1, 10_000)) return "count must be an integer from 1 to 10000";
  if (!isInt(retryAfter, 1, 86_400)) return "retryAfter must be whole seconds from 1 to 86400";
  if (!isInt(hangMs, 0, MAX_HANG_MS)) return `hangMs must be an integer from 0 to ${MAX_HANG_MS}`;
  if (chatId !== null && typeof chatId !== "string") return "chatId must be a string";
  return { mode: mode as FaultMode, count, retryAfter, hangMs, chatId };
}

function parseLimits(body: Record<string, unknown>): Partial<Limits> | string {
  const limits: Partial<Limits> = {};
  for (const key of Object.keys(DEFAULT_LIMITS) as (keyof Limits)[]) {
    if (body[key] === undefined) continue;
    if (!isInt(body[key], 1, 100_000)) return `${key} must be an integer from 1 to 100000`;
    limits[key] = body[key];
  }
  return limits;
}

async function control(request: Request, env: TelegramEnv, url: URL, path: string): Promise<Response> {
  const stub = telegram(env);
  const route = `${request.method} ${path}`;
  if (route === "GET /control/messages") return json({ messages: await stub.messages(url.searchParams.get("chat")) });
  if (route === "GET /control/faults") return json({ faults: await stub.faults() });
  if (route === "GET /control/limits") return json({ limits: await stub.limits() });
  if (route === "POST /control/reset") {
    await stub.reset();
    return json({ reset: true });
  }
  if (request.method !== "POST") return controlError("no such control", 404);
  const body = await readObject(request);
  if (body === null) return controlError("the body must be a JSON object");
  if (path === "/control/faults") {
    const spec = parseFault(body);
    return typeof spec === "string" ? controlError(spec) : json({ fault: await stub.addFault(spec) }, 201);
  }
  if (path === "/control/limits") {
    const limits = parseLimits(body);
    return typeof limits === "string" ? controlError(limits) : json({ limits: await stub.setLimits(limits) });
  }
  if (path === "/control/chats") {
    const { token, chatId, title = "Sandbox chat", kicked = false } = body;
    if (typeof token !== "string" || !TOKEN.test(token)) return controlError("token must be a bot token: <digits>:<letters, digits, - and _>");
    if (typeof chatId !== "string" || !/^-?\d{1,20}$/.test(chatId)) return controlError("chatId must be a chat id such as -1001000000003");
    if (typeof title !== "string" || typeof kicked !== "boolean") return controlError("title must be a string and kicked a boolean");
    await stub.addChat({ token, chatId, title, kicked });
    return json({ chat: { token, chatId, title, kicked } }, 201);
  }
  if (path === "/control/clock") {
    if (!isInt(body.advanceMs, 1, 7 * 24 * 3600_000)) return controlError("advanceMs must be a positive integer (at most a week)");
    return json({ offsetMs: await stub.advanceClock(body.advanceMs) });
  }
  return controlError("no such control", 404);
}

function html(body: string): Response {
  return new Response(body, {
    headers: {
      "content-type": "text/html; charset=utf-8",
      "cache-control": "no-store",
      "content-security-policy": PAGE_CSP,
      "x-content-type-options": "nosniff",
    },
  });
}

export default {
  async fetch(request: Request, env: TelegramEnv): Promise<Response> {
    const url = new URL(request.url);
    const path = url.pathname;
    const bot = BOT_PATH.exec(path);
    if (bot) return botApi(request, env, url, bot[1]!, bot[2]!);
    if (path.startsWith("/control/")) return control(request, env, url, path);
    if (path === "/health") return json({ status: "ok" });
    if (path === "/" && (request.method === "GET" || request.method === "HEAD")) {
      const chat = url.searchParams.get("chat");
      return html(messagesPage(await telegram(env).chatsWithMessages(MESSAGES_PER_CHAT_ON_PAGE), chat || null));
    }
    return notFound();
  },
} satisfies ExportedHandler<TelegramEnv>;
