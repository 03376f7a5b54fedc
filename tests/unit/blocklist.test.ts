import { describe, expect, it } from "vitest";
import { bankAccountKeys, blocklistKey, blocklistVerdict, registrationKeys, type BlocklistMatch } from "../../workers/core/blocklist";
import { BlocklistAddSchema } from "../../app/lib/schemas/blocklist";
import { alertText } from "../../workers/core/alerts";

/** The owner's blocklist (decision 090): one normal form per kind, so a listed value matches however it is typed. */
describe("blocklist keys", () => {
  it("read a phone however it is spelled: spaces, dashes, +856, 00856, the trunk 0, Lao and Thai digits", () => {
    const key = blocklistKey("phone", "020 5555 1234");
    expect(key).toBe("phone:2055551234");
    for (const spelling of ["02055551234", "+856 20 5555-1234", "008562055551234", "85620 5555 1234", "໐໒໐ ໕໕໕໕ ໑໒໓໔", "+໘໕໖ ໒໐ ໕໕໕໕ ໑໒໓໔", "๐๒๐๕๕๕๕๑๒๓๔"]) {
      expect(blocklistKey("phone", spelling), spelling).toBe(key);
    }
    expect(blocklistKey("phone", "020 5555 1235")).not.toBe(key);
    // too short to say anything: never listed, never matched
    expect(blocklistKey("phone", "12345")).toBeNull();
    expect(blocklistKey("phone", "໑໒໓")).toBeNull();
  });

  it("read an account number with dashes, spaces or Lao digits as its digits, at its bank only", () => {
    const key = blocklistKey("bank", "010-12-00-1234567", "BCEL");
    expect(key).toBe("bank:BCEL:01012001234567");
    expect(blocklistKey("bank", "0101200 1234567", "BCEL")).toBe(key);
    expect(blocklistKey("bank", "໐໑໐໑໒໐໐໑໒໓໔໕໖໗", "BCEL")).toBe(key);
    // the same number at another bank is another account
    expect(blocklistKey("bank", "0101200 1234567", "LDB")).not.toBe(key);
    // no bank, or no digits: nothing to match
    expect(blocklistKey("bank", "0101200 1234567", null)).toBeNull();
    expect(blocklistKey("bank", "--", "BCEL")).toBeNull();
  });

  it("read a holder name without case, spaces, punctuation or Latin accents; Lao marks stay", () => {
    const key = blocklistKey("holder", "Somchai Phommavong");
    for (const spelling of ["SOMCHAI PHOMMAVONG", "  somchai   phommavong ", "Somchai-Phommavong.", "SÔMCHAI PHÔMMAVONG"]) {
      expect(blocklistKey("holder", spelling), spelling).toBe(key);
    }
    expect(blocklistKey("holder", "Nguyễn Văn An")).toBe(blocklistKey("holder", "NGUYEN VAN AN"));
    expect(blocklistKey("holder", "ສົມໃຈ ພົມມະວົງ")).toBe(blocklistKey("holder", "ສົມໃຈພົມມະວົງ"));
    // a tone mark is part of the letter: another name
    expect(blocklistKey("holder", "ສົມໃຈ")).not.toBe(blocklistKey("holder", "ສມໃຈ"));
    expect(blocklistKey("holder", "Somchai P.")).not.toBe(key);
    expect(blocklistKey("holder", " .-. ")).toBeNull();
  });

  it("read a device fingerprint in lower case, and nothing that is no fingerprint", () => {
    expect(blocklistKey("device", " ABCDEF0123456789 ")).toBe("device:abcdef0123456789");
    expect(blocklistKey("device", "abcdef012345678")).toBeNull(); // 15 characters
    expect(blocklistKey("device", "not-a-fingerprint-at-all")).toBeNull();
  });

  it("check a registration by its phone and device, a bank account by its number and holder", () => {
    expect(registrationKeys({ phone: "+8562055551234", fingerprint: "ABCDEF0123456789" })).toEqual(["phone:2055551234", "device:abcdef0123456789"]);
    // JavaScript off: no fingerprint, the phone still checked
    expect(registrationKeys({ phone: "02055551234", fingerprint: "" })).toEqual(["phone:2055551234"]);
    expect(bankAccountKeys({ bankCode: "LDB", accountNumber: "1234-567-890", accountName: "Somchai P." })).toEqual(["bank:LDB:1234567890", "holder:somchaip"]);
  });
});

describe("blocklist verdict", () => {
  const entry = (id: string, action: "refuse" | "flag"): BlocklistMatch => ({ id, kind: "phone", action, shown: id });
  it("refuses when any match refuses, flags when all flag, and says nothing without a match", () => {
    expect(blocklistVerdict([])).toBeNull();
    expect(blocklistVerdict([entry("a", "flag"), entry("b", "refuse")])).toEqual({ action: "refuse", matches: [entry("b", "refuse")] });
    expect(blocklistVerdict([entry("a", "flag"), entry("c", "flag")])).toEqual({ action: "flag", matches: [entry("a", "flag"), entry("c", "flag")] });
  });
});

describe("the owner's add form", () => {
  const base = { intent: "add", kind: "phone", value: "020 5555 1234", action: "refuse" };
  it("takes what can match, refuse by default", () => {
    const parsed = BlocklistAddSchema.safeParse({ ...base, action: undefined });
    expect(parsed.success && parsed.data.action).toBe("refuse");
  });
  it("refuses a value that normalises to nothing, and a bank account without its bank", () => {
    const short = BlocklistAddSchema.safeParse({ ...base, value: "12-34" });
    expect(short.success).toBe(false);
    expect(short.error?.issues[0]?.message).toBe("admin:blocklist.validation.phone");
    const noBank = BlocklistAddSchema.safeParse({ ...base, kind: "bank", value: "0101200123456" });
    expect(noBank.error?.issues[0]?.message).toBe("admin:blocklist.validation.bank");
    expect(BlocklistAddSchema.safeParse({ ...base, kind: "bank", value: "0101200123456", bankCode: "BCEL" }).success).toBe(true);
    expect(BlocklistAddSchema.safeParse({ ...base, note: "x".repeat(301) }).success).toBe(false);
  });
});

describe("the staff alert of a flagged player", () => {
  it("says who, where and which kinds, in the owner's language, and links to the player's page", () => {
    const event = {
      id: "player.blocklisted:1",
      kind: "player.blocklisted" as const,
      facts: { playerId: "p-1", username: "somchai", checkpoint: "bank-add" as const, kinds: ["bank", "holder"], at: "2026-12-02T05:00:00.000Z" },
    };
    const text = alertText(event, "lo", "https://demo.example", Date.parse("2026-12-02T05:01:00Z"));
    expect(text).toContain("somchai");
    expect(text).toContain("ບັນຊີທະນາຄານ, ຊື່ເຈົ້າຂອງບັນຊີ");
    expect(text).toContain("ຕອນເພີ່ມບັນຊີທະນາຄານ");
    expect(text.split("\n").at(-1)).toBe("https://demo.example/admin/players/p-1");
    expect(alertText(event, "cn", "https://demo.example", 0)).toContain("添加银行账户时匹配黑名单（银行账户, 户名）");
    expect(alertText(event, "vn", "https://demo.example", 0)).toContain("khi thêm tài khoản ngân hàng");
  });
});
