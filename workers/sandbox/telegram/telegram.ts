import { DurableObject } from "cloudflare:workers";

/**
 * The sandbox Telegram's state: bots, the chats each bot is in, every message received, the
 * flood limits and the test faults, in one SQLite-backed Durable Object. One object is enough
 * here: Telegram itself lets a bot send about 20 messages a minute to a group, so the fake's
 * traffic is tens of messages a minute (decision 024's sharding was for the bank's crowds).
 *
 * The answers are the real Bot API's shapes (docs/sandbox-telegram.md says where each comes
 * from): `{ ok: true, result }` or `{ ok: false, error_code, description, parameters? }`.
 */
export type TelegramEnv = { TELEGRAM: DurableObjectNamespace<SandboxTelegram> };

export const MAIN_OBJECT = "sandbox-telegram";

/** The demo bot: the demo agency's alert settings use its token (not a secret: a sandbox's). */
const DEMO_BOT = { token: "123456789:sandbox-demo-bot-token", id: 123456789, firstName: "Sandbox Alerts", username: "sandbox_alerts_bot" };
/** The demo agency's groups (supergroup ids are -100 followed by the group's number). */
const DEMO_CHATS = [
  { chatId: "-1001000000001", title: "Demo agency: cashiers" },
  { chatId: "-1001000000002", title: "Demo agency: owners" },
];

/** Telegram's message limit: 4096 characters (UTF-16 units, as JavaScript counts them). */
const MAX_TEXT = 4096;

/**
 * Telegram's flood limits (Bots FAQ, "My bot is hitting limits"): about one message a second
 * in a chat, and no more than 20 messages a minute to the same group. The fake applies both
 * strictly (Telegram allows short bursts): code that copes with the fake copes with Telegram.
 */
export type Limits = { perSecondToChat: number; perMinuteToGroup: number };
export const DEFAULT_LIMITS: Limits = { perSecondToChat: 1, perMinuteToGroup: 20 };

export const FAULT_MODES = ["error", "rate-limit", "hang", "accept-then-hang"] as const;
export type FaultMode = (typeof FAULT_MODES)[number];
/**
 * A test fault: the next `count` sendMessage calls (to `chatId`, or to any chat when null)
 * answer 500, or 429 with `retryAfter`, or hold the answer `hangMs` (past the sender's
 * deadline): "hang" records nothing, "accept-then-hang" records the message first (the sender
 * cannot know it went through: the resend Telegram's lack of an idempotency key allows).
 */
export type FaultSpec = { mode: FaultMode; count: number; retryAfter: number; hangMs: number; chatId: string | null };
export type Fault = FaultSpec & { id: number };

/** What the Bot API answers: HTTP status and JSON body; `holdMs` delays the answer (faults). */
export type BotAnswer = { status: number; body: Record<string, unknown>; holdMs: number };

export type ReceivedMessage = { messageId: number; chatId: string; chatTitle: string; botUsername: string; text: string; date: number; receivedAt: string };
export type ChatMessages = { chatId: string; title: string; messages: ReceivedMessage[] };

type BotRow = { token: string; id: number; first_name: string; username: string };
type ChatRow = { token: string; chat_id: string; title: string; kicked: number };
type MessageRow = { id: number; message_id: number; chat_id: string; token: string; text: string; received_at: number };
type FaultRow = { id: number; mode: FaultMode; count: number; retry_after: number; hang_ms: number; chat_id: string | null };

const MINUTE = 60_000;
const SECOND = 1000;

