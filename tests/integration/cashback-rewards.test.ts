import { beforeAll, describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { seedDemo } from "../setup/seed";
import { playerWithBank, providerBalance, sandboxProvider, credited } from "../setup/money";
import { claimWalletReward, rewardHoldForWithdraw } from "../../workers/services/promotions";

/** The wallet's reward path (decision 029), shared by cashback and the referral share. */

beforeAll(seedDemo);

async function faults(body: object | null) {
  if (body === null) return sandboxProvider("/sandbox/faults", { method: "DELETE" });
  return sandboxProvider("/sandbox/faults", { method: "POST", body: JSON.stringify(body) });
}

const claim = (p: { username: string; playerId: string }, extra: Partial<Parameters<typeof claimWalletReward>[2]> = {}) =>
  credited(
    claimWalletReward(
      env,
      { agencyId: "demo", playerId: p.playerId, username: p.username },
      {
        kind: "CASHBACK",
        period: "2026-W47",
        perProvider: true,
        provider: "betflix",
        amountMinor: "1250",
        turnoverMultiple: "0",
        basis: { netLoss: "250.00" },
        ...extra,
      },
    ),
  );

describe("wallet rewards: one credit per claim, through the settlement saga and the ledger", () => {
  // registering and logging the player in takes most of the time on a busy machine
  it("the same claim posted 20 times concurrently credits once", async () => {
    const p = await playerWithBank();
    const results = await Promise.all(Array.from({ length: 20 }, () => claim(p)));
    expect(results.filter((r) => r.kind === "created")).toHaveLength(1);
    expect(new Set(results.map((r) => r.reward.code)).size).toBe(1);
    await p.wallet.runDueWork(Date.now() + 60_000);
    const reward = (await p.wallet.getReward(results[0]!.reward.code))!;
    expect(reward.status).toBe("SUCCESS");
    expect(await providerBalance("betflix", p.username)).toBe("12.50");
    const ledger = await p.wallet.ledgerFor(reward.code);
    expect(ledger.filter((l) => l.account === "agency:cashback")).toEqual([expect.objectContaining({ entry: "reward", currency: "THB", amountMinor: "1250" })]);
    expect(ledger.filter((l) => l.account === "provider:betflix")).toHaveLength(1);
    expect(await p.wallet.ledgerTotals()).toEqual({ THB: "0" });
    // another provider for the same week is its own claim; a later repeat finds its reward
    expect((await claim(p, { provider: "gclub" })).kind).toBe("created");
    expect((await claim(p)).kind).toBe("existing");
    expect((await p.wallet.listRewards("CASHBACK", 1, 10)).total).toBe(2);
    // copied to D1 for the claims report
    await p.wallet.runDueWork();
    const row = await env.DB.prepare(`SELECT status, amount FROM reward_claims WHERE code = ?`).bind(reward.code).first();
    expect(row).toEqual({ status: "SUCCESS", amount: "12.50" });
  }, 120_000);

  it("provider fails after applying the transfer: the status query settles it once", async () => {
    const p = await playerWithBank();
    await faults({ provider: "gclub", op: "deposit", mode: "error-after", count: 1 });
    let code: string;
    try {
      const first = await claim(p, { provider: "gclub", period: "2026-W46" });
      code = first.reward.code;
      expect(first.reward.status).toBe("PENDING"); // outcome unknown
    } finally {
      await faults(null);
    }
    await p.wallet.runDueWork(Date.now() + 60_000);
    expect((await p.wallet.getReward(code))!.status).toBe("SUCCESS");
    expect(await providerBalance("gclub", p.username)).toBe("12.50"); // exactly one credit
    expect((await p.wallet.ledgerFor(code)).filter((l) => l.account === "agency:cashback")).toHaveLength(1);
  });

  it("a refused credit is FAILED, books nothing and frees the claim", async () => {
    const p = await playerWithBank();
    await faults({ provider: "gclub_live", op: "deposit", mode: "refuse", count: 1 });
    try {
      const first = await claim(p, { provider: "gclub_live" });
      expect(first.reward.status).toBe("FAILED");
      expect(await p.wallet.ledgerFor(first.reward.code)).toEqual([]);
    } finally {
      await faults(null);
    }
    const again = await claim(p, { provider: "gclub_live" });
    expect(again.kind).toBe("created");
    expect(again.reward.status).toBe("SUCCESS");
  });

  it("a turnover requirement holds withdrawals from that provider until met", async () => {
    const p = await playerWithBank();
    const r = await claim(p, { provider: "askmebet", turnoverMultiple: "2", kind: "REFERRAL", perProvider: false });
    expect(r.reward).toMatchObject({ status: "SUCCESS", turnoverTarget: "25.00", turnoverMet: false });
    expect(await rewardHoldForWithdraw(env, "demo", p.username, p.playerId, "askmebet")).toBe("REWARD_TURNOVER_NOT_MET");
    expect(await rewardHoldForWithdraw(env, "demo", p.username, p.playerId, "betflix")).toBeNull();
    // referral: once per period whatever the provider
    expect((await claim(p, { provider: "betflix", kind: "REFERRAL", perProvider: false })).kind).toBe("existing");
  });
});
