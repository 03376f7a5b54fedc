import { readOneProof } from "../../core/one-proof";
import type { CurrentPlayer } from "../../core/session";
import { countSlipsOfOrder, slipsOfOrder } from "../../db/deposit-slips";
import type { DepositOrder } from "../../wallet/player-wallet";
import { decodeQrImage } from "../agency";
import { recordDepositSlip } from "../bank-in";
import { walletOf } from "../wallets";

/**
 * The player adds the bank's transfer slip to a deposit order that is open or expired (decision
 * 087): "I paid and got nothing". The picture (PNG or JPEG, up to the image reader's 2 MB) must
 * hold a readable OneProof QR; what it says is kept as the player's claim and put before the
 * cashier. Nothing is stored for a picture that is refused.
 */

/** Why a slip is refused (translated under `depositSlip.errors`). */
export type SlipError = "SLIP_REQUIRED" | "SLIP_NOT_IMAGE" | "SLIP_TOO_LARGE" | "SLIP_NO_ONEPROOF" | "SLIP_ORDER_CLOSED" | "SLIP_LIMIT";

/** Slips one order may carry: a player retrying a blurred screenshot, not a flood of pictures. */
const MAX_SLIPS_PER_ORDER = 5;

/** An order a slip may be added to: still waiting for money, or ended by its clock (never one the player cancelled, never a paid one). */
export function acceptsSlip(order: Pick<DepositOrder, "status" | "flag">): boolean {
  return order.status === "OPEN" || (order.status === "CANCELED" && (order.flag === "EXPIRED" || order.flag === "GATEWAY"));
}

const contentTypeOf = (bytes: Uint8Array): "image/png" | "image/jpeg" => (bytes[0] === 0x89 ? "image/png" : "image/jpeg");

export async function addDepositSlip(
  env: Env,
  agencyId: string,
  player: CurrentPlayer,
  code: string,
  picture: Uint8Array | null,
): Promise<{ ok: true; conflict: boolean } | { ok: false; error: SlipError }> {
  if (!picture || picture.byteLength === 0) return { ok: false, error: "SLIP_REQUIRED" };
  const order = await walletOf(env, agencyId, player.id).getDeposit(code);
  if (!order || !acceptsSlip(order)) return { ok: false, error: "SLIP_ORDER_CLOSED" };
  if ((await countSlipsOfOrder(env.DB, agencyId, order.code)) >= MAX_SLIPS_PER_ORDER) return { ok: false, error: "SLIP_LIMIT" };
  const decoded = await decodeQrImage(picture);
  if (!decoded.ok) {
    if (decoded.problem === "IMAGE_TOO_LARGE") return { ok: false, error: "SLIP_TOO_LARGE" };
    return { ok: false, error: decoded.problem === "IMAGE_UNREADABLE" ? "SLIP_NOT_IMAGE" : "SLIP_NO_ONEPROOF" };
  }
  const read = readOneProof(decoded.text);
  if (!read.ok) return { ok: false, error: "SLIP_NO_ONEPROOF" };
  const kept = await recordDepositSlip(
    env,
    agencyId,
    {
      code: order.code,
      playerId: player.id,
      username: player.username,
      channelCode: order.channelCode,
      amount: order.amount,
      payAmount: order.payAmount ?? null,
    },
    read.slip,
    { bytes: picture, contentType: contentTypeOf(picture) },
  );
  return { ok: true, conflict: kept.conflict };
}

/**
 * The slip page of one of the player's orders: the order, whether a slip may be added, and the
 * slips already sent with where each stands (the player is never shown another order's code).
 */
export async function depositSlipPage(env: Env, agencyId: string, playerId: string, code: string) {
  const order = await walletOf(env, agencyId, playerId).getDeposit(code);
  if (!order) return null;
  const slips = await slipsOfOrder(env.DB, agencyId, order.code);
  return {
    order: {
      code: order.code,
      provider: order.provider,
      amount: order.amount,
      payAmount: order.payAmount ?? null,
      status: order.status,
      expired: order.status === "CANCELED" && (order.flag === "EXPIRED" || order.flag === "GATEWAY"),
      createdAt: new Date(order.createdAt).toISOString(),
    },
    canAdd: acceptsSlip(order) && slips.length < MAX_SLIPS_PER_ORDER,
    slips: slips.map((s) => ({
      id: s.id,
      ticket: s.ticket,
      reference: s.reference,
      receivedAt: new Date(s.receivedAt).toISOString(),
      state:
        order.status === "PAID" || order.status === "SUCCESS" || order.status === "FAILED"
          ? ("paid" as const)
          : s.checkedAt === null
            ? ("checking" as const)
            : ("checked" as const),
    })),
  };
}
