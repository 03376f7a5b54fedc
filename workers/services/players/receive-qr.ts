import { findBank } from "../../core/banks";
import { readReceiveQr, type ReceiveQrProblem } from "../../core/receive-qr";
import { receiveQrHolder, type StoredReceiveQr } from "../../db/bank-accounts";
import { decodeQrImage, MAX_QR_IMAGE_BYTES, type QrImageProblem } from "../agency";

/**
 * The player's "receive money" LAO QR, given with the bank account they add or replace
 * (decision 086): read from the picture (the image reader the owner's own-account QR uses),
 * checked against the chosen bank and the typed name (workers/core/receive-qr.ts), and against
 * the other players of the agency. Nothing is written here: the caller stores the account and
 * its QR in one statement, or nothing.
 */

/** The largest picture read (the image reader's limit): a phone screenshot is well under it. */
export const RECEIVE_QR_MAX_BYTES = MAX_QR_IMAGE_BYTES;

/** Why a picture is refused; each has its message (locales `receiveQr.errors`), IN_USED the spec's ACCOUNT_IN_USED. */
export type ReceiveQrCode =
  | "RECEIVE_QR_TOO_LARGE"
  | "RECEIVE_QR_NOT_IMAGE"
  | "RECEIVE_QR_NOT_FOUND"
  | "RECEIVE_QR_FORMAT"
  | "RECEIVE_QR_CRC"
  | "RECEIVE_QR_OTHER_BANK"
  | "RECEIVE_QR_MERCHANT"
  | "RECEIVE_QR_NOT_STATIC"
  | "RECEIVE_QR_NAME"
  | "RECEIVE_QR_NAME_SCRIPT"
  | "RECEIVE_QR_IN_USED";

const IMAGE_CODES: Record<QrImageProblem, ReceiveQrCode> = {
  IMAGE_TOO_LARGE: "RECEIVE_QR_TOO_LARGE",
  IMAGE_UNREADABLE: "RECEIVE_QR_NOT_IMAGE",
  NO_QR: "RECEIVE_QR_NOT_FOUND",
};

const QR_CODES: Record<ReceiveQrProblem, ReceiveQrCode> = {
  FORMAT: "RECEIVE_QR_FORMAT",
  CRC: "RECEIVE_QR_CRC",
  OTHER_BANK: "RECEIVE_QR_OTHER_BANK",
  MERCHANT: "RECEIVE_QR_MERCHANT",
  NOT_STATIC: "RECEIVE_QR_NOT_STATIC",
  NAME: "RECEIVE_QR_NAME",
  NAME_SCRIPT: "RECEIVE_QR_NAME_SCRIPT",
};

/** The key a receiver is held by: the bank's IIN and its receiver token. */
const receiverKey = (iin: string, receiverId: string) => `${iin}:${receiverId}`;

/**
 * Reads and checks the picture given with an account (none, or an empty file input: null, the
 * player is paid as before). `name` is the account name after the name rule (decision 013).
 */
export async function checkReceiveQr(
  db: D1Database,
  agencyId: string,
  playerId: string,
  account: { bankCode: string; accountName: string },
  image: Uint8Array | undefined,
): Promise<{ ok: true; qr: StoredReceiveQr | null } | { ok: false; code: ReceiveQrCode }> {
  if (!image || image.byteLength === 0) return { ok: true, qr: null };
  const decoded = await decodeQrImage(image);
  if (!decoded.ok) return { ok: false, code: IMAGE_CODES[decoded.problem] };
  const bank = findBank(account.bankCode);
  if (!bank) return { ok: false, code: "RECEIVE_QR_OTHER_BANK" };
  const read = readReceiveQr(decoded.text, bank.iin, account.accountName);
  if (!read.ok) return { ok: false, code: QR_CODES[read.problem] };
  const receiver = receiverKey(read.qr.iin, read.qr.receiverId);
  const holder = await receiveQrHolder(db, agencyId, receiver);
  if (holder && holder !== playerId) return { ok: false, code: "RECEIVE_QR_IN_USED" };
  return { ok: true, qr: { text: read.qr.text, receiver } };
}
