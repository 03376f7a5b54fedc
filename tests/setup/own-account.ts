import { env } from "cloudflare:workers";
import { runInDurableObject } from "cloudflare:test";
import { crc16, field } from "../../workers/core/emvco";
import type { walletOf } from "../../workers/services/wallets";

/** A static LAO QR shaped like a BCEL OnePay code of the agency's own account (receiver token in 38.03). */
export function ownAccountStaticQr(receiver = "mch19B73F61B9E"): string {
  const account = field("00", "A005266284662577") + field("01", "27710418") + field("02", "002") + field("03", receiver);
  const body =
    field("00", "01") +
    field("01", "11") +
    field("38", account) +
    field("52", "5999") +
    field("53", "418") +
    field("58", "LA") +
    field("59", "VIENTIANE PLAY") +
    field("60", "VIENTIANE") +
    "6304";
  return body + crc16(body);
}

/** An own-account channel (gateway 'own_account', migration 0016) for an agency, as the owner's channel setup would store it. */
export async function seedOwnAccountChannel(agencyId: string, code: string, qrMode: "derived" | "static" = "derived"): Promise<string> {
  const qr = ownAccountStaticQr();
  await env.DB.prepare(
    `INSERT OR REPLACE INTO payment_channels (agency_id, code, mid, display_name, currency, bank_code, iin, merchant_name, merchant_city, gateway, active, static_qr, qr_mode)
     VALUES (?1, ?2, 'mch19B73F61B9E', 'BCEL (own account)', 'LAK', 'BCEL', '27710418', 'VIENTIANE PLAY', 'VIENTIANE', 'own_account', 1, ?3, ?4)`,
  )
    .bind(agencyId, code, qr, qrMode)
    .run();
  return qr;
}

/** Moves an order's life `ms` into the past, in its wallet and in its D1 reservation (as if it had been opened then). */
export async function ageOrder(wallet: ReturnType<typeof walletOf>, agencyId: string, code: string, ms: number): Promise<void> {
  await runInDurableObject(wallet, (_object, state) => {
    state.storage.sql.exec(`UPDATE deposit_orders SET created_at = created_at - ?, expires_at = expires_at - ? WHERE code = ?`, ms, ms, code);
  });
  await env.DB.prepare(`UPDATE pay_amount_reservations SET created_at = created_at - ?1, expires_at = expires_at - ?1 WHERE agency_id = ?2 AND order_code = ?3`)
    .bind(ms, agencyId, code)
    .run();
}
