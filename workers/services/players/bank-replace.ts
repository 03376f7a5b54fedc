import { cleanName } from "../../core/names";
import { auditIfChanged, type AuditActor } from "../../db/audit";
import type { Client, CurrentPlayer } from "../../core/session";
import { bankAccountOwner, receiverOfPlayer, replaceBankAccountStatement } from "../../db/bank-accounts";
import { checkCurrentPassword } from "./auth";
import { listBankAccounts, type BankAccount } from "./bank";
import { walletOf } from "../wallets";
import { bankAccountKeys } from "../../core/blocklist";
import { flagStatements, screenBlocklist } from "./blocklist";
import { checkReceiveQr, type ReceiveQrCode } from "./receive-qr";

/**
 * Replacing a player's one bank account (decision record
 * docs/decisions/013-names-and-bank-replacement.md): by the player, after the current
 * password, while the account has never been paid to; by staff (owner) at any time. Never
 * while a withdrawal is open; every replacement audited (a player's as "player:<username>").
 */

/** `receiveQr`: the picture of the new account's "receive money" QR (decision 086), if the player gave one. */
export type NewBankAccount = { bankCode: string; accountNumber: string; accountName: string; receiveQr?: Uint8Array };

export type BankReplacement = {
  account: BankAccount | null;
  /** A withdrawal is PENDING or OPEN: its order holds a copy of this account; no replacement until it ends. */
  withdrawalOpen: boolean;
  /** A withdrawal was paid (SUCCESS) to this account: only staff may replace it. */
  paid: boolean;
};

/**
 * What the wallet (the only writer of a player's orders) says about the current account.
 * The D1 read model has no account numbers and may lag, so the wallet is asked.
 */
async function bankReplacement(env: Env, agencyId: string, playerId: string): Promise<BankReplacement> {
  const [account] = await listBankAccounts(env.DB, agencyId, playerId);
  if (!account) return { account: null, withdrawalOpen: false, paid: false };
  const wallet = walletOf(env, agencyId, playerId);
  const withdrawalOpen = (await wallet.openWithdraws()).length > 0;
  let paid = false;
  for (let page = 1; !paid; page++) {
    const { items } = await wallet.listWithdraws(page, 100);
    paid = items.some((w) => w.status === "SUCCESS" && w.bankCode === account.bankCode && w.accountNumber === account.accountNumber);
    if (items.length < 100) break;
  }
  return { account, withdrawalOpen, paid };
}

/**
 * The player's bank page: the account (masked) and whether the player may replace it now,
 * and if not why (decision record 013).
 */
export async function bankPage(env: Env, agencyId: string, playerId: string) {
  const { account, withdrawalOpen, paid } = await bankReplacement(env, agencyId, playerId);
  return {
    account: account
      ? {
          bankCode: account.bankCode,
          maskedNumber: account.maskedNumber,
          accountName: account.accountName,
          currency: account.currency,
          // the "receive money" QR is kept: withdrawals are paid by one scan (decision 086)
          receiveQr: account.receiveQr !== null,
        }
      : null,
    replace: !account ? null : paid ? ("staff-only" as const) : withdrawalOpen ? ("withdrawal-open" as const) : ("allowed" as const),
  };
}

export type ReplaceBankAccountResult =
  | { ok: true; account: BankAccount }
  | {
      ok: false;
      code:
        | "ACCOUNT_NOT_FOUND"
        | "ACCOUNT_IN_USED"
        | "ACCOUNT_ALREADY_ADDED"
        | "NAME_CHARACTERS"
        | "BANK_WITHDRAW_OPEN"
        | "BANK_ACCOUNT_PAID"
        | "BANK_ACCOUNT_REFUSED"
        | ReceiveQrCode;
    };

/**
 * Replaces the player's one account (docs/decisions/013-names-and-bank-replacement.md).
 * The player (after the current password, checked by the caller) may do it while the
 * account has never been paid to; staff may do it later too (`allowPaid`). Never while a
 * withdrawal is open. The UPDATE is guarded by the account read here, so two replacements
 * at once end with one; the unique index keeps an account number to one player of the
 * agency (ACCOUNT_IN_USED); the audit row is written in the same batch, only if it changed.
 */