const MIGRATIONS: string[] = [
  `CREATE TABLE bot (token TEXT PRIMARY KEY, id INTEGER NOT NULL, first_name TEXT NOT NULL, username TEXT NOT NULL);
   CREATE TABLE chat (
     token TEXT NOT NULL,
     chat_id TEXT NOT NULL,
     title TEXT NOT NULL,
     kicked INTEGER NOT NULL DEFAULT 0,      -- 1: the bot was removed from the group (403)
     PRIMARY KEY (token, chat_id)
   );
   CREATE TABLE message (
     id INTEGER PRIMARY KEY AUTOINCREMENT,
     message_id INTEGER NOT NULL,            -- Telegram's: counted per chat
     chat_id TEXT NOT NULL,
     token TEXT NOT NULL,
     text TEXT NOT NULL,
     received_at INTEGER NOT NULL            -- ms, on the fake's clock
   );
   CREATE INDEX message_chat ON message (chat_id, received_at);
   CREATE TABLE fault (
     id INTEGER PRIMARY KEY AUTOINCREMENT,
     mode TEXT NOT NULL,
     count INTEGER NOT NULL,
     retry_after INTEGER NOT NULL,
     hang_ms INTEGER NOT NULL,
     chat_id TEXT
   );`,
];

export class SandboxTelegram extends DurableObject<TelegramEnv> {
  private readonly sql: SqlStorage;

