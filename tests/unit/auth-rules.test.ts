import { describe, expect, it } from "vitest";
import { lockDurationMs, nextFailureCount, retryAfterSeconds, THROTTLE_POLICIES } from "../../workers/core/throttle";
import { newSessionTimes, PLAYER_SESSION, SESSION_ABSOLUTE_MS, SESSION_IDLE_MS, sessionState, shouldTouch } from "../../workers/core/session";
import { localDate, parseStored, shouldSendFingerprint } from "~/lib/fingerprint";
import { ChangePasswordSchema, LoginSchema, RegisterSchema } from "~/lib/schemas/auth";
import { errorMessageKey, ERROR_CODES } from "~/lib/errors";
import lo from "../../locales/lo/common.json";
import cn from "../../locales/cn/common.json";
import vn from "../../locales/vn/common.json";
import loPlayer from "../../locales/lo/player.json";
import cnPlayer from "../../locales/cn/player.json";
import vnPlayer from "../../locales/vn/player.json";

describe("throttle policy", () => {
  const acctIp = THROTTLE_POLICIES["acct-ip"];
  it("lets the free allowance through, then doubles from 2 s up to 15 min", () => {
    expect([1, 2, 3, 4, 5].map((n) => lockDurationMs(acctIp, n))).toEqual([0, 0, 0, 0, 0]);
    expect([6, 7, 8, 9].map((n) => lockDurationMs(acctIp, n))).toEqual([2000, 4000, 8000, 16000]);
    expect(lockDurationMs(acctIp, 15)).toBe(15 * 60 * 1000);
    expect(lockDurationMs(acctIp, 10_000)).toBe(15 * 60 * 1000);
  });
  it("locks a distributed attack on one account for 5 minutes per failure past 88", () => {
    const acct = THROTTLE_POLICIES.acct;
    expect(lockDurationMs(acct, 88)).toBe(0);
    expect(lockDurationMs(acct, 89)).toBe(5 * 60 * 1000);
    expect(lockDurationMs(acct, 500)).toBe(5 * 60 * 1000);
    // at most 88 free + one per 5-minute lock = 100 checked guesses in an hour (ASVS 2.2.1)
    expect(acct.freeFailures + acct.windowMs / acct.baseLockMs).toBe(100);
  });
  it("lets 10 registrations an hour through per address", () => {
    const reg = THROTTLE_POLICIES.reg;
    expect(lockDurationMs(reg, 9)).toBe(0);
    expect(lockDurationMs(reg, 10)).toBe(60 * 60 * 1000);
  });
  it("slows a device's registrations past the owner's allowance for an hour, doubling to a day, counted for a day", () => {
    const device = THROTTLE_POLICIES["reg-device"];
    expect(device.windowMs).toBe(24 * 60 * 60 * 1000);
    // the default six a day: five free, the sixth locks for an hour, then 2 h, 4 h ... at most 24 h
    expect([5, 6, 7, 8].map((n) => lockDurationMs(device, n))).toEqual([0, 1, 2, 4].map((h) => h * 60 * 60 * 1000));
    expect(lockDurationMs(device, 40)).toBe(24 * 60 * 60 * 1000);
    // the owner's own allowance comes as the key's `free`: two a day, the second locks
    expect(lockDurationMs({ ...device, freeFailures: 1 }, 2)).toBe(60 * 60 * 1000);
  });
  it("forgets failures older than the window", () => {
    const start = 1_000_000;
    expect(nextFailureCount(4, start, start + 1000, acctIp)).toEqual({ failures: 5, windowStartedAt: start });
    expect(nextFailureCount(40, start, start + acctIp.windowMs, acctIp)).toEqual({ failures: 1, windowStartedAt: start + acctIp.windowMs });
  });
  it("tells the player at least one second, rounded up", () => {
    expect(retryAfterSeconds(1000, 1000)).toBe(1);
    expect(retryAfterSeconds(2001, 1000)).toBe(2);
    expect(retryAfterSeconds(61_000, 1000)).toBe(60);
  });
});

