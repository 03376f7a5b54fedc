/**
 * Error codes (docs/product.md §8 plus our own) and the translation key of the message a player
 * sees for each. The JSON API answers `{ error: { code, message } }`; pages show the
 * message in the player's language.
 */
export const ERROR_CODES = [
  "ACCOUNT_NOT_FOUND",
  "ACCOUNT_IN_USED",
  "ACCOUNT_ALREADY_ADDED",
  "ONE_ACCOUNT_ONLY",
  "PROMOTION_ONLY_FOR_FIRST_ORDER",
  "CANNOT_USE_PROMOTION_WHILE_ORDER_IS_OPEN",
  "OPEN_ORDER",
  "PROMOTION_ALREADY_USED",
  "PROMOTION_USAGE",
  "PROMOTION_INACTIVE",
  "PROMOTION_CREDIT_USED",
  "PROMOTION_NOT_FOUND",
  "PROMOTION_ONE_AT_A_TIME",
  "PROMOTION_BANK_ACCOUNT_REQUIRED",
  "PROMOTION_CREDIT_TOO_HIGH",
  "PROMOTION_PROVIDER",
  "PROMOTION_OTHER_PROVIDER",
  "PROMOTION_SET_AMOUNT",
  "PROMOTION_WITHDRAW_ALL",
  "PROMOTION_CREDIT_NOT_ENOUGH",
  "PROMOTION_WITHDRAW_OPEN",
  "PROMOTION_BONUS_PENDING",
  "PROMOTION_NOT_CANCELABLE",
  "AGENCY_NOT_FOUND",
  "INVALID_CREDENTIALS",
  "ACCOUNT_LOCKED",
  "USERNAME_EXISTS",
  "PASSWORD_INCORRECT",
  "TOO_MANY_ATTEMPTS",
  "VALIDATION_FAILED",
  "UNAUTHORIZED",
  "PASSWORD_CHANGE_REQUIRED",
  "NOT_FOUND",
  "PROVIDER_UNAVAILABLE",
  "UNSUPPORTED_MEDIA_TYPE",
  "MALFORMED_BODY",
  "NAME_CHARACTERS",
  "BANK_WITHDRAW_OPEN",
  "BANK_ACCOUNT_PAID",
  // responsible gaming (decision 025): the player's own break or limit
  "COOLING_OFF",
  "SELF_EXCLUDED",
  "DEPOSIT_LIMIT_REACHED",
  "PLAY_TIME_LIMIT_REACHED",
  // offers paused by the player's own break or limit (decision 091)
  "OFFERS_PAUSED",
  // rewards (cashback, referral share; decision 029): a withdrawal held by a reward's turnover
  "REWARD_PENDING",
  "REWARD_TURNOVER_NOT_MET",
  // the owner's blocklist (decision 090): "contact staff", naming nothing about the list
  "REGISTRATION_REFUSED",
  "BANK_ACCOUNT_REFUSED",
  // holds (decision 094): a claim of a linked account's player waits for staff, or they said no
  "REWARD_HELD",
  "REWARD_REFUSED",
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

/** Codes that mean the same thing share one message. */
const SAME_AS: Partial<Record<ErrorCode, ErrorCode>> = {
  OPEN_ORDER: "CANNOT_USE_PROMOTION_WHILE_ORDER_IS_OPEN",
  PROMOTION_USAGE: "PROMOTION_ALREADY_USED",
};

/** Codes whose message lives under another key (added with the back office). */
const OWN_KEY: Partial<Record<ErrorCode, string>> = {
  ACCOUNT_LOCKED: "forcedPassword.accountLocked",
  NAME_CHARACTERS: "validation.nameCharacters",
  COOLING_OFF: "limits.errors.COOLING_OFF",
  SELF_EXCLUDED: "limits.errors.SELF_EXCLUDED",
  DEPOSIT_LIMIT_REACHED: "limits.errors.DEPOSIT_LIMIT_REACHED",
  PLAY_TIME_LIMIT_REACHED: "limits.errors.PLAY_TIME_LIMIT_REACHED",
  OFFERS_PAUSED: "offers.errors.OFFERS_PAUSED",
  REWARD_PENDING: "reward.errors.REWARD_PENDING",
  REWARD_TURNOVER_NOT_MET: "reward.errors.REWARD_TURNOVER_NOT_MET",
  REGISTRATION_REFUSED: "blocklist.registrationRefused",
  BANK_ACCOUNT_REFUSED: "blocklist.bankAccountRefused",
  REWARD_HELD: "reward.errors.REWARD_HELD",
  REWARD_REFUSED: "reward.errors.REWARD_REFUSED",
};

export function errorMessageKey(code: ErrorCode): string {
  return OWN_KEY[code] ?? `errors.code.${SAME_AS[code] ?? code}`;
}

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === "string" && (ERROR_CODES as readonly string[]).includes(value);
}
