import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from "vitest";
import { env } from "cloudflare:workers";
import { alertChannelFor, checkAlertBot, SANDBOX_TELEGRAM_CHATS, SANDBOX_TELEGRAM_TOKEN } from "../../workers/ports/alert-channel-factory";
import { checkTelegramBot, telegramChannel, type TelegramSetup } from "../../workers/ports/alert-channels/telegram";

/**
 * The sandbox Telegram (workers/sandbox/telegram, docs/sandbox-telegram.md) reached the way the
 * portal reaches it: the alert channel of the demo bot's token through the SANDBOX_TELEGRAM
 * binding. What it received is read back from its controls.
 */

const [CASHIERS, OWNERS] = SANDBOX_TELEGRAM_CHATS;
const SANDBOX = "http://sandbox-telegram";

function sandbox(path: string, init?: RequestInit): Promise<Response> {
  return env.SANDBOX_TELEGRAM.fetch(`${SANDBOX}${path}`, init);
}

async function control(path: string, body: unknown): Promise<Response> {
  const res = await sandbox(path, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  expect(res.status, await res.clone().text()).toBeLessThan(300);
  return res;
}

type Received = { messageId: number; chatId: string; text: string; receivedAt: string };
async function received(chat: string): Promise<Received[]> {
  const res = await sandbox(`/control/messages?chat=${encodeURIComponent(chat)}`);
  return ((await res.json()) as { messages: Received[] }).messages;
}

/** Any token at the sandbox (the factory sends only the demo token there). */
function atSandbox(token: string, timeoutMs?: number): TelegramSetup {
  return { token, baseUrl: SANDBOX, fetch: (input, init) => env.SANDBOX_TELEGRAM.fetch(input, init), timeoutMs };
}

const demo = () => alertChannelFor(env, SANDBOX_TELEGRAM_TOKEN);
/** The per-second limit out of the way, for tests about something else. */
const noPerSecondLimit = () => control("/control/limits", { perSecondToChat: 1000 });

beforeEach(async () => {
  await control("/control/reset", {});
});

describe("the demo bot's token reaches the sandbox through the binding", () => {
  it("a message to the cashiers' group is sent, with Telegram's per-chat message ids, and the sandbox received it", async () => {
    await noPerSecondLimit();
    expect(await demo().send({ chatId: CASHIERS, text: "Withdrawal W1 waits" })).toEqual({ kind: "sent", messageId: "1" });
    expect(await demo().send({ chatId: CASHIERS, text: "Withdrawal W2 waits" })).toEqual({ kind: "sent", messageId: "2" });
    expect(await demo().send({ chatId: OWNERS, text: "Daily summary" })).toEqual({ kind: "sent", messageId: "1" });
    expect((await received(CASHIERS)).map((m) => [m.messageId, m.text])).toEqual([
      [1, "Withdrawal W1 waits"],
      [2, "Withdrawal W2 waits"],
    ]);
    expect((await received(OWNERS)).map((m) => m.text)).toEqual(["Daily summary"]);
  });

  it("the settings page's check answers the demo bot's username", async () => {
    expect(await checkAlertBot(env, SANDBOX_TELEGRAM_TOKEN)).toEqual({ ok: true, username: "sandbox_alerts_bot" });
  });

  describe("anything else goes to Telegram itself", () => {
    let fetchSpy: MockInstance<typeof fetch>;
    beforeEach(() => {
      fetchSpy = vi.spyOn(globalThis, "fetch").mockImplementation(async () => Response.json({ ok: true, result: { message_id: 99 } }));
    });
    afterEach(() => fetchSpy.mockRestore());

    it("another token, or the demo token where there is no sandbox binding (a deployed agency)", async () => {
      const real = "7012345678:AAH3xk9Zp2QwErTyUiOpAsDfGhJkLzXcVb1";
      expect(await alertChannelFor(env, real).send({ chatId: CASHIERS, text: "x" })).toEqual({ kind: "sent", messageId: "99" });
      const deployed = { ...env, SANDBOX_TELEGRAM: undefined } as unknown as Env;
      expect(await alertChannelFor(deployed, SANDBOX_TELEGRAM_TOKEN).send({ chatId: CASHIERS, text: "x" })).toEqual({ kind: "sent", messageId: "99" });
      expect(fetchSpy.mock.calls.map((call) => String(call[0]))).toEqual([
        `https://api.telegram.org/bot${real}/sendMessage`,
        `https://api.telegram.org/bot${SANDBOX_TELEGRAM_TOKEN}/sendMessage`,
      ]);
      expect(await received(CASHIERS)).toEqual([]);
    });
  });
});

describe("the sandbox answers what Telegram answers", () => {
  it("an unknown chat, an empty text, a text over 4096 characters: 400 with Telegram's words, nothing received", async () => {
    expect(await demo().send({ chatId: "-1009999999999", text: "x" })).toEqual({ kind: "rejected", status: 400, description: "Bad Request: chat not found" });
    expect(await demo().send({ chatId: CASHIERS, text: "  " })).toEqual({ kind: "rejected", status: 400, description: "Bad Request: message text is empty" });
    expect(await demo().send({ chatId: CASHIERS, text: "x".repeat(4097) })).toEqual({
      kind: "rejected",
      status: 400,
      description: "Bad Request: message is too long",
    });
    expect(await demo().send({ chatId: CASHIERS, text: "x".repeat(4096) })).toMatchObject({ kind: "sent" });
    expect(await received(CASHIERS)).toHaveLength(1);
  });

  it("a token it does not know: 401 Unauthorized; a bot removed from the group: 403", async () => {
    const stranger = telegramChannel(atSandbox("555:not-a-bot-the-sandbox-knows"));
    expect(await stranger.send({ chatId: CASHIERS, text: "x" })).toEqual({ kind: "rejected", status: 401, description: "Unauthorized" });
    await control("/control/chats", { token: SANDBOX_TELEGRAM_TOKEN, chatId: OWNERS, title: "Owners", kicked: true });
    expect(await demo().send({ chatId: OWNERS, text: "x" })).toMatchObject({
      kind: "rejected",
      status: 403,
      description: expect.stringMatching(/^Forbidden: bot was kicked/),
    });
    expect(await checkTelegramBot(atSandbox("555:not-a-bot-the-sandbox-knows"))).toEqual({ ok: false, description: "Unauthorized" });
  });

  it("accepts the Bot API's other ways of passing parameters: a form, the query string, chat_id as a number", async () => {
    const form = await sandbox(`/bot${SANDBOX_TELEGRAM_TOKEN}/sendMessage`, {
      method: "POST",
      body: new URLSearchParams({ chat_id: CASHIERS, text: "by form" }),
    });
    expect(form.status).toBe(200);
    expect(await form.json()).toMatchObject({
      ok: true,
      result: { message_id: 1, chat: { id: Number(CASHIERS), type: "supergroup" }, text: "by form", from: { is_bot: true, username: "sandbox_alerts_bot" } },
    });
    await noPerSecondLimit();
    const query = await sandbox(`/bot${SANDBOX_TELEGRAM_TOKEN}/SENDMESSAGE?chat_id=${CASHIERS}&text=by%20query`);
    expect(query.status).toBe(200);
    const asNumber = await sandbox(`/bot${SANDBOX_TELEGRAM_TOKEN}/sendMessage`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: `{"chat_id":${CASHIERS},"text":"as number"}`,
    });
    expect(asNumber.status).toBe(200);
    expect((await received(CASHIERS)).map((m) => m.text)).toEqual(["by form", "by query", "as number"]);
    const malformed = await sandbox("/botnot-a-token/getMe");
    expect([malformed.status, await malformed.json()]).toEqual([404, { ok: false, error_code: 404, description: "Not Found" }]);
  });
});