describe("session lifetime (30 min idle, 12 h absolute)", () => {
  const t0 = 1_700_000_000_000;
  const s = newSessionTimes(t0, PLAYER_SESSION.absoluteMs);
  it("is valid until idle or absolute expiry", () => {
    expect(sessionState(s, PLAYER_SESSION, t0)).toBe("valid");
    expect(sessionState(s, PLAYER_SESSION, t0 + SESSION_IDLE_MS - 1)).toBe("valid");
    expect(sessionState(s, PLAYER_SESSION, t0 + SESSION_IDLE_MS)).toBe("idle-expired");
    expect(sessionState({ ...s, lastSeenAt: t0 + SESSION_ABSOLUTE_MS - 1000 }, PLAYER_SESSION, t0 + SESSION_ABSOLUTE_MS)).toBe("expired");
    expect(sessionState({ ...s, expiresAt: t0 + 10 }, PLAYER_SESSION, t0 + 10)).toBe("expired");
  });
  it("writes activity back at most once a minute", () => {
    expect(shouldTouch(s, PLAYER_SESSION, t0 + 59_999)).toBe(false);
    expect(shouldTouch(s, PLAYER_SESSION, t0 + 60_000)).toBe(true);
  });
});

describe("fingerprint: sent once a day or on change", () => {
  it("sends when nothing is stored, when it changed, or on a new day", () => {
    expect(shouldSendFingerprint(null, "abc", "2026-11-21")).toBe(true);
    expect(shouldSendFingerprint({ date: "2026-11-21", fingerprint: "abc" }, "abc", "2026-11-21")).toBe(false);
    expect(shouldSendFingerprint({ date: "2026-11-21", fingerprint: "abc" }, "abd", "2026-11-21")).toBe(true);
    expect(shouldSendFingerprint({ date: "2026-11-20", fingerprint: "abc" }, "abc", "2026-11-21")).toBe(true);
  });
  it("reads only a well-formed stored copy", () => {
    expect(parseStored(null)).toBeNull();
    expect(parseStored("not json")).toBeNull();
    expect(parseStored('{"date":1}')).toBeNull();
    expect(parseStored('{"date":"2026-11-21","fingerprint":"x"}')).toEqual({ date: "2026-11-21", fingerprint: "x" });
  });
  it("formats the local date as YYYY-MM-DD", () => {
    expect(localDate(new Date(2026, 0, 5, 23, 59))).toBe("2026-01-05");
  });
});

