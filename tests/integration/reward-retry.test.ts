import { beforeAll, describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { seedDemo } from "../setup/seed";
import { playerWithBank, providerBalance, sandboxProvider } from "../setup/money";
import { claimWalletReward, retryRewardClaim } from "../../workers/services/rewards";

/** Staff retry of a FAILED reward (decision 029): the same reward again, never a second credit. */

beforeAll(seedDemo);

const actor = { agencyId: "demo", staffId: null, staffUsername: "retry-test" };

async function faults(body: object | null) {
  if (body === null) return sandboxProvider("/sandbox/faults", { method: "DELETE" });
  return sandboxProvider("/sandbox/faults", { method: "POST", body: JSON.stringify(body) });
}

type Player = Awaited<ReturnType<typeof playerWithBank>>;
const claim = (p: Player, provider: "gclub" | "betflix" | "gclub_live" | "askmebet", period: string) =>
  claimWalletReward(env, { agencyId: "demo", playerId: p.playerId, username: p.username }, {
    kind: "CASHBACK", period, perProvider: true, provider, amountMinor: "1250", turnoverMultiple: "1", basis: { netLoss: "250.00" },
  });

/** A claim the provider refused, copied to D1 like every reward (the staff lists read it there). */
async function failedClaim(p: Player, provider: "gclub" | "betflix" | "gclub_live" | "askmebet", period: string): Promise<string> {
  await faults({ provider, op: "deposit", mode: "refuse", count: 1 });
  try {
    const first = await claim(p, provider, period);
    expect(first.reward.status).toBe("FAILED");
    await p.wallet.runDueWork();
    return first.reward.code;
  } finally {
    await faults(null);
  }
}

describe("staff retry of a FAILED reward", () => {
  it("five retries pressed at once credit the same reward once, under a new reference; each press is audited", async () => {
    const p = await playerWithBank();
    const code = await failedClaim(p, "gclub", "2026-W40");
    expect((await env.DB.prepare(`SELECT status, retries FROM reward_claims WHERE code = ?`).bind(code).first())).toEqual({ status: "FAILED", retries: 0 });

    const results = await Promise.all(Array.from({ length: 5 }, () => retryRewardClaim(env, actor, "CASHBACK", code, 0)));
    expect(results.filter((r) => r.kind === "retried")).toMatchObject([{ reward: { code } }]);
    expect(results.filter((r) => r.kind !== "retried").every((r) => r.kind === "not-failed" || r.kind === "stale")).toBe(true);
    await p.wallet.runDueWork(Date.now() + 60_000);

    const reward = (await p.wallet.getReward(code))!;
    expect(reward).toMatchObject({ status: "SUCCESS", retries: 1, reason: null });
    expect(await providerBalance("gclub", p.username)).toBe("12.50"); // exactly one credit
    expect((await p.wallet.listRewards("CASHBACK", 1, 10)).total).toBe(1); // the same reward, not a second one
    expect((await p.wallet.ledgerFor(code)).filter((l) => l.account === "agency:cashback")).toHaveLength(1);
    expect(await p.wallet.ledgerTotals()).toEqual({ THB: "0" });
    // the claim key is the retried reward's again: the player's repeat finds it
    expect((await claim(p, "gclub", "2026-W40")).kind).toBe("existing");
    // the same form sent again later does nothing
    expect((await retryRewardClaim(env, actor, "CASHBACK", code, 0)).kind).toBe("not-failed");
    expect(await providerBalance("gclub", p.username)).toBe("12.50");
    const audits = await env.DB.prepare(`SELECT after_json FROM audit_log WHERE action = 'reward.retry' AND target = ?`).bind(code).all<{ after_json: string }>();
    expect(audits.results).toHaveLength(6);
    expect(audits.results.filter((a) => JSON.parse(a.after_json).outcome === "retried")).toHaveLength(1);
    await p.wallet.runDueWork();
    expect(await env.DB.prepare(`SELECT status, retries FROM reward_claims WHERE code = ?`).bind(code).first()).toEqual({ status: "SUCCESS", retries: 1 });
  }, 120_000);

  it("refused again: FAILED again, nothing booked; the next retry (count 1) credits it once", async () => {
    const p = await playerWithBank();
    const code = await failedClaim(p, "betflix", "2026-W41");
    await faults({ provider: "betflix", op: "deposit", mode: "refuse", count: 1 });
    try {
      expect((await retryRewardClaim(env, actor, "CASHBACK", code, 0)).reward?.status).toBe("FAILED");
    } finally {
      await faults(null);
    }
    expect(await p.wallet.ledgerFor(code)).toEqual([]);
    expect((await retryRewardClaim(env, actor, "CASHBACK", code, 0)).kind).toBe("stale"); // an old form
    expect((await retryRewardClaim(env, actor, "CASHBACK", code, 1)).kind).toBe("retried");
    expect((await p.wallet.getReward(code))!.status).toBe("SUCCESS");
    expect(await providerBalance("betflix", p.username)).toBe("12.50");
  }, 120_000);

  it("a player who claimed the week again keeps that claim: the retry is refused, one credit in all", async () => {
    const p = await playerWithBank();
    const code = await failedClaim(p, "gclub_live", "2026-W42");
    const again = await claim(p, "gclub_live", "2026-W42");
    expect(again).toMatchObject({ kind: "created", reward: { status: "SUCCESS" } });
    const retry = await retryRewardClaim(env, actor, "CASHBACK", code, 0);
    expect(retry).toMatchObject({ kind: "claimed-again", reward: { status: "FAILED" } });
    expect(await providerBalance("gclub_live", p.username)).toBe("12.50");
  }, 120_000);

  it("a code from the other list or another agency is not found, and nothing is asked of the wallet", async () => {
    const p = await playerWithBank();
    const code = await failedClaim(p, "askmebet", "2026-W43");
    expect((await retryRewardClaim(env, actor, "REFERRAL", code, 0)).kind).toBe("not-found");
    expect((await retryRewardClaim(env, { ...actor, agencyId: "other" }, "CASHBACK", code, 0)).kind).toBe("not-found");
    expect((await p.wallet.getReward(code))!.status).toBe("FAILED");
  }, 120_000);
});