describe("flood limits: 20 messages a minute to a group, one a second to a chat", () => {
  it("the 21st message to a group within a minute answers 429 with retry_after; the other group is not limited; a minute later it goes", async () => {
    await noPerSecondLimit();
    for (let i = 1; i <= 20; i++) expect(await demo().send({ chatId: CASHIERS, text: `alert ${i}` })).toMatchObject({ kind: "sent" });
    const limited = await demo().send({ chatId: CASHIERS, text: "alert 21" });
    expect(limited).toMatchObject({ kind: "rate-limited", description: expect.stringMatching(/^Too Many Requests: retry after \d+$/) });
    expect(limited.kind === "rate-limited" && limited.retryAfterSeconds).toBeGreaterThanOrEqual(59);
    expect(limited.kind === "rate-limited" && limited.retryAfterSeconds).toBeLessThanOrEqual(60);
    expect(await demo().send({ chatId: OWNERS, text: "elsewhere" })).toMatchObject({ kind: "sent" });
    await control("/control/clock", { advanceMs: 60_000 });
    expect(await demo().send({ chatId: CASHIERS, text: "alert 21" })).toMatchObject({ kind: "sent" });
    expect(await received(CASHIERS)).toHaveLength(21);
  });

  it("two messages to one chat within a second: the second waits a second", async () => {
    expect(await demo().send({ chatId: OWNERS, text: "one" })).toMatchObject({ kind: "sent" });
    expect(await demo().send({ chatId: OWNERS, text: "two" })).toEqual({
      kind: "rate-limited",
      retryAfterSeconds: 1,
      description: "Too Many Requests: retry after 1",
    });
    await control("/control/clock", { advanceMs: 1000 });
    expect(await demo().send({ chatId: OWNERS, text: "two" })).toMatchObject({ kind: "sent" });
  });
});

