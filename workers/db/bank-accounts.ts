import { findBank, maskAccountNumber } from "../core/banks";
import { holderKey } from "../core/referral";
import { readOne, rowsOf, type Read } from "./reads";

/** Statements over `bank_accounts`: a player's one LAK account (migration 0003). */

export type BankAccount = {
  id: string;
  bankCode: string;
  bankName: string;
  accountNumber: string;
  maskedNumber: string;
  accountName: string;
  currency: "LAK";
  owner: "SELF";
  createdAt: string;
  /** The player's "receive money" LAO QR (migration 0048, decision 086), or null: paid by account number. */
  receiveQr: string | null;
};

type BankAccountRow = {
  id: string;
  bank_code: string;
  account_number: string;
  account_name: string;
  currency: "LAK";
  owner: "SELF";
  created_at: string;
  receive_qr: string | null;
};

const toBankAccount = (row: BankAccountRow): BankAccount => ({
  id: row.id,
  bankCode: row.bank_code,
  bankName: findBank(row.bank_code)?.name ?? row.bank_code,
  accountNumber: row.account_number,
  maskedNumber: maskAccountNumber(row.account_number),
  accountName: row.account_name,
  currency: row.currency,
  owner: row.owner,
  createdAt: row.created_at,
  receiveQr: row.receive_qr,
});

/** Whether the player has added their bank account (deposits, promotions and withdrawals need one). */
export function hasBankAccountRead(db: D1Database, agencyId: string, playerId: string): Read<boolean> {
  return {
    statement: db.prepare(`SELECT 1 FROM bank_accounts WHERE agency_id = ?1 AND player_id = ?2 LIMIT 1`).bind(agencyId, playerId),
    read: (result) => result.results.length > 0,
  };
}

export function hasBankAccount(db: D1Database, agencyId: string, playerId: string): Promise<boolean> {
  return readOne(hasBankAccountRead(db, agencyId, playerId));
}

function playerBankAccountsRead(db: D1Database, agencyId: string, playerId: string): Read<BankAccount[]> {
  return {
    statement: db
      .prepare(
        `SELECT id, bank_code, account_number, account_name, currency, owner, created_at, receive_qr FROM bank_accounts WHERE agency_id = ?1 AND player_id = ?2`,
      )
      .bind(agencyId, playerId),
    read: (result) => rowsOf<BankAccountRow>(result).map(toBankAccount),
  };
}

export function playerBankAccounts(db: D1Database, agencyId: string, playerId: string): Promise<BankAccount[]> {
  return readOne(playerBankAccountsRead(db, agencyId, playerId));
}

/** Who holds an account: the player's own, or this bank + number at any player of the agency. */
export type BankAccountHolder = { playerId: string; bankCode: string; accountNumber: string };

export async function bankAccountHolders(
  db: D1Database,
  agencyId: string,
  playerId: string,
  account: { bankCode: string; accountNumber: string },
): Promise<BankAccountHolder[]> {
  const { results } = await db
    .prepare(
      `SELECT player_id, bank_code, account_number FROM bank_accounts WHERE agency_id = ?1 AND (player_id = ?2 OR (bank_code = ?3 AND account_number = ?4))`,
    )
    .bind(agencyId, playerId, account.bankCode, account.accountNumber)
    .all<{ player_id: string; bank_code: string; account_number: string }>();
  return results.map((r) => ({ playerId: r.player_id, bankCode: r.bank_code, accountNumber: r.account_number }));
}

/** The player of the agency holding this bank + number, or null. */
export async function bankAccountOwner(db: D1Database, agencyId: string, account: { bankCode: string; accountNumber: string }): Promise<string | null> {
  const row = await db
    .prepare(`SELECT player_id FROM bank_accounts WHERE agency_id = ?1 AND bank_code = ?2 AND account_number = ?3`)
    .bind(agencyId, account.bankCode, account.accountNumber)
    .first<{ player_id: string }>();
  return row?.player_id ?? null;
}

/** A receiving QR as stored: its text and its receiver ("<IIN>:<receiver token>", one player of an agency each). */
export type StoredReceiveQr = { text: string; receiver: string };

