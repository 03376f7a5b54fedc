import { describe, expect, it } from "vitest";
import { offerPause, periodEnd, playedFromSpans, type OfferFacts } from "../../workers/core/responsible-gaming";

/** The offers rule (decision 091): may this player be offered anything now, and if not why. */

const H = 3600_000;
const D = 24 * H;
// Wednesday 2026-11-25 15:00 Vientiane (08:00 UTC)
const NOW = Date.UTC(2026, 10, 25, 8, 0, 0);

const free: OfferFacts = {
  breaks: [],
  depositLimits: { day: null, week: null, month: null },
  playLimitMinutes: null,
  depositsUsed: null,
  playedMs: 0,
};
const used = (day: bigint, week = day, month = week) => ({ day, week, month });

describe("offerPause", () => {
  it("no break, no limit: offers are open", () => {
    expect(offerPause(free, NOW)).toBeNull();
  });

  it("a cooling-off or self-exclusion in force pauses offers until it ends; one ended or not begun does not", () => {
    const cooling = { kind: "cooling_off" as const, startsAt: NOW - H, endsAt: NOW + D };
    expect(offerPause({ ...free, breaks: [cooling] }, NOW)).toEqual({ reason: "COOLING_OFF", until: NOW + D });
    const excluded = { kind: "self_exclusion" as const, startsAt: NOW - D, endsAt: NOW + 180 * D };
    expect(offerPause({ ...free, breaks: [cooling, excluded] }, NOW)).toEqual({ reason: "SELF_EXCLUDED", until: NOW + 180 * D });
    expect(offerPause({ ...free, breaks: [{ ...cooling, endsAt: NOW }] }, NOW)).toBeNull();
    expect(offerPause({ ...free, breaks: [{ ...cooling, startsAt: NOW + 1 }] }, NOW)).toBeNull();
  });

  it("the break comes first, even when a limit would pause offers longer", () => {
    const cooling = { kind: "cooling_off" as const, startsAt: NOW - H, endsAt: NOW + H };
    const facts: OfferFacts = { ...free, breaks: [cooling], depositLimits: { day: null, week: null, month: 100n }, depositsUsed: used(100n) };
    expect(offerPause(facts, NOW)?.reason).toBe("COOLING_OFF");
  });

  it("a deposit window with nothing left pauses offers until it resets; one with a kip left does not", () => {
    const limits = { day: 100_000n, week: null, month: null };
    expect(offerPause({ ...free, depositLimits: limits, depositsUsed: used(99_999n) }, NOW)).toBeNull();
    expect(offerPause({ ...free, depositLimits: limits, depositsUsed: used(100_000n) }, NOW)).toEqual({
      reason: "DEPOSIT_LIMIT_REACHED",
      until: periodEnd("day", NOW),
    });
    // unread usage (no deposit limit set) never pauses
    expect(offerPause({ ...free, depositLimits: limits, depositsUsed: null }, NOW)).toBeNull();
  });

  it("several windows used up: offers wait for the one that resets last", () => {
    const limits = { day: 100n, week: 500n, month: 1_000n };
    expect(offerPause({ ...free, depositLimits: limits, depositsUsed: { day: 100n, week: 500n, month: 600n } }, NOW)).toEqual({
      reason: "DEPOSIT_LIMIT_REACHED",
      until: periodEnd("week", NOW),
    });
    expect(offerPause({ ...free, depositLimits: limits, depositsUsed: { day: 100n, week: 500n, month: 1_000n } }, NOW)?.until).toBe(periodEnd("month", NOW));
  });

  it("today's play time at its limit pauses offers until the next Vientiane day", () => {
    expect(offerPause({ ...free, playLimitMinutes: 60n, playedMs: 59 * 60_000 }, NOW)).toBeNull();
    expect(offerPause({ ...free, playLimitMinutes: 60n, playedMs: 60 * 60_000 }, NOW)).toEqual({
      reason: "PLAY_TIME_LIMIT_REACHED",
      until: periodEnd("day", NOW),
    });
  });

  it("play time and a week's deposits both reached: the week's end names the pause", () => {
    const facts: OfferFacts = {
      ...free,
      depositLimits: { day: null, week: 10n, month: null },
      depositsUsed: used(0n, 10n, 10n),
      playLimitMinutes: 1n,
      playedMs: H,
    };
    expect(offerPause(facts, NOW)).toEqual({ reason: "DEPOSIT_LIMIT_REACHED", until: periodEnd("week", NOW) });
  });
});

describe("playedFromSpans", () => {
  it("a live session counts to now, an idle or ended one to its last activity", () => {
    const idle = 30 * 60_000;
    expect(playedFromSpans([{ from: NOW - H, to: NOW - 60_000, ended: false }], idle, NOW)).toBe(H);
    expect(playedFromSpans([{ from: NOW - H, to: NOW - 40 * 60_000, ended: false }], idle, NOW)).toBe(20 * 60_000);
    expect(playedFromSpans([{ from: NOW - H, to: NOW - 60_000, ended: true }], idle, NOW)).toBe(H - 60_000);
  });
});
