import { describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";

describe("sandbox workers are wired to the portal", () => {
  it("the portal reaches the sandbox provider, bank and Telegram by service binding", async () => {
    const provider = await env.SANDBOX_PROVIDER.fetch("http://sandbox-provider/health");
    expect(await provider.json()).toEqual({ status: "ok" });
    const bank = await env.SANDBOX_BANK.fetch("http://sandbox-bank/health");
    expect(bank.status).toBe(200);
    expect(await bank.json()).toEqual({ status: "ok" });
    const telegram = await env.SANDBOX_TELEGRAM.fetch("http://sandbox-telegram/health");
    expect(await telegram.json()).toEqual({ status: "ok" });
  });
});