describe("faults for the tests", () => {
  it("the next sends answer 500, or 429 with the retry_after asked, then Telegram is back", async () => {
    await noPerSecondLimit();
    await control("/control/faults", { mode: "error", count: 2 });
    await control("/control/faults", { mode: "rate-limit", retryAfter: 7 });
    expect(await demo().send({ chatId: CASHIERS, text: "a" })).toEqual({ kind: "unavailable", description: "Internal Server Error" });
    expect(await demo().send({ chatId: CASHIERS, text: "a" })).toMatchObject({ kind: "unavailable" });
    expect(await demo().send({ chatId: CASHIERS, text: "a" })).toEqual({
      kind: "rate-limited",
      retryAfterSeconds: 7,
      description: "Too Many Requests: retry after 7",
    });
    expect(await demo().send({ chatId: CASHIERS, text: "a" })).toMatchObject({ kind: "sent" });
    expect(await received(CASHIERS)).toHaveLength(1);
  });

  it("a fault scoped to a chat leaves the other chats alone", async () => {
    await control("/control/faults", { mode: "error", chatId: OWNERS });
    expect(await demo().send({ chatId: CASHIERS, text: "a" })).toMatchObject({ kind: "sent" });
    expect(await demo().send({ chatId: OWNERS, text: "b" })).toMatchObject({ kind: "unavailable" });
  });

  it("a hang past the sender's deadline is unavailable: 'hang' received nothing, 'accept-then-hang' received the message (the resend that makes delivery at least once)", async () => {
    await noPerSecondLimit();
    const impatient = telegramChannel(atSandbox(SANDBOX_TELEGRAM_TOKEN, 200));
    await control("/control/faults", { mode: "hang", hangMs: 1500 });
    expect(await impatient.send({ chatId: CASHIERS, text: "lost" })).toEqual({
      kind: "unavailable",
      description: "no answer from Telegram: timeout after 200 ms",
    });
    await control("/control/faults", { mode: "accept-then-hang", hangMs: 1500 });
    expect(await impatient.send({ chatId: CASHIERS, text: "kept" })).toMatchObject({ kind: "unavailable" });
    expect((await received(CASHIERS)).map((m) => m.text)).toEqual(["kept"]);
  });

  it("a fault that is not one is refused", async () => {
    const res = await sandbox("/control/faults", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ mode: "explode" }),
    });
    expect(res.status).toBe(400);
  });
});

describe("the messages page", () => {
  it("lists each chat's messages newest first, with the time in Vientiane and links clickable, the text escaped", async () => {
    await noPerSecondLimit();
    await demo().send({ chatId: CASHIERS, text: "ຖອນເງິນ 500,000 ກີບ ລໍຖ້າ: http://localhost:5173/admin/withdrawals/W261127AB." });
    await demo().send({ chatId: CASHIERS, text: "second <script>alert(1)</script>" });
    const res = await sandbox("/");
    expect(res.headers.get("content-type")).toMatch(/^text\/html/);
    expect(res.headers.get("content-security-policy")).toContain("default-src 'none'");
    const page = await res.text();
    expect(page).toContain(
      '<a href="http://localhost:5173/admin/withdrawals/W261127AB" rel="noreferrer">http://localhost:5173/admin/withdrawals/W261127AB</a>.',
    );
    expect(page).toContain('lang="lo"');
    expect(page).toContain("second &lt;script&gt;alert(1)&lt;/script&gt;");
    expect(page).not.toContain("<script>");
    expect(page.indexOf("second &lt;script")).toBeLessThan(page.indexOf("ຖອນເງິນ"));
    const [first] = await received(CASHIERS);
    const vientiane = new Date(Date.parse(first!.receivedAt) + 7 * 3600_000);
    const hhmm = `${String(vientiane.getUTCHours()).padStart(2, "0")}:${String(vientiane.getUTCMinutes()).padStart(2, "0")}`;
    expect(page).toContain(`<time datetime="${first!.receivedAt}">`);
    expect(page).toMatch(new RegExp(`${hhmm}:\\d\\d</time> \\(Vientiane\\)`));
    expect(page).toMatch(/<h2 id="chat1001000000001">Demo agency: cashiers/);
    // the cashiers' group first: the demo agency's alerts go there
    expect(page.indexOf("Demo agency: cashiers <small>")).toBeLessThan(page.indexOf("Demo agency: owners <small>"));
  });

  it("?chat= shows one chat", async () => {
    await demo().send({ chatId: OWNERS, text: "for the owners" });
    await demo().send({ chatId: CASHIERS, text: "for the cashiers" });
    const page = await (await sandbox(`/?chat=${encodeURIComponent(OWNERS)}`)).text();
    expect(page).toContain("for the owners");
    expect(page).not.toContain("for the cashiers");
    expect(page).toContain('aria-current="page">Demo agency: owners');
  });
});
