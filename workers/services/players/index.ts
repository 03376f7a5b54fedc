/**
 * Players: registration, login, sessions and passwords; the bank account and its replacement;
 * responsible gaming's page and breaks; device fingerprints; the back office's player pages.
 * The folder's only door: code outside it imports from here, and only what is exported here.
 */
export { sharedFingerprints } from "./admin-fingerprints";
export { addBlocklistEntry, blocklistExport, blocklistPage, removeBlocklistEntry, type BlocklistEntry } from "./blocklist";
export { endPlayerSessions, getPlayerDetail, lockPlayer, resetPlayerPassword, searchPlayers, unlockPlayer } from "./admin-players";
export {
  changePassword,
  checkUsernameAvailability,
  endOtherSessions,
  getPlayerInfo,
  listSessions,
  login,
  logout,
  registerPlayer,
  resolveSession,
  setForcedPassword,
} from "./auth";
export { bankPage, replaceBankAccount, replaceOwnBankAccount } from "./bank-replace";
export { addBankAccount, listBankAccounts, type BankAccount } from "./bank";
export { recordFingerprint } from "./fingerprint";
export { unlinkPlayers } from "./linked-accounts";
export { RECEIVE_QR_MAX_BYTES, type ReceiveQrCode } from "./receive-qr";
export { limitsPage, setLimits, startBreak, type BreakInput, type LimitsInput } from "./responsible-gaming";
export { pruneExpiredPlayerSessions } from "./session-prune";
