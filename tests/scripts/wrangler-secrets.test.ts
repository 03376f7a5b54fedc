import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

/**
 * The secrets wrangler.toml requires of each deployed environment (`[env.<name>.secrets]
 * required`): the ones workers/config.ts refuses to run without. GATEWAY_WEBHOOK_SECRET is
 * not one of them: an agency without a payment gateway has no value to give it.
 */
const toml = readFileSync("wrangler.toml", "utf8");
const required = [...toml.matchAll(/^\[env\.([\w-]+)\.secrets\]\s*\nrequired\s*=\s*\[([^\]]*)\]/gm)].map((m) => ({
  env: m[1],
  names: [...m[2].matchAll(/"([^"]+)"/g)].map((n) => n[1]),
}));

describe("wrangler.toml's required secrets", () => {
  it("every environment requires the session secret and the credentials key, and not the gateway's webhook secret", () => {
    expect(required.map((r) => r.env)).toEqual(expect.arrayContaining(["agency-example", "rehearsal"]));
    for (const r of required) expect(r.names, r.env).toEqual(["SESSION_SECRET", "CREDENTIALS_KEY"]);
  });
});
