import { env } from "cloudflare:workers";
import { bench, describe } from "vitest";
import { login, registerPlayer } from "../../workers/services/players";
import { seedDemo } from "../setup/seed";
import { addAgency } from "../setup/players";

// Decision 011 at full scale (the CI tests use small counts): 1,000 credential-
// stuffing attempts over 50 addresses x 200 usernames, 10 a second, against an agency with
// the default budget of strangers' failures; then every real owner logs in from their own
// browser (a device cookie) and from a new one. Prints how many attempts met a 429, how
// many reached the password check (scrypt), and the owners' outcomes.
const AGENCY = "bench-stuffing";
const OWNERS = 20;
const PASSWORD = "owner-pass-1234";

async function run() {
  await seedDemo();
  await addAgency(AGENCY, "bench-stuffing.localhost");
  const t0 = Date.now();
  const owners: string[] = [];
  for (let i = 0; i < OWNERS; i++) {
    const username = `owner${i}b${t0.toString(36).slice(-4)}`;
    const reg = await registerPlayer(env.DB, AGENCY, { username, password: PASSWORD, phone: "02055555555" }, { ip: `10.20.0.${i}`, userAgent: null });
    if (!reg.ok) throw new Error(reg.code);
    owners.push(username);
  }
  const usernames = [...owners, ...Array.from({ length: 200 - OWNERS }, (_, i) => `target${i}x`)];
  let throttled = 0;
  let checked = 0;
  const started = performance.now();
  for (let i = 0; i < 1000; i++) {
    const username = usernames[i % 200];
    const address = `198.18.${Math.floor(i / 200)}.${i % 50}`;
    const outcome = await login(env.DB, AGENCY, { username, password: `leaked-${i}` }, { ip: address, userAgent: null }, () => t0 + i * 100);
    if (!outcome.ok && outcome.code === "TOO_MANY_ATTEMPTS") throttled++;
    else checked++;
  }
  const seconds = (performance.now() - started) / 1000;
  const after = () => t0 + 1000 * 100 + 1;
  let ownBrowser = 0;
  let newBrowser = 0;
  for (const [i, username] of owners.entries()) {
    const device = { entries: [{ realm: "player" as const, agencyId: AGENCY, username, nonce: `bench-device-${i}` }] };
    if ((await login(env.DB, AGENCY, { username, password: PASSWORD }, { ip: `10.30.0.${i}`, userAgent: null, device }, after)).ok) ownBrowser++;
    if ((await login(env.DB, AGENCY, { username, password: PASSWORD }, { ip: `10.40.0.${i}`, userAgent: null }, after)).ok) newBrowser++;
  }
  console.log(
    `stuffing: 1000 attempts (50 addresses x 200 usernames, 10/s): ${throttled} answered 429, ${checked} reached the password check; ` +
      `${seconds.toFixed(1)} s in workerd. Owners with their device cookie logged in: ${ownBrowser}/${OWNERS}; from a new browser right after the wave: ${newBrowser}/${OWNERS}`,
  );
}

describe("credential stuffing against one agency", () => {
  bench("1,000 attempts, then the owners", run, { iterations: 1, warmupIterations: 0, warmupTime: 0, time: 0 });
});
