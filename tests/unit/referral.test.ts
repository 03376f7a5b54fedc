import { describe, expect, it } from "vitest";
import {
  CODE_ALPHABET,
  completeWeeks,
  isClaimable,
  laterVerdict,
  newReferralCode,
  normalizePhone,
  normalizeReferralCode,
  registrationFlag,
  sameHolderName,
  SETTLE_MS,
  tieVerdict,
  turnoverRequired,
  weekOf,
  weeklyEarnings,
  weekStarting,
} from "../../workers/core/referral";
import { weekAt } from "../../workers/core/reward-period";

const vte = (local: string) => Date.parse(`${local}+07:00`);

describe("referral codes", () => {
  it("are 8 characters of an alphabet without look-alikes", () => {
    for (const c of "01OILU") expect(CODE_ALPHABET).not.toContain(c);
    const code = newReferralCode(crypto.getRandomValues(new Uint8Array(8)));
    expect(code).toMatch(/^[2-9A-HJKMNP-TV-Z]{8}$/);
  });
  it("read what people type: lower case, spaces and dashes; refuse anything else", () => {
    expect(normalizeReferralCode(" abcd-2345 ")).toBe("ABCD2345");
    expect(normalizeReferralCode("ABCD234")).toBeNull();
    expect(normalizeReferralCode("ABCD2340")).toBeNull(); // 0 is not in the alphabet
    expect(normalizeReferralCode("ABCD234O")).toBeNull();
    expect(normalizeReferralCode("")).toBeNull();
    expect(normalizeReferralCode(null)).toBeNull();
  });
});

describe("the tie", () => {
  it("never ties a player to themself", () => {
    expect(tieVerdict({ referrerId: "a", newPlayerId: "a", fingerprint: null, referrerFingerprints: [] })).toEqual({ tie: false, reason: "self" });
  });
  it("ties a device already seen on the referrer's account but does not count it", () => {
    expect(tieVerdict({ referrerId: "a", newPlayerId: "b", fingerprint: "f1", referrerFingerprints: ["f0", "f1"] })).toEqual({
      tie: true,
      counts: false,
      reason: "same_device",
    });
    expect(tieVerdict({ referrerId: "a", newPlayerId: "b", fingerprint: "f2", referrerFingerprints: ["f1"] })).toEqual({ tie: true, counts: true });
    expect(tieVerdict({ referrerId: "a", newPlayerId: "b", fingerprint: null, referrerFingerprints: ["f1"] })).toEqual({ tie: true, counts: true });
  });
  it("stops counting on a bank account the referrer holds or held (digits compared), or a shared device later", () => {
    const base = { referredBanks: [], referrerBanks: [], referredFingerprints: [], referrerFingerprints: [] };
    expect(laterVerdict(base)).toBeNull();
    expect(
      laterVerdict({
        ...base,
        referredBanks: [{ bankCode: "BCEL", accountNumber: "010-1234" }],
        referrerBanks: [{ bankCode: "BCEL", accountNumber: "0101234" }],
      }),
    ).toBe("same_bank");
    expect(
      laterVerdict({
        ...base,
        referredBanks: [{ bankCode: "LDB", accountNumber: "0101234" }],
        referrerBanks: [{ bankCode: "BCEL", accountNumber: "0101234" }],
      }),
    ).toBeNull();
    expect(laterVerdict({ ...base, referredFingerprints: ["x"], referrerFingerprints: ["x"] })).toBe("same_device");
  });
});

