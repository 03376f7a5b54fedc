import { describe, expect, it } from "vitest";
import { heldFor, holdLinkKeys, holdRewardKey, reasonOfKey } from "../../workers/core/holds";

describe("holds' link keys (decision 094)", () => {
  it("writes one key per device, phone, account and receiver, in the referral's normal forms, each once", () => {
    const keys = holdLinkKeys({
      devices: ["AB12AB12AB12AB12", "ab12ab12ab12ab12", "not-a-print"],
      phone: "+856 20 5555 1234",
      banks: [
        { bankCode: "BCEL", accountNumber: "010-12-00-1234567" },
        { bankCode: "BCEL", accountNumber: "0101200 1234567" },
      ],
      receivers: ["27710418:mch123", "  "],
    });
    expect(keys).toEqual(["bank:BCEL:01012001234567", "device:ab12ab12ab12ab12", "phone:2055551234", "receiver:27710418:mch123"].sort());
  });

  it("never writes an address, a holder name or a referral: they never hold on their own", () => {
    expect(holdLinkKeys({ devices: [], phone: null, banks: [], receivers: [] })).toEqual([]);
    expect(reasonOfKey("ip:10.0.0.1")).toBeNull();
    expect(reasonOfKey("holder:somchai")).toBeNull();
    expect(reasonOfKey("device:ab12")).toBe("device");
  });

  it("a promotion is once per person by its id; a reward by kind and period, whatever the provider", () => {
    expect(holdRewardKey("PROMOTION", "welcome-100")).toBe("PROMOTION:welcome-100");
    expect(holdRewardKey("CASHBACK", "2026-W48")).toBe("CASHBACK:2026-W48");
  });

  it("groups the conflicting keys by player, strongest reason first", () => {
    expect(
      heldFor([
        { playerId: "a", key: "phone:2055551234" },
        { playerId: "a", key: "device:ab12ab12ab12ab12" },
        { playerId: "b", key: "bank:BCEL:1" },
      ]),
    ).toEqual([
      { playerId: "a", reasons: ["device", "phone"] },
      { playerId: "b", reasons: ["bank"] },
    ]);
  });
});
