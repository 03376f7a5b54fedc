import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { checkTelegramBot, telegramChannel, type TelegramSetup } from "../../workers/ports/alert-channels/telegram";
import type { AlertSendResult } from "../../workers/ports/alerts";
import { FakeServer, json, type RecordedRequest, type Reply } from "./fake-server";

/**
 * The Telegram adapter of the alert port (workers/ports/alert-channels/telegram.ts) against a
 * real HTTP server answering what the Bot API answers (shapes: the adapter's header). Each
 * answer Telegram gives maps to one outcome of the port; the bot token, which Telegram puts
 * in the URL, never comes back in a description.
 */

/** Shaped like BotFather's tokens: the bot id, a colon, 35 letters and digits. */
const TOKEN = "7012345678:AAH3xk9Zp2QwErTyUiOpAsDfGhJkLzXcVb1";
const SECRET = TOKEN.slice(TOKEN.indexOf(":") + 1);
const CHAT = "-1001234567890";
const TIMEOUT_MS = 300;

/** What the fake answers next (one per request), else a sent message. */
let replies: Reply[];
let nextMessageId = 0;
const fake = new FakeServer((req) => replies.shift() ?? sentMessage(req));

function sentMessage(req: RecordedRequest): Reply {
  const body = JSON.parse(req.body) as { chat_id: string; text: string };
  return json(200, {
    ok: true,
    result: {
      message_id: ++nextMessageId,
      from: { id: 7012345678, is_bot: true, first_name: "Alerts", username: "agency_alerts_bot" },
      chat: { id: Number(body.chat_id), title: "Cashiers", type: "supergroup" },
      date: 1795304252,
      text: body.text,
    },
  });
}

function failure(status: number, description: string, parameters?: Record<string, unknown>): Reply {
  return json(status, { ok: false, error_code: status, description, ...(parameters ? { parameters } : {}) });
}

function channel(overrides: Partial<TelegramSetup> = {}) {
  return telegramChannel({ token: TOKEN, baseUrl: fake.baseUrl, timeoutMs: TIMEOUT_MS, ...overrides });
}

const send = (text = "Withdrawal W123 waits for staff", overrides: Partial<TelegramSetup> = {}) => channel(overrides).send({ chatId: CHAT, text });

/** Every outcome the tests saw: none may carry the token. */
const seen: AlertSendResult[] = [];
async function sendAndKeep(overrides: Partial<TelegramSetup> = {}): Promise<AlertSendResult> {
  const result = await send(undefined, overrides);
  seen.push(result);
  return result;
}

beforeAll(() => fake.start());
afterAll(() => fake.stop());
beforeEach(() => {
  replies = [];
  fake.clearRequests();
});

describe("sendMessage as the Bot API expects it", () => {
  it("POSTs JSON to /bot<token>/sendMessage with the chat, the text and no link preview; an accepted message is sent with Telegram's message id", async () => {
    const result = await sendAndKeep();
    expect(result).toEqual({ kind: "sent", messageId: String(nextMessageId) });
    const [req] = fake.requests;
    expect(req!.method).toBe("POST");
    expect(req!.path).toBe(`/bot${TOKEN}/sendMessage`);
    expect(req!.headers["content-type"]).toMatch(/^application\/json/);
    expect(JSON.parse(req!.body)).toEqual({ chat_id: CHAT, text: "Withdrawal W123 waits for staff", link_preview_options: { is_disabled: true } });
  });

  it("a token that is not a bot token is rejected without a request", async () => {
    const result = await send(undefined, { token: "123/../getUpdates?x=" });
    expect(result).toMatchObject({ kind: "rejected", status: 0 });
    expect(fake.requests).toHaveLength(0);
  });
});

