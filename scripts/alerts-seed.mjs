// The demo agency's staff alerts (decision 057): the sandbox Telegram's demo bot and the demo
// cashier group, every topic on, so `npm start` shows alerts at /sandbox/telegram without a
// Telegram account. Kept as they are when the agency has a setup (the owner may have changed it).
import { readFileSync } from "node:fs";
import { webcrypto } from "node:crypto";

// workers/ports/alert-channel-factory.ts SANDBOX_TELEGRAM_TOKEN / SANDBOX_TELEGRAM_CHATS[0]
const SANDBOX_TOKEN = "123456789:sandbox-demo-bot-token";
const DEMO_CHAT = "-1001000000001";

/** The local CREDENTIALS_KEY every local portal reads (.dev.vars, scripts/dev-vars.mjs). */
function localCredentialsKey(path = ".dev.vars") {
  const line = readFileSync(path, "utf8")
    .split("\n")
    .find((l) => l.startsWith("CREDENTIALS_KEY="));
  if (!line) throw new Error(`${path} has no CREDENTIALS_KEY`);
  return line.slice("CREDENTIALS_KEY=".length).trim();
}

/** workers/core/secret-box.ts sealSecret's format ("v1.<iv>.<data>", AES-256-GCM), for Node. */
async function seal(keyBase64, plaintext, associatedData) {
  const key = await webcrypto.subtle.importKey("raw", Buffer.from(keyBase64, "base64"), { name: "AES-GCM" }, false, ["encrypt"]);
  const iv = webcrypto.getRandomValues(new Uint8Array(12));
  const data = await webcrypto.subtle.encrypt(
    { name: "AES-GCM", iv, additionalData: new TextEncoder().encode(associatedData) },
    key,
    new TextEncoder().encode(plaintext),
  );
  return ["v1", Buffer.from(iv).toString("base64"), Buffer.from(data).toString("base64")].join(".");
}

export async function alertsSeedSql(agencyId = "demo") {
  const sealed = await seal(localCredentialsKey(), SANDBOX_TOKEN, `alerts:${agencyId}`);
  const topics = JSON.stringify(["withdrawals", "payments", "providers", "forwarder", "security", "summary"]);
  return `INSERT OR IGNORE INTO alert_settings (agency_id, bot_token_sealed, bot_name, chat_ids, language, kinds, withdrawal_reminder_minutes, deposit_wait_minutes, summary_hour, updated_by)
VALUES ('${agencyId}', '${sealed}', 'sandbox_demo_bot', '${JSON.stringify([DEMO_CHAT])}', 'lo', '${topics}', 15, 10, 8, 'seed');
UPDATE agency_domains SET is_primary = 1 WHERE host = 'localhost' AND agency_id = '${agencyId}'
   AND NOT EXISTS (SELECT 1 FROM agency_domains WHERE agency_id = '${agencyId}' AND is_primary = 1);`;
}
