import { beforeAll, describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { addBankAccount, registerPlayer } from "../../workers/services/players";
import { fetchApp, seedDemo, shownOf } from "../setup/seed";
import { loginViaForm, PASSWORD, postForm, registerViaForm, sessionFrom, uniqueName } from "../setup/players";

beforeAll(seedDemo);

async function newPlayer() {
  const name = uniqueName("bank");
  const reg = await registerPlayer(
    env.DB,
    "demo",
    { username: name, password: PASSWORD, phone: "02055555555" },
    { ip: `10.7.${Math.floor(Math.random() * 250)}.1`, userAgent: null },
  );
  if (!reg.ok) throw new Error("register failed");
  return reg.playerId;
}

const bcel = (n: string) => ({ bankCode: "BCEL", accountNumber: n, accountName: "Somchai Phommavong" });

describe("bank account service", () => {
  it("adds one LAK account; a second one, a duplicate and another player's number are refused", async () => {
    const a = await newPlayer();
    const b = await newPlayer();
    expect((await addBankAccount(env.DB, "demo", a, bcel("0101000123456"))).ok).toBe(true);
    expect(await addBankAccount(env.DB, "demo", a, bcel("0101000123456"))).toEqual({ ok: false, code: "ACCOUNT_ALREADY_ADDED" });
    expect(await addBankAccount(env.DB, "demo", a, bcel("0101000999999"))).toEqual({ ok: false, code: "ONE_ACCOUNT_ONLY" });
    expect(await addBankAccount(env.DB, "demo", b, bcel("0101000123456"))).toEqual({ ok: false, code: "ACCOUNT_IN_USED" });
    // the same number at another bank is another account
    expect((await addBankAccount(env.DB, "demo", b, { ...bcel("0101000123456"), bankCode: "LDB" })).ok).toBe(true);
  });

  it("20 concurrent adds of one number by different players end with exactly one owner", async () => {
    const players = await Promise.all(Array.from({ length: 20 }, newPlayer));
    const results = await Promise.all(players.map((p) => addBankAccount(env.DB, "demo", p, bcel("0101000555555"))));
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.filter((r) => !r.ok && r.code === "ACCOUNT_IN_USED")).toHaveLength(19);
    const rows = await env.DB.prepare("SELECT COUNT(*) AS n FROM bank_accounts WHERE account_number = '0101000555555'").first<{ n: number }>();
    expect(rows!.n).toBe(1);
  });
});

describe("bank page (plain form posts)", () => {
  it("validates in the player's language, refuses non-LAK and other people's accounts, then shows the saved account", async () => {
    const name = uniqueName("bkp");
    await registerViaForm(name);
    const cookie = sessionFrom(await loginViaForm(name, PASSWORD, { ip: "10.8.0.1" }))!;
    const post = (fields: Record<string, string>) => postForm("/player/bank", fields, { cookie });

    const empty = await post({});
    expect(empty.status).toBe(400);
    const emptyHtml = await shownOf(empty);
    expect(emptyHtml).toContain("ກະລຸນາເລືອກທະນາຄານ");
    expect(emptyHtml).toContain("ກະລຸນາປ້ອນຂໍ້ມູນນີ້");

    const thb = await post({ bankCode: "BCEL", accountNumber: "0101000777777", accountName: "Somchai", currency: "THB", owner: "SELF" });
    expect(await shownOf(thb)).toContain("ໃຊ້ໄດ້ສະເພາະບັນຊີສະກຸນເງິນກີບ (LAK) ເທົ່ານັ້ນ");
    const other = await post({ bankCode: "BCEL", accountNumber: "0101000777777", accountName: "Somchai", currency: "LAK", owner: "OTHER" });
    expect(await shownOf(other)).toContain("ບັນຊີຕ້ອງເປັນຊື່ຂອງທ່ານເອງ");
    const short = await post({ bankCode: "BCEL", accountNumber: "12345", accountName: "Somchai", currency: "LAK", owner: "SELF" });
    expect(await shownOf(short)).toContain("ເລກບັນຊີບໍ່ຖືກຕ້ອງສຳລັບທະນາຄານນີ້");

    const ok = await post({ bankCode: "BCEL", accountNumber: "0101 000 777777", accountName: "Somchai", currency: "LAK", owner: "SELF" });
    expect(ok.status).toBe(302);
    const page = await (await fetchApp("http://localhost/player/bank", { headers: { Cookie: cookie } })).text();
    expect(page).toContain('data-testid="bank-account"');
    expect(page).toContain("7777");
    expect(page).not.toContain("0101000777777"); // only the last digits are shown

    const info = (await (await fetchApp("http://localhost/api/v2/players/info", { headers: { Cookie: cookie } })).json()) as {
      bankAccounts: { bankCode: string; currency: string }[];
    };
    expect(info.bankAccounts).toHaveLength(1);
    expect(info.bankAccounts[0]).toMatchObject({ bankCode: "BCEL", currency: "LAK" });

    // another player trying the same number
    const thief = uniqueName("thief");
    await registerViaForm(thief);
    const thiefCookie = sessionFrom(await loginViaForm(thief, PASSWORD, { ip: "10.8.0.2" }))!;
    const stolen = await postForm(
      "/player/bank",
      { bankCode: "BCEL", accountNumber: "0101000777777", accountName: "Somchai", currency: "LAK", owner: "SELF" },
      { cookie: thiefCookie },
    );
    expect(stolen.status).toBe(409);
    expect(await shownOf(stolen)).toContain("ບັນຊີນີ້ຖືກໃຊ້ໃນລະບົບແລ້ວ");
  });
});
