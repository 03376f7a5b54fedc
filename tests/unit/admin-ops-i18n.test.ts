import { describe, expect, it } from "vitest";
import lo from "../../locales/lo/admin.json";
import cn from "../../locales/cn/admin.json";
import vn from "../../locales/vn/admin.json";
import loCommon from "../../locales/lo/common.json";
import cnCommon from "../../locales/cn/common.json";
import vnCommon from "../../locales/vn/common.json";

/** The back-office operations strings (deposits, payments, players, fingerprints) and the player's forced-password strings. */
function flat(value: unknown, prefix = ""): Record<string, string> {
  if (typeof value === "string") return { [prefix]: value };
  return Object.assign({}, ...Object.entries(value as Record<string, unknown>).map(([k, v]) => flat(v, prefix ? `${prefix}.${k}` : k)));
}

const OWN = ["deposits", "payments", "players", "fingerprints"] as const;
const pick = (file: Record<string, unknown>) => flat(Object.fromEntries(OWN.map((k) => [k, file[k]])));

describe("back-office operations translations", () => {
  it("have the same keys in lo, cn and vn, in each language's script", () => {
    const [flo, fcn, fvn] = [pick(lo), pick(cn), pick(vn)];
    expect(Object.keys(flo).length).toBeGreaterThan(100);
    expect(Object.keys(fcn).sort()).toEqual(Object.keys(flo).sort());
    expect(Object.keys(fvn).sort()).toEqual(Object.keys(flo).sort());
    for (const [key, value] of Object.entries(flo)) expect(value, key).toMatch(/[\u0E80-\u0EFF]/);
    for (const [key, value] of Object.entries(fcn)) expect(value, key).toMatch(/[\u4E00-\u9FFF]/);
    for (const [key, value] of Object.entries(fvn)) expect(value, key).not.toBe(flo[key]);
  });
  it("the forced-password and locked messages exist in every language", () => {
    for (const file of [loCommon, cnCommon, vnCommon]) {
      const f = flat((file as Record<string, unknown>).forcedPassword, "forcedPassword");
      expect(Object.keys(f).sort()).toEqual([
        "forcedPassword.accountLocked",
        "forcedPassword.done",
        "forcedPassword.intro",
        "forcedPassword.samePassword",
        "forcedPassword.save",
        "forcedPassword.title",
      ]);
    }
  });
});
