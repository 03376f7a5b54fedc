import { describe, expect, it } from "vitest";
import { deriveLinks, HELD_AT, IP_WINDOW_MS, LINK_WEIGHTS, pairOf, phoneSpellings, riskScore, type Link, type Trace } from "../../workers/core/linked-accounts";
import { normalizePhone } from "../../workers/core/referral";
import { UnlinkSchema } from "../../app/lib/schemas/linked-accounts";

/** Linked accounts (decision 093): who is linked to whom, why and when, and the score. */
const T0 = "2026-11-01T10:00:00.000Z";
const at = (hours: number) => new Date(Date.parse(T0) + hours * 3600_000).toISOString();
const FP = "a".repeat(32);

const trace = (playerId: string, reason: Trace["reason"], value: string, when = T0, until?: string): Trace => ({ playerId, reason, value, at: when, until });

describe("link derivation", () => {
  it("links players sharing a device, a phone spelled another way, a holder name typed another way, a bank account, a receive QR", () => {
    const links = deriveLinks({
      subjectId: "me",
      traces: [
        trace("me", "device", FP),
        trace("me", "phone", "02055551234"),
        trace("me", "holder", "Nguyễn Văn An"),
        trace("me", "bank", "BCEL:010-12-00-1234567"),
        trace("me", "receiver", "970436:TOKEN1"),
        trace("dev", "device", FP.toUpperCase(), at(5)),
        trace("tel", "phone", "+85620 5555 1234", at(1)),
        trace("name", "holder", "NGUYEN VAN AN", at(2)),
        trace("acct", "bank", "BCEL:01012001234567", at(3)),
        trace("qr", "receiver", "970436:TOKEN1", at(4)),
        // near misses: another phone, another name, the same number at another bank, another device
        trace("x1", "phone", "02055551235"),
        trace("x2", "holder", "Nguyen Van Anh"),
        trace("x3", "bank", "LDB:01012001234567"),
        trace("x4", "device", "b".repeat(32)),
      ],
      referrals: [],
      unlinks: [],
    });
    const why = Object.fromEntries(links.map((l) => [l.playerId, l.reasons.map((r) => r.reason)]));
    expect(why).toEqual({ dev: ["device"], tel: ["phone"], name: ["holder"], acct: ["bank"], qr: ["receiver"] });
    // newest first, each link seen when the second of the two sightings was made
    expect(links.map((l) => l.playerId)).toEqual(["dev", "qr", "acct", "name", "tel"]);
    expect(links[0]!.seenAt).toBe(at(5));
  });

  it("never links on a value that is no key: a made-up fingerprint, a short phone, a name of dots", () => {
    const links = deriveLinks({
      subjectId: "me",
      traces: [
        trace("me", "device", "not-a-print"),
        trace("other", "device", "not-a-print"),
        trace("me", "phone", "12345"),
        trace("other", "phone", "12345"),
        trace("me", "holder", "..."),
        trace("other", "holder", "..."),
      ],
      referrals: [],
      unlinks: [],
    });
    expect(links).toEqual([]);
  });

  it("links by an address only within the window, measured between the two sessions' spans", () => {
    const links = deriveLinks({
      subjectId: "me",
      traces: [
        trace("me", "ip", "203.0.113.7", at(0), at(2)),
        trace("near", "ip", "203.0.113.7", at(2 + 23), at(30)),
        trace("far", "ip", "203.0.113.7", at(2 + 25), at(28)),
        trace("overlap", "ip", "203.0.113.7", at(-100), at(1)),
        trace("other-ip", "ip", "203.0.113.8", at(0), at(2)),
      ],
      referrals: [],
      unlinks: [],
    });
    expect(links.map((l) => l.playerId).sort()).toEqual(["near", "overlap"]);
    expect(IP_WINDOW_MS).toBe(24 * 3600_000);
    expect(
      deriveLinks({
        subjectId: "me",
        traces: [trace("me", "ip", "1.1.1.1", at(0)), trace("b", "ip", "1.1.1.1", at(30))],
        referrals: [],
        unlinks: [],
        ipWindowMs: 31 * 3600_000,
      }),
    ).toHaveLength(1);
  });

  it("links the referrer and the referred both ways, one reason per pair however many traces", () => {
    const links = deriveLinks({
      subjectId: "me",
      traces: [trace("me", "device", FP, at(0)), trace("me", "device", FP, at(9)), trace("up", "device", FP, at(1))],
      referrals: [
        { referrerId: "up", referredId: "me", at: at(0) },
        { referrerId: "me", referredId: "down", at: at(3) },
        { referrerId: "up", referredId: "sibling", at: at(4) },
      ],
      unlinks: [],
    });
    expect(links.map((l) => [l.playerId, l.reasons.map((r) => r.reason)])).toEqual([
      ["up", ["device", "referral"]],
      ["down", ["referral"]],
    ]);
    expect(links[0]!.reasons[0]!.seenAt).toBe(at(9));
  });

  it("keeps an unlinked pair in the list, marked with why, who and when", () => {
    const unlink = { playerId: "mum", reason: "mother and son, one phone", by: "boss", at: at(1) };
    const links = deriveLinks({ subjectId: "me", traces: [trace("me", "device", FP), trace("mum", "device", FP)], referrals: [], unlinks: [unlink] });
    expect(links).toEqual([{ playerId: "mum", reasons: [{ reason: "device", seenAt: T0 }], seenAt: T0, unlink }]);
  });
});

