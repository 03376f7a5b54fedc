import type { AlertChannel } from "./alerts";
import { checkTelegramBot, telegramChannel, type BotCheck, type TelegramSetup } from "./alert-channels/telegram";

/**
 * The demo bot's token at the sandbox Telegram (workers/sandbox/telegram, its DEMO_BOT): a
 * public test value, not a secret. A real token is `<bot id>:<35 characters>`.
 */
export const SANDBOX_TELEGRAM_TOKEN = "123456789:sandbox-demo-bot-token";
/** The demo agency's cashiers' group at the sandbox Telegram (and a second group, for tests). */
export const SANDBOX_TELEGRAM_CHATS = ["-1001000000001", "-1001000000002"] as const;

/**
 * A sandbox's token: the demo bot's, or another of the same form (`<digits>:sandbox-...`),
 * which the sandbox answers as Telegram answers a token it does not know (401 Unauthorized).
 * A token BotFather issues is its bot's id and 35 letters, digits, - and _.
 */
const isSandboxToken = (token: string) => /^\d+:sandbox-/.test(token);

/**
 * Where an agency's bot token is sent, like the provider ports (provider-factory.ts,
 * sandboxPort): the sandbox Telegram through its service binding when the binding exists
 * (npm start, the tests; a deployed agency has none, workers/config.ts refuses it) and the
 * token is a sandbox's; every other token goes to Telegram itself. So a test of a refused
 * token never leaves the machine.
 */
function telegramSetupFor(env: Env, token: string): TelegramSetup {
  const sandbox = env.SANDBOX_TELEGRAM;
  if (sandbox && isSandboxToken(token)) {
    return { token, baseUrl: "http://sandbox-telegram", fetch: (input, init) => sandbox.fetch(input, init) };
  }
  return { token };
}

/** The channel an agency's alerts go out on, for its bot token. */
export function alertChannelFor(env: Env, token: string): AlertChannel {
  return telegramChannel(telegramSetupFor(env, token));
}

/** The settings page's "check the bot" (getMe), reaching the same place the alerts would. */
export function checkAlertBot(env: Env, token: string): Promise<BotCheck> {
  return checkTelegramBot(telegramSetupFor(env, token));
}
