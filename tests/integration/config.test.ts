import { describe, expect, it, vi } from "vitest";
import { env } from "cloudflare:workers";
import { configProblems, DEMO_SECRET_VALUES, isCredentialsKey, misconfiguredResponse } from "../../workers/config";
import { webhookSecret } from "../../workers/ports/gateway";
import worker from "../../workers/app";

const GOOD = {
  ENVIRONMENT: "production",
  SESSION_SECRET: "a".repeat(20) + "real-session-secret-xyz",
  CREDENTIALS_KEY: btoa("k".repeat(32)),
  GATEWAY_WEBHOOK_SECRET: "real-gateway-webhook-secret-0123456789",
};

describe("production configuration guard", () => {
  it("checks nothing in local, development and test environments", () => {
    for (const ENVIRONMENT of ["local", "development", "test"]) {
      expect(configProblems({ ENVIRONMENT })).toEqual([]);
    }
  });

  it("accepts a production environment with every secret set", () => {
    expect(configProblems(GOOD)).toEqual([]);
    expect(configProblems({ ...GOOD, SESSION_SECRET: `${"n".repeat(32)},${"o".repeat(32)}` })).toEqual([]);
  });

  it("needs no GATEWAY_WEBHOOK_SECRET for an agency without a payment gateway; one that is set is still checked", () => {
    const { GATEWAY_WEBHOOK_SECRET: _unset, ...noGateway } = GOOD;
    expect(configProblems(noGateway)).toEqual([]);
    expect(configProblems({ ...GOOD, GATEWAY_WEBHOOK_SECRET: "short" })).toEqual([{ name: "GATEWAY_WEBHOOK_SECRET", problem: "too short" }]);
  });

  it("treats a missing or unknown ENVIRONMENT as production (fails closed)", () => {
    expect(configProblems({}).map((p) => p.name)).toEqual(["SESSION_SECRET", "CREDENTIALS_KEY"]);
    expect(configProblems({ ENVIRONMENT: "staging" }).length).toBe(2);
  });

  it("names each missing secret", () => {
    expect(configProblems({ ...GOOD, SESSION_SECRET: undefined })).toEqual([{ name: "SESSION_SECRET", problem: "missing" }]);
    expect(configProblems({ ...GOOD, CREDENTIALS_KEY: "" })).toEqual([{ name: "CREDENTIALS_KEY", problem: "missing" }]);
    expect(configProblems({ ...GOOD, GATEWAY_WEBHOOK_SECRET: " " })).toEqual([]); // only with a gateway
  });

  it("refuses every public demo/test/default value, wherever it is", () => {
    expect(configProblems({ ...GOOD, SESSION_SECRET: "test-secret-0123456789abcdef0123456789abcdef" })).toEqual([
      { name: "SESSION_SECRET", problem: "demo value" },
    ]);
    // One demo entry in a rotation list is enough to refuse.
    expect(configProblems({ ...GOOD, SESSION_SECRET: `${"n".repeat(32)},s3Cr3t` })).toEqual([{ name: "SESSION_SECRET", problem: "demo value" }]);
    expect(configProblems({ ...GOOD, GATEWAY_WEBHOOK_SECRET: "sandbox-webhook-secret-demo-0001" })).toEqual([
      { name: "GATEWAY_WEBHOOK_SECRET", problem: "demo value" },
    ]);
    expect(configProblems({ ...GOOD, CREDENTIALS_KEY: "dGVzdC1jcmVkZW50aWFscy1rZXktMDEyMzQ1Njc4OWE=" })).toEqual([
      { name: "CREDENTIALS_KEY", problem: "demo value" },
    ]);
    // Sandbox vars copied into a production environment.
    expect(configProblems({ ...GOOD, SANDBOX_PROVIDER_SECRET: "sandbox-provider-secret-demo-0001" } as never)).toEqual([
      { name: "SANDBOX_PROVIDER_SECRET", problem: "demo value" },
    ]);
    // The values this repository ships are all in the list.
    const e = env as unknown as Record<string, unknown>;
    for (const value of [e.SESSION_SECRET, e.CREDENTIALS_KEY, env.SANDBOX_WEBHOOK_SECRET, env.SANDBOX_BANK_SECRET, env.SANDBOX_PROVIDER_SECRET]) {
      expect(DEMO_SECRET_VALUES.has(String(value))).toBe(true);
    }
  });

  it("refuses short secrets and a credentials key that is not 32 bytes of base64", () => {
    expect(configProblems({ ...GOOD, SESSION_SECRET: "short" })).toEqual([{ name: "SESSION_SECRET", problem: "too short" }]);
    expect(configProblems({ ...GOOD, CREDENTIALS_KEY: btoa("k".repeat(16)) })).toEqual([{ name: "CREDENTIALS_KEY", problem: "invalid" }]);
    expect(configProblems({ ...GOOD, CREDENTIALS_KEY: "not base64 at all!" })).toEqual([{ name: "CREDENTIALS_KEY", problem: "invalid" }]);
    expect(isCredentialsKey(btoa("k".repeat(32)))).toBe(true);
  });

  it("refuses the sandbox bindings in production", () => {
    expect(configProblems({ ...GOOD, SANDBOX_BANK: {} } as never)).toEqual([{ name: "SANDBOX_BANK", problem: "sandbox in production" }]);
    expect(configProblems({ ...GOOD, SANDBOX_TELEGRAM: {} } as never)).toEqual([{ name: "SANDBOX_TELEGRAM", problem: "sandbox in production" }]);
  });

  it("uses the gateway's webhook secret in production and the sandbox's locally", () => {
    expect(webhookSecret({ GATEWAY_WEBHOOK_SECRET: "g", SANDBOX_WEBHOOK_SECRET: "s" })).toBe("g");
    expect(webhookSecret({ SANDBOX_WEBHOOK_SECRET: "s" })).toBe("s");
    expect(webhookSecret({})).toBeNull();
  });
});

