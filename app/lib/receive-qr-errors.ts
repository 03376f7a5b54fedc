import type { ReceiveQrCode } from "@workers/services/players";

/**
 * The messages of a refused receive QR (decision 086), kept out of lib/errors.ts: only the bank
 * page renders them, and every page that imports lib/errors.ts ships the groups its keys name
 * (decision 032). A QR another player holds is the spec's ACCOUNT_IN_USED (docs/product.md §8).
 */
const RECEIVE_QR_CODES: Record<ReceiveQrCode, true> = {
  RECEIVE_QR_TOO_LARGE: true,
  RECEIVE_QR_NOT_IMAGE: true,
  RECEIVE_QR_NOT_FOUND: true,
  RECEIVE_QR_FORMAT: true,
  RECEIVE_QR_CRC: true,
  RECEIVE_QR_OTHER_BANK: true,
  RECEIVE_QR_MERCHANT: true,
  RECEIVE_QR_NOT_STATIC: true,
  RECEIVE_QR_NAME: true,
  RECEIVE_QR_NAME_SCRIPT: true,
  RECEIVE_QR_IN_USED: true,
};

export function isReceiveQrCode(code: string): code is ReceiveQrCode {
  return Object.hasOwn(RECEIVE_QR_CODES, code);
}

export function receiveQrMessageKey(code: ReceiveQrCode): string {
  return code === "RECEIVE_QR_IN_USED" ? "errors.code.ACCOUNT_IN_USED" : `receiveQr.errors.${code.slice("RECEIVE_QR_".length)}`;
}
