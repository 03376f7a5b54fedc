import { create as createQr } from "qrcode/lib/core/qrcode";
import { formatMoney } from "../../core/format";
import { oneBitPng } from "../../core/png";
import { drawQrPicture, oneBitRows } from "../../core/qr-picture";
import { deriveAmountQr, payoutAmountText } from "../../core/receive-qr";
import { awaitsStaffDecision } from "../../core/withdraw";
import { receiveQrOfAccount } from "../../db/bank-accounts";
import { findAgencyWithdrawPlayer } from "../../db/orders";
import { payoutQrChannelsFor } from "../../db/payout-qr";
import type { WithdrawOrder } from "../../wallet/player-wallet";
import { walletOf } from "../wallets";

/**
 * One-scan payouts (decision 086): the QR the cashier scans with the agency's bank app to pay
 * a withdrawal waiting for them. The player's own "receive money" QR, kept with the account the
 * order was confirmed with; with the amount inserted (a derived QR) where an active
 * own-account channel says its bank app accepts that for the player's bank, else as the bank
 * issued it and the amount beside it. Only while the order awaits a staff decision: a QR on a
 * paid order invites a second payout.
 */
export type PayoutQr = {
  /** "derived": the amount is in the code; "static": the cashier types the amount. */
  mode: "derived" | "static";
  text: string;
  /** The channels (display names) whose bank app takes the derived QR: the ones to pay from. */
  channels: string[];
};

type PayoutOrder = Pick<WithdrawOrder, "status" | "review" | "payoutState" | "bankCode" | "accountNumber" | "receivedLak">;

export async function payoutQrOf(db: D1Database, agencyId: string, playerId: string, order: PayoutOrder): Promise<PayoutQr | null> {
  if (!awaitsStaffDecision(order)) return null;
  const [text, channels] = await Promise.all([receiveQrOfAccount(db, agencyId, playerId, order), payoutQrChannelsFor(db, agencyId, order.bankCode)]);
  if (!text) return null;
  const amount = payoutAmountText(order.receivedLak);
  if (channels.length > 0 && amount) return { mode: "derived", text: deriveAmountQr(text, amount), channels };
  return { mode: "static", text, channels: [] };
}

/**
 * The payout QR as a PNG (the staff-only picture route): the code drawn at least 600 px wide
 * with its quiet zone (core/qr-picture.ts, as the deposit's "Save QR") and the amount under
 * it. Null when the order is not this agency's, not waiting, or its player gave no QR.
 */
export async function payoutQrPicture(env: Env, agencyId: string, code: string): Promise<Uint8Array<ArrayBuffer> | null> {
  const playerId = code && code.length <= 40 ? await findAgencyWithdrawPlayer(env.DB, agencyId, code) : null;
  if (!playerId) return null;
  const order = await walletOf(env, agencyId, playerId).getWithdraw(code);
  if (!order) return null;
  const qr = await payoutQrOf(env.DB, agencyId, playerId, order as WithdrawOrder);
  if (!qr) return null;
  const { modules } = createQr(qr.text, { errorCorrectionLevel: "M" });
  const picture = drawQrPicture({ size: modules.size, isDark: (r, c) => modules.get(r, c) === 1 }, [formatMoney(order.receivedLak, "LAK")]);
  return oneBitPng(picture.width, picture.height, oneBitRows(picture));
}