/** The player of the agency whose account holds this QR receiver, or null. */
export async function receiveQrHolder(db: D1Database, agencyId: string, receiver: string): Promise<string | null> {
  const row = await db
    .prepare(`SELECT player_id FROM bank_accounts WHERE agency_id = ?1 AND receive_qr_receiver = ?2`)
    .bind(agencyId, receiver)
    .first<{ player_id: string }>();
  return row?.player_id ?? null;
}

/** The receiver of the player's account's QR (null: none): what a replacement keeps in its audit row (decision 094). */
export async function receiverOfPlayer(db: D1Database, agencyId: string, playerId: string): Promise<string | null> {
  const row = await db
    .prepare(`SELECT receive_qr_receiver FROM bank_accounts WHERE agency_id = ?1 AND player_id = ?2`)
    .bind(agencyId, playerId)
    .first<{ receive_qr_receiver: string | null }>();
  return row?.receive_qr_receiver ?? null;
}

/**
 * The receiving QR of the player's account, only while the account is still the one given
 * (a withdrawal keeps the account it was confirmed with; a replaced account's QR is not its).
 */
export async function receiveQrOfAccount(
  db: D1Database,
  agencyId: string,
  playerId: string,
  account: { bankCode: string; accountNumber: string },
): Promise<string | null> {
  const row = await db
    .prepare(`SELECT receive_qr FROM bank_accounts WHERE agency_id = ?1 AND player_id = ?2 AND bank_code = ?3 AND account_number = ?4`)
    .bind(agencyId, playerId, account.bankCode, account.accountNumber)
    .first<{ receive_qr: string | null }>();
  return row?.receive_qr ?? null;
}

type NewBankAccountRow = {
  id: string;
  agencyId: string;
  playerId: string;
  bankCode: string;
  accountNumber: string;
  accountName: string;
  receiveQr: StoredReceiveQr | null;
};

/**
 * The account as a statement, for the batch that writes a blocklist flag with it (decision 090).
 * Throws on the unique indexes (one account per player, one player per account number, one player per QR receiver).
 */
export function insertBankAccountStatement(db: D1Database, account: NewBankAccountRow): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO bank_accounts (id, agency_id, player_id, bank_code, account_number, account_name, currency, owner, receive_qr, receive_qr_receiver, holder_key)
       VALUES (?1, ?2, ?3, ?4, ?5, ?6, 'LAK', 'SELF', ?7, ?8, ?9)`,
    )
    .bind(
      account.id,
      account.agencyId,
      account.playerId,
      account.bankCode,
      account.accountNumber,
      account.accountName,
      account.receiveQr?.text ?? null,
      account.receiveQr?.receiver ?? null,
      // the linked accounts' lookup by holder name (decision 093)
      holderKey(account.accountName),
    );
}

type AccountFields = { bankCode: string; accountNumber: string; accountName: string };

/**
 * Replaces the account's bank, number, name and receiving QR (the old QR is the old
 * account's: none unless a new one is given), guarded by the values read before: a
 * replacement that lost a race changes nothing. Throws on the unique indexes (number or QR in use).
 */
export function replaceBankAccountStatement(
  db: D1Database,
  current: AccountFields & { id: string; agencyId: string; playerId: string },
  next: AccountFields & { receiveQr?: StoredReceiveQr | null },
): D1PreparedStatement {
  return db
    .prepare(
      `UPDATE bank_accounts SET bank_code = ?1, account_number = ?2, account_name = ?3, receive_qr = ?10, receive_qr_receiver = ?11, holder_key = ?12,
         created_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
       WHERE id = ?4 AND agency_id = ?5 AND player_id = ?6 AND bank_code = ?7 AND account_number = ?8 AND account_name = ?9`,
    )
    .bind(
      next.bankCode,
      next.accountNumber,
      next.accountName,
      current.id,
      current.agencyId,
      current.playerId,
      current.bankCode,
      current.accountNumber,
      current.accountName,
      next.receiveQr?.text ?? null,
      next.receiveQr?.receiver ?? null,
      holderKey(next.accountName),
    );
}
