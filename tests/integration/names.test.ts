import { beforeAll, describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { addBankAccount, registerPlayer } from "../../workers/services/players";
import { seedDemo, shownOf } from "../setup/seed";
import { loginViaForm, PASSWORD, postForm, postJson, registerViaForm, sessionFrom, uniqueName } from "../setup/players";

beforeAll(seedDemo);

/** Decision 013: names with control characters, bidi overrides and zero-width characters. */

const stored = (username: string) =>
  env.DB.prepare(`SELECT display_name FROM players WHERE agency_id = 'demo' AND username = ?1`).bind(username).first<{ display_name: string }>();
const bankRow = (playerUsername: string) =>
  env.DB.prepare(`SELECT b.account_name FROM bank_accounts b JOIN players p ON p.id = b.player_id WHERE p.agency_id = 'demo' AND p.username = ?1`)
    .bind(playerUsername)
    .first<{ account_name: string }>();

let ipCounter = 0;
const nextIp = () => `10.60.${++ipCounter}.1`;

function registerForm(username: string, displayName: string) {
  return postForm("/register", { username, password: PASSWORD, confirmPassword: PASSWORD, phone: "02055555555", adult: "on", displayName }, { ip: nextIp() });
}

async function playerWithSession(prefix: string) {
  const name = uniqueName(prefix);
  await registerViaForm(name, PASSWORD, "localhost", nextIp());
  const cookie = sessionFrom(await loginViaForm(name, PASSWORD, { ip: nextIp() }))!;
  return { name, cookie };
}

const bankFields = (accountName: string, accountNumber: string) => ({ bankCode: "BCEL", accountNumber, accountName, currency: "LAK", owner: "SELF" });

describe("display names (register form and JSON API)", () => {
  it("refuses a display name with a right-to-left override, in the player's language", async () => {
    const name = uniqueName("rlo");
    const res = await registerForm(name, "abc\u202Edef");
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("ຕົວອັກສອນຄວບຄຸມ");
    expect(await stored(name)).toBeNull();
  });

  it("the JSON API refuses the same name", async () => {
    const name = uniqueName("rloapi");
    const res = await postJson(
      "/api/v2/players/register",
      { username: name, password: PASSWORD, confirmPassword: PASSWORD, phone: "02055555555", adult: true, displayName: "x\u202Ey" },
      { ip: nextIp() },
    );
    expect(res.status).toBe(400);
    expect(await stored(name)).toBeNull();
  });

  it("removes zero-width characters before storing (Lao word-break hints)", async () => {
    const name = uniqueName("zw");
    const res = await registerForm(name, "\u200Bສົມ\u200Bໃຈ\uFEFF");
    expect(res.status).toBe(302);
    expect((await stored(name))?.display_name).toBe("ສົມໃຈ");
  });

  it("the service refuses it too, whoever calls it", async () => {
    const name = uniqueName("rlosvc");
    const outcome = await registerPlayer(
      env.DB,
      "demo",
      { username: name, password: PASSWORD, phone: "02055555555", displayName: "a\u2066b" },
      { ip: nextIp(), userAgent: null },
    );
    expect(outcome.ok).toBe(false);
    expect(await stored(name)).toBeNull();
  });
});

describe("bank account name", () => {
  it("refuses ab\\u0000cd on the bank page with a translated message, and stores nothing", async () => {
    const { name, cookie } = await playerWithSession("nul");
    const res = await postForm("/player/bank", bankFields("ab\u0000cd", "0101000600001"), { cookie });
    expect(res.status).toBe(400);
    expect(await shownOf(res)).toContain("ຕົວອັກສອນຄວບຄຸມ");
    expect(await bankRow(name)).toBeNull();
  });

  it("stores the account name without zero-width characters", async () => {
    const { name, cookie } = await playerWithSession("zwb");
    const res = await postForm("/player/bank", bankFields("ສົມ\u200Bໃຈ \u200Dພົມ", "0101000600002"), { cookie });
    expect(res.status).toBe(302);
    expect((await bankRow(name))?.account_name).toBe("ສົມໃຈ ພົມ");
  });

  it("the service refuses a C1 control character too", async () => {
    const reg = await registerPlayer(
      env.DB,
      "demo",
      { username: uniqueName("c1"), password: PASSWORD, phone: "02055555555" },
      { ip: nextIp(), userAgent: null },
    );
    if (!reg.ok) throw new Error("register failed");
    const outcome = await addBankAccount(env.DB, "demo", reg.playerId, { bankCode: "BCEL", accountNumber: "0101000600003", accountName: "ab\u0085cd" });
    expect(outcome.ok).toBe(false);
    const row = await env.DB.prepare(`SELECT 1 FROM bank_accounts WHERE player_id = ?1`).bind(reg.playerId).first();
    expect(row).toBeNull();
  });
});
