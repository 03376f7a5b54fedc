/**
 * Lao banks a player may add (LAPNet members, ../shared/OUTSIDE.md). Account number
 * lengths are the ranges seen on the banks' own account formats, kept generous; an agency
 * that knows better can tighten them here. E-money wallets (M-Money, U-Money, ...) are
 * deliberately absent: docs/product.md §1, wallet accounts cannot be used for banking.
 */
export type Bank = { code: string; iin: string; name: string; digits: [min: number, max: number] };

export const BANKS: readonly Bank[] = [
  { code: "BCEL", iin: "27710418", name: "Banque pour le Commerce Exterieur Lao Public", digits: [13, 18] },
  { code: "LDB", iin: "70030418", name: "Lao Development Bank", digits: [10, 18] },
  { code: "APB", iin: "70020418", name: "Agricultural Promotion Bank", digits: [10, 18] },
  { code: "JDB", iin: "32170418", name: "Joint Development Bank", digits: [10, 18] },
  { code: "LVB", iin: "70050418", name: "Lao-Viet Bank", digits: [10, 18] },
  { code: "IB", iin: "70140418", name: "Indochina Bank", digits: [10, 18] },
  { code: "STB", iin: "70150418", name: "ST Bank", digits: [10, 18] },
  { code: "ACLEDA", iin: "70080418", name: "ACLEDA Bank Lao", digits: [10, 18] },
  { code: "BIC", iin: "70110418", name: "BIC Bank Lao", digits: [10, 18] },
  { code: "MJBL", iin: "70040418", name: "Maruhan Japan Bank Lao", digits: [10, 18] },
];

export const BANK_CODES = BANKS.map((b) => b.code) as [string, ...string[]];

export function findBank(code: string): Bank | undefined {
  return BANKS.find((b) => b.code === code);
}

/** Account numbers are digits only; spaces and dashes people type are removed first. */
export function normalizeAccountNumber(value: string): string {
  return value.replace(/[\s-]/g, "");
}

export function isValidAccountNumber(bankCode: string, accountNumber: string): boolean {
  const bank = findBank(bankCode);
  if (!bank || !/^\d+$/.test(accountNumber)) return false;
  return accountNumber.length >= bank.digits[0] && accountNumber.length <= bank.digits[1];
}

/** Only the last 4 digits are shown back (screens, staff lists, logs). */
export function maskAccountNumber(accountNumber: string): string {
  return accountNumber.length <= 4 ? accountNumber : "•".repeat(Math.min(accountNumber.length - 4, 8)) + accountNumber.slice(-4);
}