const errorsOf = (result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  Object.fromEntries((result.error?.issues ?? []).map((i) => [i.path.join("."), i.message]));

describe("account schemas (docs/product.md §5)", () => {
  it("username: lowercase letters, digits, - and _, 4 to 20", () => {
    for (const ok of ["abcd", "a-b_c9", "x".repeat(20)]) expect(LoginSchema.safeParse({ username: ok, password: "12345678" }).success).toBe(true);
    expect(errorsOf(LoginSchema.safeParse({ username: "abc", password: "12345678" })).username).toBe("validation.usernameMin");
    expect(errorsOf(LoginSchema.safeParse({ username: "x".repeat(21), password: "12345678" })).username).toBe("validation.usernameMax");
    for (const bad of ["Abcd", "ab cd", "abçd", "ab.cd", "ab@cd"]) {
      expect(errorsOf(LoginSchema.safeParse({ username: bad, password: "12345678" })).username).toBe("validation.usernameFormat");
    }
  });
  it("password: 8 to 128", () => {
    expect(errorsOf(LoginSchema.safeParse({ username: "abcd", password: "1234567" })).password).toBe("validation.passwordMin");
    expect(errorsOf(LoginSchema.safeParse({ username: "abcd", password: "x".repeat(129) })).password).toBe("validation.passwordMax");
    expect(errorsOf(LoginSchema.safeParse({ username: "abcd" })).password).toBe("validation.required");
  });
  it("register: confirm must match, phone digits, 18+ ticked", () => {
    const base = { username: "abcd", password: "12345678", confirmPassword: "12345678", phone: "020 5555-1234", adult: "on" };
    const ok = RegisterSchema.safeParse(base);
    expect(ok.success).toBe(true);
    expect(ok.data?.phone).toBe("02055551234");
    expect(errorsOf(RegisterSchema.safeParse({ ...base, confirmPassword: "12345679" })).confirmPassword).toBe("validation.confirmMismatch");
    expect(errorsOf(RegisterSchema.safeParse({ ...base, phone: "12ab" })).phone).toBe("validation.phone");
    expect(errorsOf(RegisterSchema.safeParse({ ...base, adult: undefined })).adult).toBe("validation.adult");
    expect(RegisterSchema.safeParse({ ...base, adult: true }).success).toBe(true);
  });
  it("register: a mismatch shows at once, beside the other errors (not only once they are fixed)", () => {
    const errors = errorsOf(RegisterSchema.safeParse({ password: "12345678", confirmPassword: "12345679" }));
    expect(errors.confirmPassword).toBe("validation.confirmMismatch");
    expect(errors.username).toBe("validation.required");
    expect(errors.phone).toBe("validation.required");
    // nothing to compare until both are typed
    expect(errorsOf(RegisterSchema.safeParse({ password: "12345678" })).confirmPassword).toBe("validation.confirmRequired");
  });
  it("change password: >= 8 each, 'please enter password', 'password not match' on confirm", () => {
    const base = { currentPassword: "12345678", newPassword: "abcdefgh", confirmNewPassword: "abcdefgh" };
    expect(ChangePasswordSchema.safeParse(base).success).toBe(true);
    expect(errorsOf(ChangePasswordSchema.safeParse({ ...base, currentPassword: "1234567" })).currentPassword).toBe("validation.passwordMin");
    expect(errorsOf(ChangePasswordSchema.safeParse({ ...base, newPassword: "short" })).newPassword).toBe("validation.passwordMin");
    expect(errorsOf(ChangePasswordSchema.safeParse({ ...base, confirmNewPassword: undefined })).confirmNewPassword).toBe("validation.pleaseEnterPassword");
    expect(errorsOf(ChangePasswordSchema.safeParse({ ...base, confirmNewPassword: "abcdefgX" })).confirmNewPassword).toBe("validation.passwordNotMatch");
    // the mismatch with the current password still missing: shown at once
    expect(errorsOf(ChangePasswordSchema.safeParse({ newPassword: "abcdefgh", confirmNewPassword: "abcdefgX" })).confirmNewPassword).toBe(
      "validation.passwordNotMatch",
    );
  });
});

describe("translations", () => {
  const flatten = (obj: object, prefix = ""): Record<string, string> =>
    Object.entries(obj).reduce<Record<string, string>>((acc, [k, v]) => {
      if (v && typeof v === "object") Object.assign(acc, flatten(v, `${prefix}${k}.`));
      else acc[`${prefix}${k}`] = String(v);
      return acc;
    }, {});
  // the common and player namespaces together (the player pages see both)
  const [flo, fcn, fvn] = [
    [lo, loPlayer],
    [cn, cnPlayer],
    [vn, vnPlayer],
  ].map(([common, player]) => ({ ...flatten(common), ...flatten(player) }));
  it("no key is in both the common and the player namespace", () => {
    const common = Object.keys(flatten(lo));
    for (const key of Object.keys(flatten(loPlayer))) expect(common, key).not.toContain(key);
  });
  it("every key exists in lo, cn and vn", () => {
    expect(Object.keys(fcn).sort()).toEqual(Object.keys(flo).sort());
    expect(Object.keys(fvn).sort()).toEqual(Object.keys(flo).sort());
  });
  it("Lao strings are in Lao script and Chinese strings in Han script (brand names aside)", () => {
    const brands = /^(menu\.(askmebet|betflix|gclub|alphabet)|providers\.\w+|contact\.(telegram|whatsapp|facebook|twitter|line))$/;
    for (const [key, value] of Object.entries(flo)) if (!brands.test(key)) expect(value, key).toMatch(/[\u0E80-\u0EFF]/);
    for (const [key, value] of Object.entries(fcn)) if (!brands.test(key)) expect(value, key).toMatch(/[\u4E00-\u9FFF]/);
    for (const [key, value] of Object.entries(fvn)) if (!brands.test(key)) expect(value, key).not.toBe(flo[key]);
  });
  it("every error code has a message in every language", () => {
    for (const code of ERROR_CODES) {
      const key = errorMessageKey(code);
      for (const f of [flo, fcn, fvn]) expect(f[key], `${key}`).toBeTruthy();
    }
  });
});
