import { describe, expect, it } from "vitest";
import { checkProviderUrl, providerCspSources, referenceOrder, setupProblem, type ProviderSetup } from "../../workers/core/provider-setup";

const base = { createdAt: "2026-11-24T00:00:00.000Z", productCode: "X", baseUrl: "https://api.example", memberPrefix: null } as const;

describe("whose transfer a reference is", () => {
  it("reads our order codes and their legs: deposit, staff retry, bonus, withdrawal, credit return", () => {
    expect(referenceOrder("D261124ABCDE")).toMatchObject({ kind: "deposit", code: "D261124ABCDE", direction: "in", day: Date.UTC(2026, 10, 24) });
    expect(referenceOrder("D261124ABCDE-2")).toMatchObject({ kind: "deposit", code: "D261124ABCDE", direction: "in" });
    expect(referenceOrder("D261124ABCDEB")).toMatchObject({ kind: "deposit", code: "D261124ABCDE", direction: "in" });
    expect(referenceOrder("W261124ABCDE")).toMatchObject({ kind: "withdraw", code: "W261124ABCDE", direction: "out" });
    expect(referenceOrder("W261124ABCDER")).toMatchObject({ kind: "withdraw", code: "W261124ABCDE", direction: "in" });
  });
  it("anything else is nobody's (the adapter then answers unknown)", () => {
    for (const ref of ["", "D261124ABCD", "D261124ABCDER", "W261124ABCDEB", "W261124ABCDE-1", "X261124ABCDE", "d261124abcde", "D261124ABCDE "])
      expect(referenceOrder(ref), ref).toBeNull();
  });
});

describe("provider URLs", () => {
  it("https only outside local; no credentials, query or fragment; normalised without a trailing slash", () => {
    expect(checkProviderUrl("https://api.example/v1/", false)).toEqual({ ok: true, url: "https://api.example/v1" });
    expect(checkProviderUrl("http://api.example", false)).toEqual({ ok: false, problem: "https" });
    expect(checkProviderUrl("http://localhost:8787", true)).toEqual({ ok: true, url: "http://localhost:8787" });
    for (const bad of ["ftp://x", "https://u:p@x", "https://x/?a=1", "https://x/#f", "not a url", "javascript:alert(1)"])
      expect(checkProviderUrl(bad, true).ok, bad).toBe(false);
  });
  it("each adapter's needs", () => {
    const input = { adapter: "amb", baseUrl: "https://api.example", productCode: "AMB", lobbyUrl: null, imageUrl: null };
    expect(setupProblem(input, false)).toBeNull();
    expect(setupProblem({ ...input, productCode: null }, false)).toMatchObject({ code: "PROVIDER_PRODUCT_REQUIRED" });
    expect(setupProblem({ ...input, productCode: "a b" }, false)).toMatchObject({ code: "PROVIDER_PRODUCT_INVALID" });
    expect(setupProblem({ ...input, adapter: "betflix", productCode: null }, false)).toMatchObject({ code: "PROVIDER_URL_INVALID", field: "lobbyUrl" });
    expect(setupProblem({ ...input, adapter: "sandbox" }, false)).toMatchObject({ code: "PROVIDER_ADAPTER_INVALID" });
    expect(setupProblem({ ...input, adapter: "sandbox" }, true)).toBeNull();
    expect(setupProblem({ ...input, adapter: "disabled" }, false)).toBeNull();
    // Betflix's member prefix (decision 048): optional, letters and digits, Betflix only.
    const betflix = { ...input, adapter: "betflix", lobbyUrl: "https://www.betflik.example" };
    expect(setupProblem({ ...betflix, memberPrefix: "be31kk" }, false)).toBeNull();
    expect(setupProblem({ ...betflix, memberPrefix: null }, false)).toBeNull();
    expect(setupProblem({ ...betflix, memberPrefix: "be 31" }, false)).toEqual({ code: "PROVIDER_PREFIX_INVALID", field: "memberPrefix" });
    expect(setupProblem({ ...betflix, memberPrefix: "a".repeat(13) }, false)).toMatchObject({ code: "PROVIDER_PREFIX_INVALID" });
    expect(setupProblem({ ...input, memberPrefix: "be31kk" }, false)).toMatchObject({ code: "PROVIDER_PREFIX_INVALID" });
  });
});

describe("what the Content-Security-Policy admits", () => {
  it("image hosts and launch hosts of AMB and Betflix setups; nothing for the sandbox or a disabled provider", () => {
    const setups: ProviderSetup[] = [
      { ...base, provider: "askmebet", adapter: "amb", lobbyUrl: "https://play.amb.example/x", imageUrl: "https://img.amb.example/games" },
      { ...base, provider: "betflix", adapter: "betflix", lobbyUrl: "https://www.betflik.example", imageUrl: null },
      { ...base, provider: "gclub", adapter: "sandbox", lobbyUrl: "https://ignored.example", imageUrl: "https://ignored.example" },
      { ...base, provider: "alphabet", adapter: "disabled", lobbyUrl: null, imageUrl: "https://ignored2.example" },
    ];
    expect(providerCspSources(setups)).toEqual({
      img: ["https://img.amb.example", "https://www.betflik.example"],
      launch: ["https://play.amb.example", "https://www.betflik.example"],
    });
    expect(providerCspSources([])).toEqual({ img: [], launch: [] });
  });
});