  constructor(ctx: DurableObjectState, env: TelegramEnv) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
    this.migrate();
  }

  private migrate(): void {
    this.sql.exec("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)");
    let version = Number(this.meta("schema_version") ?? "0");
    while (version < MIGRATIONS.length) {
      const next = version + 1;
      this.ctx.storage.transactionSync(() => {
        this.sql.exec(MIGRATIONS[version]!);
        this.setMeta("schema_version", String(next));
        if (next === 1) this.seedDemo();
      });
      version = next;
    }
  }

  private meta(key: string): string | null {
    return this.sql.exec<{ value: string }>("SELECT value FROM meta WHERE key = ?", key).toArray()[0]?.value ?? null;
  }

  private setMeta(key: string, value: string): void {
    this.sql.exec("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value", key, value);
  }

  private seedDemo(): void {
    this.sql.exec("INSERT INTO bot (token, id, first_name, username) VALUES (?, ?, ?, ?)", DEMO_BOT.token, DEMO_BOT.id, DEMO_BOT.firstName, DEMO_BOT.username);
    for (const chat of DEMO_CHATS) this.sql.exec("INSERT INTO chat (token, chat_id, title) VALUES (?, ?, ?)", DEMO_BOT.token, chat.chatId, chat.title);
  }

  /** The fake's clock: real time, moved forward by the tests (control/clock) to pass a flood window. */
  private now(): number {
    return Date.now() + Number(this.meta("clock_offset_ms") ?? "0");
  }

  // ---- the Bot API ----------------------------------------------------------------------

  async getMe(token: string): Promise<BotAnswer> {
    const bot = this.bot(token);
    if (!bot) return unauthorized();
    return answer(200, { ok: true, result: botUser(bot) });
  }

  /** sendMessage, in Telegram's order: the token, a test fault, the chat, the text, the flood limits. */
  async sendMessage(token: string, chatId: string | null, text: string | null): Promise<BotAnswer> {
    const bot = this.bot(token);
    if (!bot) return unauthorized();
    const fault = this.takeFault(chatId);
    if (fault?.mode === "error") return failure(500, "Internal Server Error");
    if (fault?.mode === "rate-limit") return tooManyRequests(fault.retry_after);
    if (fault?.mode === "hang") return { ...failure(504, "Gateway Timeout"), holdMs: fault.hang_ms };
    if (chatId === null || chatId === "") return failure(400, "Bad Request: chat_id is empty");
    const chat = this.chat(token, chatId);
    if (!chat) return failure(400, "Bad Request: chat not found");
    if (chat.kicked) return failure(403, "Forbidden: bot was kicked from the supergroup chat");
    if (text === null || text.trim() === "") return failure(400, "Bad Request: message text is empty");
    if (text.length > MAX_TEXT) return failure(400, "Bad Request: message is too long");
    const now = this.now();
    const wait = this.floodWait(chatId, now);
    if (wait !== null) return tooManyRequests(wait);
    const sent = answer(200, { ok: true, result: this.record(bot, chat, text, now) });
    return fault?.mode === "accept-then-hang" ? { ...sent, holdMs: fault.hang_ms } : sent;
  }

  private bot(token: string): BotRow | null {
    return this.sql.exec<BotRow>("SELECT * FROM bot WHERE token = ?", token).toArray()[0] ?? null;
  }

  private chat(token: string, chatId: string): ChatRow | null {
    return this.sql.exec<ChatRow>("SELECT * FROM chat WHERE token = ? AND chat_id = ?", token, chatId).toArray()[0] ?? null;
  }

  /** The first fault that matches this chat, used up by one (a fault with no chat matches any). */
  private takeFault(chatId: string | null): FaultRow | null {
    const fault = this.sql.exec<FaultRow>("SELECT * FROM fault WHERE chat_id IS NULL OR chat_id = ? ORDER BY id LIMIT 1", chatId ?? "").toArray()[0] ?? null;
    if (!fault) return null;
    if (fault.count <= 1) this.sql.exec("DELETE FROM fault WHERE id = ?", fault.id);
    else this.sql.exec("UPDATE fault SET count = count - 1 WHERE id = ?", fault.id);
    return fault;
  }

  /**
   * Seconds to wait before this chat may get another message, or null: beyond the per-chat
   * rate (any chat) or the per-group minute (groups have negative ids), the wait until the
   * oldest message of the full window leaves it, as Telegram's `retry_after` does.
   */
  private floodWait(chatId: string, now: number): number | null {
    const limits = this.limits();
    const windows: [number, number][] = [[SECOND, limits.perSecondToChat]];
    if (chatId.startsWith("-")) windows.push([MINUTE, limits.perMinuteToGroup]);
    let wait: number | null = null;
    for (const [span, limit] of windows) {
      const recent = this.sql
        .exec<{ received_at: number }>(
          "SELECT received_at FROM message WHERE chat_id = ? AND received_at > ? ORDER BY received_at DESC LIMIT ?",
          chatId,
          now - span,
          limit,
        )
        .toArray();
      if (recent.length < limit) continue;
      const seconds = Math.max(1, Math.ceil((recent[recent.length - 1]!.received_at + span - now) / SECOND));
      wait = Math.max(wait ?? 0, seconds);
    }
    return wait;
  }

  private record(bot: BotRow, chat: ChatRow, text: string, now: number): Record<string, unknown> {
    const last = this.sql.exec<{ n: number | null }>("SELECT MAX(message_id) AS n FROM message WHERE chat_id = ?", chat.chat_id).one().n ?? 0;
    const messageId = last + 1;
    this.sql.exec("INSERT INTO message (message_id, chat_id, token, text, received_at) VALUES (?, ?, ?, ?, ?)", messageId, chat.chat_id, bot.token, text, now);
    return {
      message_id: messageId,
      from: botUser(bot),
      chat: {
        id: Number(chat.chat_id),
        title: chat.title,
        type: chat.chat_id.startsWith("-100") ? "supergroup" : chat.chat_id.startsWith("-") ? "group" : "private",
      },
      date: Math.floor(now / SECOND),
      text,
    };
  }

  // ---- what the tests and the page read ---------------------------------------------------

  /** Messages received, in the order they came (oldest first), for one chat or all. */
  async messages(chatId: string | null): Promise<ReceivedMessage[]> {
    const rows = this.sql
      .exec<MessageRow & { title: string; username: string }>(
        `SELECT m.*, c.title, b.username FROM message m JOIN chat c ON c.token = m.token AND c.chat_id = m.chat_id JOIN bot b ON b.token = m.token
         WHERE ? IS NULL OR m.chat_id = ? ORDER BY m.id`,
        chatId,
        chatId,
      )
      .toArray();
    return rows.map((row) => ({
      messageId: row.message_id,
      chatId: row.chat_id,
      chatTitle: row.title,
      botUsername: row.username,
      text: row.text,
      date: Math.floor(row.received_at / SECOND),
      receivedAt: new Date(row.received_at).toISOString(),
    }));
  }

  /** Every chat with its newest `perChat` messages, newest first (the page). */
  async chatsWithMessages(perChat: number): Promise<ChatMessages[]> {
    const all = await this.messages(null);
    const chats = this.sql
      .exec<{ chat_id: string; title: string }>("SELECT chat_id, MIN(title) AS title FROM chat GROUP BY chat_id ORDER BY MIN(rowid)")
      .toArray();
    return chats.map((chat) => ({
      chatId: chat.chat_id,
      title: chat.title,
      messages: all
        .filter((m) => m.chatId === chat.chat_id)
        .reverse()
        .slice(0, perChat),
    }));
  }

  // ---- test controls ----------------------------------------------------------------------

  async addFault(spec: FaultSpec): Promise<Fault> {
    const id = this.sql
      .exec<{ id: number }>(
        "INSERT INTO fault (mode, count, retry_after, hang_ms, chat_id) VALUES (?, ?, ?, ?, ?) RETURNING id",
        spec.mode,
        spec.count,
        spec.retryAfter,
        spec.hangMs,
        spec.chatId,
      )
      .one().id;
    return { ...spec, id };
  }

  async faults(): Promise<Fault[]> {
    return this.sql
      .exec<FaultRow>("SELECT * FROM fault ORDER BY id")
      .toArray()
      .map((row) => ({ id: row.id, mode: row.mode, count: row.count, retryAfter: row.retry_after, hangMs: row.hang_ms, chatId: row.chat_id }));
  }

  /** A bot (created when its token is new) in one more chat, or `kicked` from it. */
  async addChat(input: { token: string; chatId: string; title: string; kicked: boolean }): Promise<void> {
    if (!this.bot(input.token)) {
      const id = Number(input.token.slice(0, input.token.indexOf(":")));
      this.sql.exec("INSERT INTO bot (token, id, first_name, username) VALUES (?, ?, ?, ?)", input.token, id, `Sandbox bot ${id}`, `sandbox_${id}_bot`);
    }
    this.sql.exec(
      "INSERT INTO chat (token, chat_id, title, kicked) VALUES (?, ?, ?, ?) ON CONFLICT (token, chat_id) DO UPDATE SET title = excluded.title, kicked = excluded.kicked",
      input.token,
      input.chatId,
      input.title,
      input.kicked ? 1 : 0,
    );
  }

  limits(): Limits {
    const stored = this.meta("limits");
    return stored ? (JSON.parse(stored) as Limits) : DEFAULT_LIMITS;
  }

  async setLimits(limits: Partial<Limits>): Promise<Limits> {
    const next = { ...this.limits(), ...limits };
    this.setMeta("limits", JSON.stringify(next));
    return next;
  }

  async advanceClock(ms: number): Promise<number> {
    const offset = Number(this.meta("clock_offset_ms") ?? "0") + ms;
    this.setMeta("clock_offset_ms", String(offset));
    return offset;
  }

  /** Back to a fresh sandbox: the demo bot in its two groups, nothing received, default limits. */
  async reset(): Promise<void> {
    this.ctx.storage.transactionSync(() => {
      for (const table of ["bot", "chat", "message", "fault"]) this.sql.exec(`DELETE FROM ${table}`);
      this.sql.exec("DELETE FROM meta WHERE key IN ('limits', 'clock_offset_ms')");
      this.seedDemo();
    });
  }
}

function botUser(bot: BotRow): Record<string, unknown> {
  return { id: bot.id, is_bot: true, first_name: bot.first_name, username: bot.username };
}

function answer(status: number, body: Record<string, unknown>): BotAnswer {
  return { status, body, holdMs: 0 };
}

function failure(code: number, description: string, parameters?: Record<string, unknown>): BotAnswer {
  return answer(code, { ok: false, error_code: code, description, ...(parameters ? { parameters } : {}) });
}

function unauthorized(): BotAnswer {
  return failure(401, "Unauthorized");
}

function tooManyRequests(retryAfter: number): BotAnswer {
  return failure(429, `Too Many Requests: retry after ${retryAfter}`, { retry_after: retryAfter });
}
