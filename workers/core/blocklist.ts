/**
 * The owner's blocklist (decision 090): bank accounts, holder names, phones and devices that may
 * not register or add a bank account ("refuse"), or that may but mark the player for staff
 * ("flag"). Pure: what an entry's key is and what a set of matching entries decides. The keys
 * are the referral's normal forms (core/referral.ts, decisions 030 and 049), so "020 5555 1234",
 * "+856 20 55551234" and the same number in Lao digits are one phone, and "SOMCHAI P." is
 * "Somchai P".
 */
import { bankKey, deviceKey, holderKey, normalizePhone } from "./referral";

export const BLOCKLIST_KINDS = ["bank", "holder", "phone", "device"] as const;
export type BlocklistKind = (typeof BLOCKLIST_KINDS)[number];

/** "refuse": the registration or account is not made; "flag": it is, and staff see the player marked. */
export const BLOCKLIST_ACTIONS = ["refuse", "flag"] as const;
export type BlocklistAction = (typeof BLOCKLIST_ACTIONS)[number];

/** Where a player met the list: registering, adding a bank account, or replacing it. */
export type BlocklistCheckpoint = "registration" | "bank-add" | "bank-replace";

export function isBlocklistKind(value: unknown): value is BlocklistKind {
  return typeof value === "string" && (BLOCKLIST_KINDS as readonly string[]).includes(value);
}

/**
 * The stored match key of a value of `kind` (the kind first, so one unique index serves the
 * four lists and one `IN (...)` looks up all of a registration's keys), or null when the
 * value normalises to nothing that could match (a phone of fewer than 6 digits, a name of
 * punctuation only, an account number without digits, a device that is no fingerprint).
 */
export function blocklistKey(kind: BlocklistKind, value: string, bankCode?: string | null): string | null {
  switch (kind) {
    case "phone": {
      const phone = normalizePhone(value);
      return phone ? `phone:${phone}` : null;
    }
    case "holder": {
      const name = holderKey(value);
      return name ? `holder:${name}` : null;
    }
    case "bank": {
      if (!bankCode) return null;
      const account = bankKey({ bankCode, accountNumber: value });
      return account.endsWith(":") ? null : `bank:${account}`;
    }
    case "device": {
      const device = deviceKey(value);
      return device ? `device:${device}` : null;
    }
  }
}

const present = (keys: (string | null)[]): string[] => [...new Set(keys.filter((k): k is string => k !== null))];

/** The keys a registration is checked against: its phone, and the device its form carried (none without JavaScript). */
export function registrationKeys(input: { phone: string; fingerprint?: string | null }): string[] {
  return present([blocklistKey("phone", input.phone), input.fingerprint ? blocklistKey("device", input.fingerprint) : null]);
}

/** The keys a bank account is checked against: the account (bank and number) and its holder's name. */
export function bankAccountKeys(input: { bankCode: string; accountNumber: string; accountName: string }): string[] {
  return present([blocklistKey("bank", input.accountNumber, input.bankCode), blocklistKey("holder", input.accountName)]);
}

/** One entry a check matched: enough to decide, to mark the player and to say why. */
export type BlocklistMatch = { id: string; kind: BlocklistKind; action: BlocklistAction; shown: string };

/**
 * What the matching entries decide: any "refuse" refuses (the owner's strongest word wins),
 * else any "flag" flags, else nothing.
 */
export function blocklistVerdict<M extends BlocklistMatch>(matches: readonly M[]): { action: BlocklistAction; matches: M[] } | null {
  if (matches.length === 0) return null;
  const refusing = matches.filter((m) => m.action === "refuse");
  return refusing.length > 0 ? { action: "refuse", matches: refusing } : { action: "flag", matches: [...matches] };
}

/** Longest note kept with an entry: a sentence or two of why (a chargeback, a ring's other accounts). */
export const BLOCKLIST_NOTE_MAX = 300;
