import { findBank, maskAccountNumber } from "../core/banks";
import { cleanName } from "../core/names";

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
};

type Row = { id: string; bank_code: string; account_number: string; account_name: string; currency: "LAK"; owner: "SELF"; created_at: string };

const toAccount = (row: Row): BankAccount => ({
  id: row.id,
  bankCode: row.bank_code,
  bankName: findBank(row.bank_code)?.name ?? row.bank_code,
  accountNumber: row.account_number,
  maskedNumber: maskAccountNumber(row.account_number),
  accountName: row.account_name,
  currency: row.currency,
  owner: row.owner,
  createdAt: row.created_at,
});

export async function listBankAccounts(db: D1Database, agencyId: string, playerId: string): Promise<BankAccount[]> {
  const { results } = await db
    .prepare(`SELECT id, bank_code, account_number, account_name, currency, owner, created_at FROM bank_accounts WHERE agency_id = ?1 AND player_id = ?2`)
    .bind(agencyId, playerId)
    .all<Row>();
  return results.map(toAccount);
}

export type AddBankAccountResult =
  | { ok: true; account: BankAccount }
  | { ok: false; code: "ACCOUNT_IN_USED" | "ACCOUNT_ALREADY_ADDED" | "ONE_ACCOUNT_ONLY" | "NAME_CHARACTERS" };

/**
 * Adds the player's one LAK account. The unique indexes decide races: two players adding
 * the same number at once, or one player double-submitting, end with one row.
 */
export async function addBankAccount(
  db: D1Database,
  agencyId: string,
  playerId: string,
  input: { bankCode: string; accountNumber: string; accountName: string },
): Promise<AddBankAccountResult> {
  // The name rule again: a NUL or a bidi override in the name makes every payout fail.
  const name = cleanName(input.accountName);
  if (!name.ok) return { ok: false, code: name.error };
  input = { ...input, accountName: name.value };
  const existing = await db
    .prepare(`SELECT player_id, bank_code, account_number FROM bank_accounts WHERE agency_id = ?1 AND (player_id = ?2 OR (bank_code = ?3 AND account_number = ?4))`)
    .bind(agencyId, playerId, input.bankCode, input.accountNumber)
    .all<{ player_id: string; bank_code: string; account_number: string }>();
  const verdict = classify(existing.results, playerId, input);
  if (verdict) return { ok: false, code: verdict };
  const id = crypto.randomUUID();
  try {
    await db
      .prepare(`INSERT INTO bank_accounts (id, agency_id, player_id, bank_code, account_number, account_name, currency, owner) VALUES (?1, ?2, ?3, ?4, ?5, ?6, 'LAK', 'SELF')`)
      .bind(id, agencyId, playerId, input.bankCode, input.accountNumber, input.accountName)
      .run();
  } catch (error) {
    if (!String(error).includes("UNIQUE")) throw error;
    const again = await db
      .prepare(`SELECT player_id, bank_code, account_number FROM bank_accounts WHERE agency_id = ?1 AND (player_id = ?2 OR (bank_code = ?3 AND account_number = ?4))`)
      .bind(agencyId, playerId, input.bankCode, input.accountNumber)
      .all<{ player_id: string; bank_code: string; account_number: string }>();
    return { ok: false, code: classify(again.results, playerId, input) ?? "ACCOUNT_IN_USED" };
  }
  const [account] = (await listBankAccounts(db, agencyId, playerId)).filter((a) => a.id === id);
  return { ok: true, account };
}

function classify(
  rows: { player_id: string; bank_code: string; account_number: string }[],
  playerId: string,
  input: { bankCode: string; accountNumber: string },
): "ACCOUNT_IN_USED" | "ACCOUNT_ALREADY_ADDED" | "ONE_ACCOUNT_ONLY" | null {
  const sameNumber = rows.find((r) => r.bank_code === input.bankCode && r.account_number === input.accountNumber);
  if (sameNumber && sameNumber.player_id !== playerId) return "ACCOUNT_IN_USED";
  if (sameNumber) return "ACCOUNT_ALREADY_ADDED";
  if (rows.some((r) => r.player_id === playerId)) return "ONE_ACCOUNT_ONLY";
  return null;
}
