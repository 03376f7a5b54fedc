/**
 * Logging in, for players and staff alike: password hashing, the failure throttle and the
 * login gate with its device cookie (decision 011).
 * The folder's only door: code outside it imports from here, and only what is exported here.
 */
export {
  DEVICE_COOKIE_MAX_AGE_S,
  loginFailed,
  loginGateOf,
  loginGateReads,
  loginSucceeded,
  openLoginGate,
  readDeviceCookie,
  succeededKeys,
  writeDeviceCookie,
} from "./login-guard";
export { dummyPasswordHash, hashPassword, needsRehash, verifyPassword } from "./password";
export {
  checkThrottle,
  clearThrottle,
  clearThrottleStatements,
  lockedUntilRead,
  recordFailure,
  throttleCheck,
  type ThrottleCount,
  type ThrottleKey,
} from "./throttle";
