import { beforeAll, describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { fetchApp, seedDemo } from "../setup/seed";
import { fundProvider, playerWithBank, sandboxProvider, credited } from "../setup/money";
import { claimWalletReward, withTurnoverProgress } from "../../workers/services/promotions";

/** The reward history shows each credited reward's turnover progress ("turnover X / Y"), like a promotion's. */

beforeAll(seedDemo);

async function bet(provider: string, username: string, amount: string) {
  const res = await sandboxProvider(`/api/${provider}/bet`, {
    method: "POST",
    body: JSON.stringify({ username: `demo_${username}`, amount, transactionRef: `BET${crypto.randomUUID().replace(/-/g, "").slice(0, 20)}` }),
  });
  if (!res.ok) throw new Error(`bet failed ${res.status}`);
}

async function html(path: string, cookie: string): Promise<string> {
  const res = await fetchApp(`http://localhost${path}`, { headers: { Cookie: cookie } });
  expect(res.status).toBe(200);
  return res.text();
}

/** The language cookie as the language switch signs it (a JSON string, base64). */
const lng = (language: string) => `lng=${encodeURIComponent(btoa(JSON.stringify(language)))}`;

/** The text of the history's turnover cell. */
const turnoverCell = (page: string) => /data-testid="reward-turnover"[^>]*>([^<]*)</.exec(page)?.[1];

describe("reward history: turnover progress", () => {
  it("cashback: bets so far of the target while open, then met (and the withdrawal hold ends)", async () => {
    const p = await playerWithBank();
    const who = { agencyId: "demo", playerId: p.playerId, username: p.username };
    const claimed = await credited(
      claimWalletReward(env, who, {
        kind: "CASHBACK",
        period: "2026-W30",
        perProvider: true,
        provider: "askmebet",
        amountMinor: "1250",
        turnoverMultiple: "2",
        basis: {},
      }),
    );
    expect(claimed.reward).toMatchObject({ status: "SUCCESS", turnoverTarget: "25.00", turnoverMet: false });
    await fundProvider("askmebet", p.username, "100.00");
    await bet("askmebet", p.username, "10.00");
    const [line] = await withTurnoverProgress(env, who, [claimed.reward]);
    expect(line).toMatchObject({ turnoverDone: "10.00", turnoverMet: false });
    const page = await html("/player/cashback", p.cookie);
    expect(turnoverCell(page)).toMatch(/^ຍອດຫຼິ້ນ .*10[.,]00 \/ .*25[.,]00$/);

    await bet("askmebet", p.username, "15.00");
    expect(turnoverCell(await html("/player/cashback", p.cookie))).toBe("ຄົບແລ້ວ");
    expect(await p.wallet.rewardsHoldingWithdraw("askmebet")).toEqual([]);
  }, 120_000);

  it("a reward not credited shows the target alone; in Chinese and Vietnamese the same words as a promotion's", async () => {
    const p = await playerWithBank();
    const who = { agencyId: "demo", playerId: p.playerId, username: p.username };
    const claimed = await credited(
      claimWalletReward(env, who, {
        kind: "CASHBACK",
        period: "2026-W31",
        perProvider: true,
        provider: "betflix",
        amountMinor: "1000",
        turnoverMultiple: "1",
        basis: {},
      }),
    );
    const [pending] = await withTurnoverProgress(env, who, [{ ...claimed.reward, status: "PENDING" }]);
    expect(pending!.turnoverDone).toBeNull();
    await bet("betflix", p.username, "4.00");
    expect(turnoverCell(await html("/player/cashback", `${p.cookie}; ${lng("cn")}`))).toMatch(/^流水 .*4[.,]00 \/ .*10[.,]00$/);
    expect(turnoverCell(await html("/player/cashback", `${p.cookie}; ${lng("vn")}`))).toMatch(/^Doanh số cược .*4[.,]00 \/ .*10[.,]00$/);
  }, 120_000);
});
