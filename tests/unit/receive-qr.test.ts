import { describe, expect, test } from "vitest";
import { crc16, parseLaoQr } from "../../workers/core/emvco";
import { deriveAmountQr, matchAccountName, nameWords, payoutAmountText, readReceiveQr } from "../../workers/core/receive-qr";
import { personalLaoQr, staticLaoQr } from "../integration/fixtures/qr-images";

const BCEL = "27710418";
const LDB = "70030418";

describe("readReceiveQr: the player's receive QR against the chosen bank and the typed name (decision 086)", () => {
  test("a BCEL personal static QR whose name matches is read: receiver token, name, text", () => {
    const text = personalLaoQr();
    expect(readReceiveQr(`  ${text}\n`, BCEL, "Somsak Phommavong")).toEqual({
      ok: true,
      qr: { text, iin: BCEL, receiverId: "mch5F2A9C41D7E3", name: "SOMSAK PHOMMAVONG", altName: null },
    });
  });

  test("another bank's IIN, a merchant's QR, a broken CRC, an amount, not a LAO QR: each refused with its reason", () => {
    expect(readReceiveQr(personalLaoQr({ iin: LDB }), BCEL, "Somsak Phommavong")).toEqual({ ok: false, problem: "OTHER_BANK" });
    expect(readReceiveQr(personalLaoQr({ type: "002" }), BCEL, "Somsak Phommavong")).toEqual({ ok: false, problem: "MERCHANT" });
    const good = personalLaoQr();
    const broken = good.slice(0, -4) + (good.slice(-4) === "0000" ? "0001" : "0000");
    expect(readReceiveQr(broken, BCEL, "Somsak Phommavong")).toEqual({ ok: false, problem: "CRC" });
    // one changed letter inside the payload, CRC left as it was: the CRC catches it
    expect(readReceiveQr(good.replace("SOMSAK", "SOMSAX"), BCEL, "Somsax Phommavong")).toEqual({ ok: false, problem: "CRC" });
    expect(readReceiveQr(personalLaoQr({ pointOfInitiation: "12", amount: "50000" }), BCEL, "Somsak Phommavong")).toEqual({ ok: false, problem: "NOT_STATIC" });
    expect(readReceiveQr("https://example.com/pay", BCEL, "Somsak Phommavong")).toEqual({ ok: false, problem: "FORMAT" });
    // the agency's own merchant QR (tag 38.02 = 002) is a merchant's
    expect(readReceiveQr(staticLaoQr({ name: "SOMSAK PHOMMAVONG" }), BCEL, "Somsak Phommavong")).toEqual({ ok: false, problem: "MERCHANT" });
  });

  test("a name that is another person's is refused; a Lao name against a Latin-only QR asks for the bank's spelling", () => {
    expect(readReceiveQr(personalLaoQr(), BCEL, "Khamla Sisouphan")).toEqual({ ok: false, problem: "NAME" });
    expect(readReceiveQr(personalLaoQr(), BCEL, "ສົມສັກ ພົມມະວົງ")).toEqual({ ok: false, problem: "NAME_SCRIPT" });
    // with the Lao name in tag 64, a Lao name is compared with it
    const withLao = personalLaoQr({ altName: "ສົມສັກ ພົມມະວົງ" });
    expect(readReceiveQr(withLao, BCEL, "ສົມສັກ  ພົມມະວົງ")).toMatchObject({ ok: true, qr: { altName: "ສົມສັກ ພົມມະວົງ" } });
    expect(readReceiveQr(withLao, BCEL, "ຄຳລາ ສີສຸພັນ")).toEqual({ ok: false, problem: "NAME" });
  });
});

describe("the name rule", () => {
  test("case, spaces, punctuation, word order, titles and Latin accents do not count", () => {
    expect(matchAccountName("somsak phommavong", "SOMSAK PHOMMAVONG", null)).toBe("MATCH");
    expect(matchAccountName("Mr. Somsak  Phommavong", "PHOMMAVONG SOMSAK", null)).toBe("MATCH");
    expect(matchAccountName("Nguyễn Văn An", "NGUYEN VAN AN", null)).toBe("MATCH");
    expect(matchAccountName("ທ້າວ ສົມສັກ ພົມມະວົງ", "X", "ສົມສັກ ພົມມະວົງ")).toBe("MATCH");
    expect(nameWords("Mrs. Khamla-Sisouphan")).toEqual(["KHAMLA", "SISOUPHAN"]);
  });

  test("a letter more or less is another name; a name cut at tag 59's 25 characters matches its beginning", () => {
    expect(matchAccountName("Somsak Phommavon", "SOMSAK PHOMMAVONG", null)).toBe("NAME");
    expect(matchAccountName("Somsak", "SOMSAK PHOMMAVONG", null)).toBe("NAME");
    const cut = "SOMSAKKHAMPHOUVONG PHOMMA"; // 25 characters: the bank cut "PHOMMAVONG"
    expect(cut.length).toBe(25);
    expect(matchAccountName("Somsakkhamphouvong Phommavong", cut, null)).toBe("MATCH");
    // a short QR name is never a prefix match
    expect(matchAccountName("Somsak Phommavong", "SOMSAK", null)).toBe("NAME");
  });

  test("Lao vowel and tone marks are part of the word", () => {
    expect(matchAccountName("ສົມສັກ", "X", "ສມສກ")).toBe("NAME");
  });
});

describe("deriveAmountQr: the payout QR with the amount inserted", () => {
  test("01 becomes 12, 54 the amount, CRC recomputed; every other field as the bank encoded it", () => {
    const text = personalLaoQr({ altName: "ສົມສັກ ພົມມະວົງ" });
    const derived = deriveAmountQr(text, "1250000");
    expect(derived.slice(-4)).toBe(crc16(derived.slice(0, -4)));
    const a = parseLaoQr(text);
    const b = parseLaoQr(derived);
    expect(a.ok && b.ok).toBe(true);
    if (!a.ok || !b.ok) return;
    expect(b.qr).toEqual({ ...a.qr, dynamic: true, amount: "1250000" });
    expect(derived).toContain("64");
    expect(derived).toContain("ສົມສັກ");
    expect(() => deriveAmountQr(text, "1,250,000")).toThrow(RangeError);
  });

  test("the amount as tag 54 takes it", () => {
    expect(payoutAmountText("100000.00")).toBe("100000");
    expect(payoutAmountText("100000.50")).toBe("100000.5");
    expect(payoutAmountText("100000")).toBe("100000");
    expect(payoutAmountText("-5")).toBeNull();
  });
});