describe("each answer of Telegram is one outcome of the port", () => {
  it("429 flood control: rate-limited for parameters.retry_after seconds, 30 when Telegram gives none", async () => {
    replies.push(failure(429, "Too Many Requests: retry after 17", { retry_after: 17 }));
    expect(await sendAndKeep()).toEqual({ kind: "rate-limited", retryAfterSeconds: 17, description: "Too Many Requests: retry after 17" });
    replies.push(failure(429, "Too Many Requests"));
    expect(await sendAndKeep()).toMatchObject({ kind: "rate-limited", retryAfterSeconds: 30 });
    // a 429 from something in front of Telegram, not in the Bot API's shape
    replies.push({ status: 429, body: "<html>slow down</html>", contentType: "text/html" });
    expect(await sendAndKeep()).toMatchObject({ kind: "rate-limited", retryAfterSeconds: 30 });
  });

  it("400, 401, 403, 404: rejected with Telegram's code and description (staff must fix the setup)", async () => {
    const cases: [number, string][] = [
      [400, "Bad Request: chat not found"],
      [400, "Bad Request: message is too long"],
      [401, "Unauthorized"],
      [403, "Forbidden: bot was kicked from the group chat"],
      [404, "Not Found"],
    ];
    for (const [status, description] of cases) {
      replies.push(failure(status, description));
      expect(await sendAndKeep()).toEqual({ kind: "rejected", status, description });
    }
  });

  it("a group that became a supergroup: rejected, and the description gives the new chat id", async () => {
    replies.push(failure(400, "Bad Request: group chat was upgraded to a supergroup chat", { migrate_to_chat_id: -1009876543210 }));
    const result = await sendAndKeep();
    expect(result).toMatchObject({ kind: "rejected", status: 400 });
    expect(result.kind === "rejected" && result.description).toContain("-1009876543210");
  });

  it("5xx, a body that is not the Bot API's (whatever its status but 429), an empty body: unavailable (worth retrying)", async () => {
    replies.push(failure(500, "Internal Server Error"));
    expect(await sendAndKeep()).toEqual({ kind: "unavailable", description: "Internal Server Error" });
    replies.push(failure(502, "Bad Gateway"));
    expect(await sendAndKeep()).toMatchObject({ kind: "unavailable" });
    fake.fault(`/bot${TOKEN}/sendMessage`, "http500");
    expect(await sendAndKeep()).toMatchObject({ kind: "unavailable", description: expect.stringContaining("HTTP 500") });
    fake.fault(`/bot${TOKEN}/sendMessage`, "garbage");
    expect(await sendAndKeep()).toMatchObject({ kind: "unavailable", description: expect.stringContaining("not a Bot API answer") });
    replies.push({ status: 200, body: "" });
    expect(await sendAndKeep()).toEqual({ kind: "unavailable", description: "HTTP 200, empty answer" });
    // a refusal by something in front of Telegram (a proxy, a firewall) says nothing about the setup
    replies.push({ status: 403, body: "<html>Access denied</html>", contentType: "text/html" });
    expect(await sendAndKeep()).toMatchObject({ kind: "unavailable", description: expect.stringContaining("HTTP 403") });
  });

  it("no answer within the deadline: unavailable, after timeoutMs", async () => {
    fake.fault(`/bot${TOKEN}/sendMessage`, "timeout");
    const started = Date.now();
    const result = await sendAndKeep();
    expect(result).toEqual({ kind: "unavailable", description: `no answer from Telegram: timeout after ${TIMEOUT_MS} ms` });
    expect(Date.now() - started).toBeLessThan(TIMEOUT_MS + 1500);
  });

  it("nobody listening: unavailable", async () => {
    const closed = new FakeServer(() => json(200, {}));
    const baseUrl = await closed.start();
    await closed.stop();
    expect(await sendAndKeep({ baseUrl })).toMatchObject({ kind: "unavailable", description: expect.stringContaining("no answer from Telegram: network") });
  });
});

describe("the bot token never comes back", () => {
  it("not from a description that quotes the URL, an error page that does, nor a network error that names it", async () => {
    const url = `${fake.baseUrl}/bot${TOKEN}/sendMessage`;
    replies.push(failure(400, `Bad Request: wrong path ${url}`));
    replies.push({ status: 502, body: `<html>upstream ${encodeURIComponent(TOKEN)} failed</html>`, contentType: "text/html" });
    replies.push(failure(429, `Too Many Requests for bot ${SECRET}`, { retry_after: 3 }));
    const leaking = [await sendAndKeep(), await sendAndKeep(), await sendAndKeep()];
    const throwing: typeof fetch = async (input) => {
      throw new TypeError(`fetch failed: connect ECONNREFUSED ${String(input)}`);
    };
    leaking.push(await sendAndKeep({ fetch: throwing }));
    const check = await checkTelegramBot({ token: TOKEN, baseUrl: fake.baseUrl, fetch: throwing });
    expect(leaking.map((r) => r.kind)).toEqual(["rejected", "unavailable", "rate-limited", "unavailable"]);
    for (const text of [...seen.map((r) => JSON.stringify(r)), JSON.stringify(check)]) {
      expect(text).not.toContain(SECRET);
      expect(text).not.toContain(encodeURIComponent(TOKEN));
    }
    expect(JSON.stringify(leaking)).toContain("<bot token>");
  });
});

describe("checkTelegramBot: the settings page's check (getMe)", () => {
  it("a working token answers the bot's username", async () => {
    replies.push(json(200, { ok: true, result: { id: 7012345678, is_bot: true, first_name: "Alerts", username: "agency_alerts_bot" } }));
    expect(await checkTelegramBot({ token: TOKEN, baseUrl: fake.baseUrl })).toEqual({ ok: true, username: "agency_alerts_bot" });
    expect(fake.requests[0]!.path).toBe(`/bot${TOKEN}/getMe`);
  });

  it("a revoked token, a token that is not one, no answer: Telegram's reason", async () => {
    replies.push(failure(401, "Unauthorized"));
    expect(await checkTelegramBot({ token: TOKEN, baseUrl: fake.baseUrl })).toEqual({ ok: false, description: "Unauthorized" });
    expect(await checkTelegramBot({ token: "not a token", baseUrl: fake.baseUrl })).toMatchObject({ ok: false });
    fake.fault(`/bot${TOKEN}/getMe`, "timeout");
    expect(await checkTelegramBot({ token: TOKEN, baseUrl: fake.baseUrl, timeoutMs: TIMEOUT_MS })).toEqual({
      ok: false,
      description: `no answer from Telegram: timeout after ${TIMEOUT_MS} ms`,
    });
  });
});
