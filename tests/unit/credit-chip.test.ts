import { describe, expect, it } from "vitest";
import { chipFigure, chipTime, sumDecimals, type KnownCredit } from "../../workers/core/credit-chip";

const ENABLED = ["askmebet", "betflix", "gclub"];
const at = (iso: string) => Date.parse(iso);

function credit(provider: string, amount: string, seenAt = at("2026-12-02T03:00:00Z"), currency = "THB"): KnownCredit {
  return { provider, amount, currency, seenAt };
}

describe("the header's credit (decision 081)", () => {
  it("adds decimal texts exactly, whatever their decimals (no float drift)", () => {
    expect(sumDecimals(["0.1", "0.2"])).toBe("0.3");
    expect(sumDecimals(["1234.5", "0.25", "100"])).toBe("1334.75");
    expect(sumDecimals(["10.00", "-12.5"])).toBe("-2.50");
    expect(sumDecimals(["999999999999999999.99", "0.01"])).toBe("1000000000000000000.00");
    expect(sumDecimals([])).toBe("0");
    expect(sumDecimals(["1e3"])).toBeNull();
    expect(sumDecimals(["12,5"])).toBeNull();
  });

  it("on a lobby shows that provider's credit only", () => {
    const known = [credit("askmebet", "10.00"), credit("betflix", "5.50", at("2026-12-02T04:00:00Z"))];
    expect(chipFigure(known, ENABLED, "betflix")).toEqual({ amount: "5.50", currency: "THB", seenAt: at("2026-12-02T04:00:00Z") });
    expect(chipFigure(known, ENABLED, "gclub")).toBeNull();
  });

  it("elsewhere totals the enabled providers, as old as the oldest part", () => {
    const known = [credit("askmebet", "10.00", at("2026-12-02T03:00:00Z")), credit("betflix", "5.5", at("2026-12-02T04:00:00Z")), credit("alphabet", "99")];
    // alphabet is not enabled for this agency any more: left out
    expect(chipFigure(known, ENABLED, null)).toEqual({ amount: "15.50", currency: "THB", seenAt: at("2026-12-02T03:00:00Z") });
  });

  it("nothing known, or no one currency: no figure", () => {
    expect(chipFigure([], ENABLED, null)).toBeNull();
    expect(chipFigure([credit("askmebet", "1"), credit("betflix", "2", undefined, "USD")], ENABLED, null)).toBeNull();
    expect(chipFigure([credit("askmebet", "garbage")], ENABLED, null)).toBeNull();
  });

  it("writes the time in Vientiane: HH:mm today, the date before today, the full time always", () => {
    const seen = at("2026-12-02T03:04:05Z"); // 10:04:05 in Vientiane
    expect(chipTime(seen, at("2026-12-02T16:59:59Z"))).toEqual({ full: "02/12/2026 10:04:05", short: "10:04" });
    // 17:00 UTC is midnight in Vientiane: the next day
    expect(chipTime(seen, at("2026-12-02T17:00:00Z"))).toEqual({ full: "02/12/2026 10:04:05", short: "02/12/2026" });
  });
});
