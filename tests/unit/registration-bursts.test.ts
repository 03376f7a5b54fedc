import { describe, expect, it } from "vitest";
import { DEFAULT_HOLD_RULES, REGISTRATION_FLAG_AT, registrationBursts, registrationDeviceAllowance } from "../../workers/core/holds";

/** A registration burst's pure rules (the bonus hunters' many accounts): a device's allowance from the owner's rules, and what is flagged for staff. */

describe("a device's registrations allowance", () => {
  it("is the owner's number less the registration that locks; no limit (0) counts no device at all", () => {
    expect(registrationDeviceAllowance(DEFAULT_HOLD_RULES)).toBe(5);
    expect(registrationDeviceAllowance({ registrationsPerDevice: 1 })).toBe(0);
    expect(registrationDeviceAllowance({ registrationsPerDevice: 100 })).toBe(99);
    expect(registrationDeviceAllowance({ registrationsPerDevice: 0 })).toBeNull();
  });
});

describe("what a registration flags", () => {
  const address = { count: 1, locked: false };
  it("a device's third registration in its window and every one after it", () => {
    expect(REGISTRATION_FLAG_AT).toBe(3);
    expect(registrationBursts({ device: 2, address })).toEqual([]);
    expect(registrationBursts({ device: 3, address })).toEqual([{ by: "device", count: 3 }]);
    expect(registrationBursts({ device: 7, address })).toEqual([{ by: "device", count: 7 }]);
  });
  it("the registration that locked its address, with or without a device; nothing for a registration with no device counted", () => {
    expect(registrationBursts({ device: null, address: { count: 10, locked: true } })).toEqual([{ by: "address", count: 10 }]);
    expect(registrationBursts({ device: 4, address: { count: 10, locked: true } })).toEqual([
      { by: "device", count: 4 },
      { by: "address", count: 10 },
    ]);
    expect(registrationBursts({ device: null, address: { count: 9, locked: false } })).toEqual([]);
  });
});