describe("self-referral without a fingerprint (decision 049)", () => {
  const tie = { referrerId: "a", newPlayerId: "b", fingerprint: null, referrerFingerprints: [] as string[] };
  it("phone numbers compare whatever their spelling: spaces, dashes, the country code, the trunk 0", () => {
    expect(normalizePhone("020 5555-1234")).toBe("2055551234");
    expect(normalizePhone("+856 20 55551234")).toBe("2055551234");
    expect(normalizePhone("008562055551234")).toBe("2055551234");
    expect(normalizePhone("85620 5555 1234")).toBe("2055551234");
    expect(normalizePhone("")).toBeNull();
    expect(normalizePhone("12")).toBeNull(); // too short to say anything
  });
  it("the referrer's phone at registration: tied, not counting", () => {
    expect(tieVerdict({ ...tie, phone: "+85620 5555 1234", referrerPhone: "02055551234" })).toEqual({ tie: true, counts: false, reason: "same_phone" });
    expect(tieVerdict({ ...tie, phone: "02055551235", referrerPhone: "02055551234" })).toEqual({ tie: true, counts: true });
    // the device reason wins when both match (it was the first rule)
    expect(tieVerdict({ ...tie, fingerprint: "f", referrerFingerprints: ["f"], phone: "1234567", referrerPhone: "1234567" })).toMatchObject({
      reason: "same_device",
    });
  });
  it("holder names compare without case, spacing, punctuation or accents", () => {
    expect(sameHolderName("Somchai Phommavong", "SOMCHAI  PHOMMAVONG")).toBe(true);
    expect(sameHolderName("Nguyễn Văn An", "nguyen van an")).toBe(true);
    expect(sameHolderName("ສົມໃຈ ພົມມະວົງ", "ສົມໃຈພົມມະວົງ")).toBe(true);
    expect(sameHolderName("Somchai Phommavong", "Somchai Phomma")).toBe(false);
    expect(sameHolderName("", "")).toBe(false);
  });
  it("a bank account in the referrer's name (any number) stops counting, as does the same number", () => {
    const base = { referredBanks: [], referrerBanks: [], referredFingerprints: [], referrerFingerprints: [] };
    expect(
      laterVerdict({
        ...base,
        referredBanks: [{ bankCode: "LDB", accountNumber: "999", accountName: "SOMCHAI P" }],
        referrerBanks: [{ bankCode: "BCEL", accountNumber: "111", accountName: "Somchai P." }],
      }),
    ).toBe("same_holder");
    expect(
      laterVerdict({
        ...base,
        referredBanks: [{ bankCode: "BCEL", accountNumber: "111", accountName: "A" }],
        referrerBanks: [{ bankCode: "BCEL", accountNumber: "111", accountName: "B" }],
      }),
    ).toBe("same_bank");
    expect(
      laterVerdict({
        ...base,
        referredBanks: [{ bankCode: "LDB", accountNumber: "999", accountName: null }],
        referrerBanks: [{ bankCode: "BCEL", accountNumber: "111", accountName: null }],
      }),
    ).toBeNull();
  });
  it("the referrer's IP address at registration only flags", () => {
    expect(registrationFlag({ ip: "10.0.0.1", referrerIps: ["10.0.0.2", "10.0.0.1"] })).toBe("same_ip");
    expect(registrationFlag({ ip: "10.0.0.3", referrerIps: ["10.0.0.1"] })).toBeNull();
    expect(registrationFlag({ ip: null, referrerIps: [] })).toBeNull();
  });
});

