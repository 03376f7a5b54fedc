import { describe, expect, it } from "vitest";
import { PROVIDERS } from "../../workers/core/providers";
import {
  derivedProviderUsername,
  fitsUsernameRule,
  legacyProviderUsername,
  PROVIDER_USERNAME_RULES,
  providerUsernameFor,
  SANDBOX_USERNAME_RULE,
} from "../../workers/core/provider-username";
import { providerUsername } from "../../workers/ports/provider";

const PLAYER = { agencyId: "demo", username: "somchai_99", playerId: "00000000-0000-4000-8000-00000000d3e0" };

describe("provider usernames", () => {
  it("the legacy format is today's providerUsername", () => {
    expect(legacyProviderUsername("demo", "somchai_99")).toBe(providerUsername("demo", "somchai_99"));
  });

  it("the sandbox keeps every existing player's agencyId_username", () => {
    expect(providerUsernameFor(SANDBOX_USERNAME_RULE, PLAYER)).toEqual({ name: "demo_somchai_99", format: "legacy" });
  });

  it("real providers get a derived name within their rule: [a-z0-9], their length, the agency prefix first", () => {
    for (const provider of PROVIDERS) {
      const rule = PROVIDER_USERNAME_RULES[provider];
      const { name, format } = providerUsernameFor(provider, PLAYER);
      expect(format).toBe("derived");
      expect(fitsUsernameRule(name, rule)).toBe(true);
      expect(name).toMatch(/^[a-z0-9]+$/);
      expect(name.startsWith("demo".slice(0, rule.prefixMax))).toBe(true);
      expect(name.length).toBe(Math.min(rule.max, "demo".slice(0, rule.prefixMax).length + 12));
    }
    expect(providerUsernameFor("betflix", PLAYER).name.length).toBeLessThanOrEqual(14);
  });

  it("a legacy name that fits the rule is kept (no underscore needed when the rule allows it)", () => {
    const rule = { pattern: /^[a-z0-9_]+$/, min: 5, max: 20, prefixMax: 4 };
    expect(providerUsernameFor(rule, { agencyId: "ag1", username: "bob12", playerId: "x" })).toEqual({ name: "ag1_bob12", format: "legacy" });
    expect(providerUsernameFor(rule, { agencyId: "ag1", username: "a-very-long-player-name", playerId: "x" }).format).toBe("derived");
  });

  it("derived names are deterministic, differ between players, and clean odd agency ids", () => {
    const rule = PROVIDER_USERNAME_RULES.askmebet;
    const a = derivedProviderUsername(rule, "demo", PLAYER.playerId);
    expect(derivedProviderUsername(rule, "demo", PLAYER.playerId)).toBe(a);
    const names = new Set<string>();
    for (let i = 0; i < 5000; i++)
      names.add(derivedProviderUsername(PROVIDER_USERNAME_RULES.gclub, "demo", `00000000-0000-4000-8000-${i.toString(16).padStart(12, "0")}`));
    expect(names.size).toBe(5000);
    expect(derivedProviderUsername(rule, "Lao-Agency_01", "p1").startsWith("laoage")).toBe(true);
    expect(derivedProviderUsername(rule, "___", "p1").startsWith("p")).toBe(true);
  });
});