const link = (playerId: string, reasons: Link["reasons"][number]["reason"][], unlinked = false): Link => ({
  playerId,
  reasons: reasons.map((reason) => ({ reason, seenAt: T0 })),
  seenAt: T0,
  unlink: unlinked ? { playerId, reason: "family", by: "boss", at: T0 } : null,
});

describe("risk score", () => {
  it("is nothing without links", () => {
    expect(riskScore([])).toEqual({ total: 0, parts: [], heldWorthy: false });
  });

  it("adds a part per reason, its weight per linked player", () => {
    const score = riskScore([link("a", ["device", "ip"]), link("b", ["device"])]);
    expect(score.parts).toEqual([
      { reason: "device", players: 2, points: 2 * LINK_WEIGHTS.device },
      { reason: "ip", players: 1, points: LINK_WEIGHTS.ip },
    ]);
    expect(score.total).toBe(90);
    expect(score.heldWorthy).toBe(true);
  });

  it("never makes a player held-worthy on addresses, holder names and referrals alone, however many", () => {
    const many = Array.from({ length: 10 }, (_, i) => link(`p${i}`, ["ip", "holder", "referral"]));
    const score = riskScore(many);
    expect(score.total).toBeGreaterThanOrEqual(HELD_AT);
    expect(score.heldWorthy).toBe(false);
  });

  it("makes one strong reason alone held-worthy: a shared device, phone, bank account or receive QR", () => {
    for (const reason of ["device", "phone", "bank", "receiver"] as const) expect(riskScore([link("a", [reason])]).heldWorthy, reason).toBe(true);
  });

  it("counts at most three players per reason, caps at 100, and leaves unlinked pairs out", () => {
    const ring = Array.from({ length: 6 }, (_, i) => link(`p${i}`, ["ip"]));
    expect(riskScore(ring).parts).toEqual([{ reason: "ip", players: 6, points: 3 * LINK_WEIGHTS.ip }]);
    expect(riskScore(Array.from({ length: 6 }, (_, i) => link(`p${i}`, ["bank", "device"]))).total).toBe(100);
    expect(riskScore([link("mum", ["device", "phone"], true)])).toEqual({ total: 0, parts: [], heldWorthy: false });
  });
});

describe("phone spellings and pairs", () => {
  it("spells a phone every way the form stores it, each normalising back to it", () => {
    const spellings = phoneSpellings("2055551234");
    for (const s of ["2055551234", "02055551234", "+8562055551234", "85602055551234", "008562055551234", "+2055551234"]) expect(spellings).toContain(s);
    for (const s of spellings) expect(normalizePhone(s)).toBe("2055551234");
  });

  it("orders a pair one way whichever side it is made from", () => {
    expect(pairOf("b", "a")).toEqual(["a", "b"]);
    expect(pairOf("a", "b")).toEqual(["a", "b"]);
  });

  it("asks a reason of 3 characters or more for an unlink", () => {
    expect(UnlinkSchema.safeParse({ intent: "unlink", otherId: "x", reason: " ab " }).success).toBe(false);
    expect(UnlinkSchema.safeParse({ intent: "unlink", otherId: "x", reason: "siblings" }).success).toBe(true);
    expect(UnlinkSchema.safeParse({ intent: "unlink", otherId: "", reason: "siblings" }).success).toBe(false);
  });
});
