import { create as createQr } from "qrcode/lib/core/qrcode";
import { formatMoney } from "../../core/format";
import { oneBitPng } from "../../core/png";
import { CLOCK, drawQrPicture, oneBitRows } from "../../core/qr-picture";
import { vientianeTime } from "../../core/vientiane";
import { walletOf } from "../wallets";

/**
 * "Save QR" (decision 080): the open deposit order's QR as a PNG a bank app's "scan from
 * gallery" reads, the amount to pay and a clock with the time the order expires under it.
 * Only the player's own wallet is asked, so another player's code finds nothing; an order
 * that is no longer open (paid, cancelled, expired) or has no QR yet gives no picture.
 */
type DepositQrPicture = { png: Uint8Array<ArrayBuffer>; fileName: string };

export async function depositQrPicture(env: Env, agencyId: string, playerId: string, code: string, now = Date.now()): Promise<DepositQrPicture | null> {
  const order = await walletOf(env, agencyId, playerId).getDeposit(code);
  if (!order || order.status !== "OPEN" || order.expiresAt <= now || !order.qrPayload) return null;
  const { modules } = createQr(order.qrPayload, { errorCorrectionLevel: "M" });
  const amount = formatMoney(order.payAmount ?? order.amount, "LAK");
  const until = vientianeTime(order.expiresAt);
  const picture = drawQrPicture({ size: modules.size, isDark: (r, c) => modules.get(r, c) === 1 }, [amount, `${CLOCK} ${until}`]);
  const png = await oneBitPng(picture.width, picture.height, oneBitRows(picture));
  // the file name says what the picture shows, in letters any gallery lists: "lao-qr-D26120...-601234kip-1430.png"
  return { png, fileName: `lao-qr-${order.code}-${amount.replace(/\D/g, "")}kip-${until.replace(":", "")}.png` };
}
