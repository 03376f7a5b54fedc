import { cleanName } from "../../core/names";
import { bankAccountKeys } from "../../core/blocklist";
import { bankAccountHolders, insertBankAccountStatement, playerBankAccounts, type BankAccount, type BankAccountHolder } from "../../db/bank-accounts";
import { flagStatements, screenBlocklist } from "./blocklist";
import { checkReceiveQr, type ReceiveQrCode } from "./receive-qr";

export type { BankAccount };

/** The player's bank accounts (one at most today). */
export async function listBankAccounts(db: D1Database, agencyId: string, playerId: string): Promise<BankAccount[]> {
  return playerBankAccounts(db, agencyId, playerId);
}

export type AddBankAccountResult =
  | { ok: true; account: BankAccount }
  | { ok: false; code: "ACCOUNT_IN_USED" | "ACCOUNT_ALREADY_ADDED" | "ONE_ACCOUNT_ONLY" | "NAME_CHARACTERS" | "BANK_ACCOUNT_REFUSED" | ReceiveQrCode };

/**
 * Adds the player's one LAK account, with the "receive money" QR of their bank app when they
 * give its picture (decision 086; refused, nothing is stored). The unique indexes decide
 * races: two players adding the same number or QR at once, or one player double-submitting,
 * end with one row.
 */
export async function addBankAccount(
  db: D1Database,
  agencyId: string,
  playerId: string,
  input: { bankCode: string; accountNumber: string; accountName: string; receiveQr?: Uint8Array },
): Promise<AddBankAccountResult> {
  // The name rule again: a NUL or a bidi override in the name makes every payout fail.
  const name = cleanName(input.accountName);
  if (!name.ok) return { ok: false, code: name.error };
  input = { ...input, accountName: name.value };
  const [holders, screen] = await Promise.all([bankAccountHolders(db, agencyId, playerId, input), screenBlocklist(db, agencyId, bankAccountKeys(input))]);
  const verdict = classify(holders, playerId, input);
  if (verdict) return { ok: false, code: verdict };
  // The owner's blocklist (decision 090): a listed account or holder name is refused with
  // "contact staff" and nothing is stored; a "flag" entry's rows ride in the account's batch.
  if (screen?.action === "refuse") return { ok: false, code: "BANK_ACCOUNT_REFUSED" };
  const qr = await checkReceiveQr(db, agencyId, playerId, input, input.receiveQr);
  if (!qr.ok) return qr;
  const id = crypto.randomUUID();
  try {
    await db.batch([
      insertBankAccountStatement(db, {
        id,
        agencyId,
        playerId,
        bankCode: input.bankCode,
        accountNumber: input.accountNumber,
        accountName: input.accountName,
        receiveQr: qr.qr,
      }),
      ...flagStatements(db, { agencyId, staffId: null, staffUsername: null }, playerId, "bank-add", screen),
    ]);
  } catch (error) {
    if (!String(error).includes("UNIQUE")) throw error;
    // A race lost to the unique indexes: say which one (the number's first, else the QR's).
    return {
      ok: false,
      code: classify(await bankAccountHolders(db, agencyId, playerId, input), playerId, input) ?? (qr.qr ? "RECEIVE_QR_IN_USED" : "ACCOUNT_IN_USED"),
    };
  }
  const [account] = (await listBankAccounts(db, agencyId, playerId)).filter((a) => a.id === id);
  return { ok: true, account };
}

function classify(
  holders: BankAccountHolder[],
  playerId: string,
  input: { bankCode: string; accountNumber: string },
): "ACCOUNT_IN_USED" | "ACCOUNT_ALREADY_ADDED" | "ONE_ACCOUNT_ONLY" | null {
  const sameNumber = holders.find((h) => h.bankCode === input.bankCode && h.accountNumber === input.accountNumber);
  if (sameNumber && sameNumber.playerId !== playerId) return "ACCOUNT_IN_USED";
  if (sameNumber) return "ACCOUNT_ALREADY_ADDED";
  if (holders.some((h) => h.playerId === playerId)) return "ONE_ACCOUNT_ONLY";
  return null;
}