export async function replaceBankAccount(
  env: Env,
  actor: AuditActor,
  playerId: string,
  input: NewBankAccount,
  options: { allowPaid: boolean },
): Promise<ReplaceBankAccountResult> {
  const name = cleanName(input.accountName);
  if (!name.ok) return { ok: false, code: name.error };
  const next = { ...input, accountName: name.value };
  const agencyId = actor.agencyId;
  const state = await bankReplacement(env, agencyId, playerId);
  const current = state.account;
  if (!current) return { ok: false, code: "ACCOUNT_NOT_FOUND" };
  if (current.bankCode === next.bankCode && current.accountNumber === next.accountNumber) return { ok: false, code: "ACCOUNT_ALREADY_ADDED" };
  const [owner, screen, oldReceiver] = await Promise.all([
    bankAccountOwner(env.DB, agencyId, next),
    screenBlocklist(env.DB, agencyId, bankAccountKeys(next)),
    receiverOfPlayer(env.DB, agencyId, playerId),
  ]);
  if (owner) return { ok: false, code: "ACCOUNT_IN_USED" };
  if (state.withdrawalOpen) return { ok: false, code: "BANK_WITHDRAW_OPEN" };
  if (state.paid && !options.allowPaid) return { ok: false, code: "BANK_ACCOUNT_PAID" };
  // The owner's blocklist (decision 090), for the player's replacement and staff's alike.
  if (screen?.action === "refuse") return { ok: false, code: "BANK_ACCOUNT_REFUSED" };
  // The old account's QR goes with it: the new one has the QR given now, or none.
  const qr = await checkReceiveQr(env.DB, agencyId, playerId, next, input.receiveQr);
  if (!qr.ok) return qr;
  const view = (a: { bankCode: string; accountNumber: string; accountName: string; receiveQr?: unknown }) => ({
    bankCode: a.bankCode,
    accountNumber: a.accountNumber,
    accountName: a.accountName,
    receiveQr: Boolean(a.receiveQr),
  });
  try {
    const [update] = await env.DB.batch([
      replaceBankAccountStatement(env.DB, { ...current, agencyId, playerId }, { ...next, receiveQr: qr.qr }),
      auditIfChanged(env.DB, actor, {
        action: "player.bank-replace",
        target: playerId,
        // the old QR's receiver too: a receiver passed from one player to another links them (decisions 093, 094)
        before: { ...view(current), receiveQrReceiver: oldReceiver },
        after: { ...view({ ...next, receiveQr: qr.qr }), paidBefore: state.paid },
      }),
      ...flagStatements(env.DB, actor, playerId, "bank-replace", screen),
    ]);
    // Another replacement won the race: this one changed nothing (and wrote no audit row).
    if ((update.meta.changes ?? 0) === 0) return { ok: false, code: "ACCOUNT_NOT_FOUND" };
  } catch (error) {
    if (!String(error).includes("UNIQUE")) throw error;
    // the number's index, or the QR's (a player who took it meanwhile)
    return { ok: false, code: (await bankAccountOwner(env.DB, agencyId, next)) || !qr.qr ? "ACCOUNT_IN_USED" : "RECEIVE_QR_IN_USED" };
  }
  const [account] = await listBankAccounts(env.DB, agencyId, playerId);
  return { ok: true, account };
}

export type ReplaceOwnBankAccountResult =
  | ReplaceBankAccountResult
  | { ok: false; code: "PASSWORD_INCORRECT" }
  | { ok: false; code: "TOO_MANY_ATTEMPTS"; retryAfterSeconds: number };

/** The player replaces their own account: the current password first, then the rules above. */
export async function replaceOwnBankAccount(
  env: Env,
  agencyId: string,
  player: CurrentPlayer,
  input: NewBankAccount & { currentPassword: string },
  client: Client,
): Promise<ReplaceOwnBankAccountResult> {
  const password = await checkCurrentPassword(env.DB, agencyId, player, input.currentPassword, client);
  if (!password.ok) return password.code === "TOO_MANY_ATTEMPTS" ? password : { ok: false, code: "PASSWORD_INCORRECT" };
  // Players are not staff: the audit row names them in the actor column with a prefix.
  const actor: AuditActor = { agencyId, staffId: null, staffUsername: `player:${player.username}`, ip: client.ip, userAgent: client.userAgent };
  const { bankCode, accountNumber, accountName, receiveQr } = input;
  return replaceBankAccount(env, actor, player.id, { bankCode, accountNumber, accountName, receiveQr }, { allowPaid: false });
}
