import { env } from "cloudflare:workers";
import type { AuditActor } from "../../workers/db/audit";
import { SANDBOX_TELEGRAM_TOKEN } from "../../workers/ports/alert-channel-factory";
import { saveAlertSettings } from "../../workers/services/alerts";

/** A request to the sandbox Telegram (its Bot API or its control paths). */
export function sandboxTelegram(path: string, init?: RequestInit): Promise<Response> {
  return env.SANDBOX_TELEGRAM.fetch(`http://sandbox-telegram${path}`, init);
}

let chatCounter = 0;

/**
 * A chat of the demo bot of this test's own (the sandbox is shared by every test file), or one
 * the bot was removed from (`kicked`).
 */
export async function newSandboxChat(kicked = false): Promise<string> {
  chatCounter += 1;
  const chatId = `-100${Date.now() % 1_000_000_000}${String(chatCounter).padStart(3, "0")}`;
  const res = await sandboxTelegram("/control/chats", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ token: SANDBOX_TELEGRAM_TOKEN, chatId, title: `test chat ${chatCounter}`, kicked }),
  });
  if (!res.ok) throw new Error(`sandbox telegram /control/chats: ${res.status} ${await res.text()}`);
  return chatId;
}

/** The demo agency's staff alerts sent to a chat of this test's own, the security topic only (blocklist flags, held claims, registration bursts). */
export async function securityAlertsToNewChat(owner: AuditActor): Promise<string> {
  const chat = await newSandboxChat();
  await saveAlertSettings(env, owner, {
    token: SANDBOX_TELEGRAM_TOKEN,
    chatIds: [chat],
    language: "lo",
    quietStart: null,
    quietEnd: null,
    topics: ["security"],
    withdrawalReminderMinutes: 15,
    depositWaitMinutes: 10,
    summaryHour: null,
    primaryHost: "localhost",
  });
  return chat;
}
