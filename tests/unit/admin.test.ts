import { describe, expect, it } from "vitest";
import { vientianeDay } from "../../workers/services/reports";
import { newRecoveryCode, normalizeRecoveryCode, staffLoginKeys } from "../../workers/services/staff";
import { safeAdminPath } from "../../app/lib/staff.server";
import { RecoveryCodeSchema, TotpSchema } from "../../app/lib/schemas/admin";
import lo from "../../locales/lo/admin.json";
import cn from "../../locales/cn/admin.json";
import vn from "../../locales/vn/admin.json";

function flatten(value: unknown, prefix = ""): Record<string, string> {
  if (typeof value === "string") return { [prefix]: value };
  return Object.entries(value as Record<string, unknown>).reduce((all, [k, v]) => Object.assign(all, flatten(v, prefix ? `${prefix}.${k}` : k)), {});
}

describe("admin translations", () => {
  it("the three languages have the same keys, and each is in its own script", () => {
    const [l, c, v] = [lo, cn, vn].map((f) => flatten(f));
    expect(Object.keys(c).sort()).toEqual(Object.keys(l).sort());
    expect(Object.keys(v).sort()).toEqual(Object.keys(l).sort());
    expect(l["nav.title"]).toMatch(/[\u0E80-\u0EFF]/);
    expect(c["nav.title"]).toMatch(/[\u4E00-\u9FFF]/);
    expect(v["auth.loginTitle"]).toMatch(/[ăâđêôơư]/i);
  });
});

describe("vientianeDay", () => {
  it("is the UTC+7 calendar day: 17:00 UTC starts the next day", () => {
    expect(vientianeDay(Date.parse("2026-11-21T16:59:59.999Z"))).toEqual({
      start: "2026-11-20T17:00:00.000Z",
      end: "2026-11-21T17:00:00.000Z",
      date: "2026-11-21",
    });
    expect(vientianeDay(Date.parse("2026-11-21T17:00:00.000Z"))).toEqual({
      start: "2026-11-21T17:00:00.000Z",
      end: "2026-11-22T17:00:00.000Z",
      date: "2026-11-22",
    });
  });
});

describe("safeAdminPath", () => {
  it("follows only back-office paths of this site", () => {
    expect(safeAdminPath("/admin/withdrawals?page=2")).toBe("/admin/withdrawals?page=2");
    expect(safeAdminPath("/admin")).toBe("/admin");
    for (const bad of [
      "https://evil.example/admin",
      "//evil.example",
      "/admin.evil",
      "/administrator",
      "/player/deposit",
      "/admin\\..\\x",
      "/admin/login/totp",
      "/admin/logout",
      "/admin/enrol?token=x",
      null,
      "",
    ]) {
      expect(safeAdminPath(bad), String(bad)).toBe("/admin");
    }
  });
});

describe("recovery codes and second-factor input", () => {
  it("codes are xxxxx-xxxxx from an alphabet without look-alikes; typing is forgiving", () => {
    const codes = new Set(Array.from({ length: 50 }, newRecoveryCode));
    expect(codes.size).toBe(50);
    for (const code of codes) expect(code).toMatch(/^[a-hjkmnp-z2-9]{5}-[a-hjkmnp-z2-9]{5}$/);
    expect(normalizeRecoveryCode(" ABCDE-fghjk ")).toBe("abcdefghjk");
    expect(RecoveryCodeSchema.safeParse({ recoveryCode: "abcde fghjk" }).success).toBe(true);
    expect(RecoveryCodeSchema.safeParse({ recoveryCode: "abc" }).success).toBe(false);
    expect(TotpSchema.parse({ code: "123 456" })).toEqual({ code: "123456" });
    expect(TotpSchema.safeParse({ code: "12345a" }).success).toBe(false);
  });

  it("staff throttle keys never collide with player keys", () => {
    for (const key of staffLoginKeys("demo", "demo", "1.2.3.4")) expect(key.id.startsWith("staff:")).toBe(true);
  });
});