describe("the Worker with a misconfigured production environment", () => {
  const ctx = { waitUntil() {}, passThroughOnException() {}, props: {} } as unknown as ExecutionContext;
  const call = (url: string, e: Env) => worker.fetch(new Request(url) as unknown as Request<unknown, IncomingRequestCfProperties>, e, ctx);

  it("answers 500 misconfigured to every request and logs which secret, never its value", async () => {
    const e = env as unknown as Record<string, unknown>;
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const prod = { ...env, ENVIRONMENT: "production", SANDBOX_PROVIDER: undefined, SANDBOX_BANK: undefined } as unknown as Env;
    for (const path of ["/", "/login", "/api/v2/agency/info", "/admin"]) {
      const res = await call(`http://localhost${path}`, prod);
      expect(res.status).toBe(500);
      expect(await res.text()).toBe("misconfigured");
    }
    const logged = errors.mock.calls.flat().join(" ");
    expect(logged).not.toContain("GATEWAY_WEBHOOK_SECRET");
    expect(logged).toContain("SESSION_SECRET demo value");
    expect(logged).toContain("CREDENTIALS_KEY demo value");
    expect(logged).not.toContain(String(e.SESSION_SECRET));
    errors.mockRestore();
  });

  it("serves normally once every secret is real, and locally as before", async () => {
    const prod = {
      ...env,
      ...GOOD,
      SANDBOX_PROVIDER: undefined,
      SANDBOX_BANK: undefined,
      SANDBOX_TELEGRAM: undefined,
      SANDBOX_PROVIDER_SECRET: undefined,
      SANDBOX_BANK_SECRET: undefined,
      SANDBOX_WEBHOOK_SECRET: undefined,
    } as unknown as Env;
    expect(misconfiguredResponse(prod)).toBeNull();
    const res = await call("http://unknown.example/api/v2/agency/info", prod);
    expect(res.status).not.toBe(500);
    const local = await call("http://unknown.example/api/v2/agency/info", env);
    expect(local.status).not.toBe(500);
  });
});
