/**
 * Back-office staff: login in two steps, sessions, TOTP and recovery codes, enrolment links,
 * the owner's staff accounts and API tokens, the audit log, and the counts on the menu's queues.
 * The folder's only door: code outside it imports from here, and only what is exported here.
 */
export { auditLogPage, auditReportExport } from "./admin-audit";
export { waitingCounts, type WaitingCounts } from "./admin-queues";
export { apiTokensPage, authenticateApiToken, createApiToken, revokeApiToken, rotateApiToken } from "./api-tokens";
export { createStaffAccount, listStaff, resetSecondFactor, setStaffStatus } from "./staff-accounts";
export { completeEnrolment, openEnrolment } from "./staff-enrolment";
export { staffLoginKeys, staffPasswordLogin, staffSecondFactor } from "./staff-login";
export { pruneExpiredStaffSessions } from "./staff-session-prune";
export { resolveStaffSession, staffLogout, type StaffMember, type StaffSession } from "./staff-sessions";
export { newRecoveryCode, newTotpSecret, normalizeRecoveryCode, TOTP_PERIOD } from "./staff-totp";