describe("weeks (Monday to Sunday, Vientiane)", () => {
  it("Sunday 23:59 Vientiane is still the week; Monday 00:00 starts the next", () => {
    expect(weekOf(vte("2026-11-29T23:59:59")).start).toBe("2026-11-23");
    expect(weekOf(vte("2026-11-30T00:00:00")).start).toBe("2026-11-30");
    // Sunday 17:30 UTC is Monday 00:30 in Vientiane
    expect(weekOf(Date.parse("2026-11-29T17:30:00Z")).start).toBe("2026-11-30");
    expect(weekOf(vte("2026-11-25T12:00:00")).end).toBe("2026-11-29");
  });
  it("are the reward calendar's weeks (core/reward-period.ts, the one cashback uses)", () => {
    // across an ISO year change and both sides of Vientiane midnight on a Monday
    for (let at = vte("2026-12-26T00:00:00"); at < vte("2027-01-12T00:00:00"); at += 5 * 3600_000 + 1) {
      const week = weekOf(at);
      expect({ start: week.start, end: week.end }).toEqual({ start: weekAt(at).from, end: weekAt(at).to });
      expect(week.startsAt).toBeLessThanOrEqual(at);
      expect(week.endsAt).toBeGreaterThan(at);
    }
  });
  it("a week id must be a Monday", () => {
    expect(weekStarting("2026-11-23")?.endsAt).toBe(vte("2026-11-30T00:00:00"));
    expect(weekStarting("2026-11-24")).toBeNull();
    expect(weekStarting("garbage")).toBeNull();
  });
  it("a week can be claimed two hours after it ended", () => {
    const week = weekStarting("2026-11-23")!;
    expect(isClaimable(week, week.endsAt + SETTLE_MS - 1)).toBe(false);
    expect(isClaimable(week, week.endsAt + SETTLE_MS)).toBe(true);
  });
  it("complete weeks: newest first, not before the first referral", () => {
    const weeks = completeWeeks(vte("2026-12-02T12:00:00"), vte("2026-11-18T00:00:00"), 8);
    expect(weeks.map((w) => w.start)).toEqual(["2026-11-23", "2026-11-16"]);
    // Monday 01:00: last week is not settled yet
    expect(completeWeeks(vte("2026-11-30T01:00:00"), 0, 1)[0]!.start).toBe("2026-11-16");
  });
});

describe("the weekly share", () => {
  const players = [
    { playerId: "a", netLossMinor: 100_000n, depositsMinor: 500_000n, withdrawalsMinor: 0n },
    { playerId: "b", netLossMinor: -80_000n, depositsMinor: 0n, withdrawalsMinor: 0n },
    { playerId: "c", netLossMinor: 20_001n, depositsMinor: 100_000n, withdrawalsMinor: 0n },
  ];
  it("net loss: a winner adds nothing (never subtracts); rounded down to the satang", () => {
    expect(weeklyEarnings({ mode: "net_loss", percentBp: 1000, weeklyCapMinor: 0n }, players)).toEqual({
      basisMinor: 120_001n,
      shareMinor: 12_000n,
      amountMinor: 12_000n,
      capped: false,
    });
  });
  it("deposits: of every counting player's settled deposits", () => {
    expect(weeklyEarnings({ mode: "deposits", percentBp: 250, weeklyCapMinor: 0n }, players).amountMinor).toBe(15_000n);
  });
  it("the cap binds", () => {
    expect(weeklyEarnings({ mode: "deposits", percentBp: 250, weeklyCapMinor: 10_000n }, players)).toEqual({
      basisMinor: 600_000n,
      shareMinor: 15_000n,
      amountMinor: 10_000n,
      capped: true,
    });
  });
  it("deposits are counted net of the week's withdrawals: a round trip adds 0, a player who took out more adds 0, never less (decision 049)", () => {
    const settings = { mode: "deposits" as const, percentBp: 1000, weeklyCapMinor: 0n };
    const roundTrip = { playerId: "r", netLossMinor: 0n, depositsMinor: 166_667n, withdrawalsMinor: 166_667n };
    expect(weeklyEarnings(settings, [roundTrip])).toEqual({ basisMinor: 0n, shareMinor: 0n, amountMinor: 0n, capped: false });
    const keeps = { playerId: "k", netLossMinor: 0n, depositsMinor: 400_000n, withdrawalsMinor: 150_000n };
    const winner = { playerId: "w", netLossMinor: 0n, depositsMinor: 100_000n, withdrawalsMinor: 900_000n };
    expect(weeklyEarnings(settings, [keeps, winner, roundTrip]).basisMinor).toBe(250_000n);
    // net loss mode never looks at withdrawals
    expect(weeklyEarnings({ ...settings, mode: "net_loss" }, [{ ...keeps, netLossMinor: 5_000n }]).basisMinor).toBe(5_000n);
  });
  it("turnover like a promotion's: the credit times the multiplier", () => {
    expect(turnoverRequired(12_000n, 3)).toBe(36_000n);
  });
});
