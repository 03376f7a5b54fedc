import { beforeAll, describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { fetchApp, seedDemo } from "../setup/seed";
import { postForm } from "../setup/players";
import { createStaff, staffLogin } from "../setup/staff";
import { playerWithBank, providerBalance, sandboxProvider, credited } from "../setup/money";
import { claimWalletReward, retryRewardClaim } from "../../workers/services/promotions";

/** Staff retry of a FAILED reward (decision 029): the same reward again, never a second credit. */

beforeAll(seedDemo);

const actor = { agencyId: "demo", staffId: null, staffUsername: "retry-test" };

async function faults(body: object | null) {
  if (body === null) return sandboxProvider("/sandbox/faults", { method: "DELETE" });
  return sandboxProvider("/sandbox/faults", { method: "POST", body: JSON.stringify(body) });
}

type Player = Awaited<ReturnType<typeof playerWithBank>>;
const claim = (p: Player, provider: "gclub" | "betflix" | "gclub_live" | "askmebet", period: string, kind: "CASHBACK" | "REFERRAL" = "CASHBACK") =>
  credited(
    claimWalletReward(
      env,
      { agencyId: "demo", playerId: p.playerId, username: p.username },
      {
        kind,
        period,
        perProvider: kind === "CASHBACK",
        provider,
        amountMinor: "1250",
        turnoverMultiple: "1",
        basis: { netLoss: "250.00" },
      },
    ),
  );

/** A claim the provider refused, copied to D1 like every reward (the staff lists read it there). */
async function failedClaim(
  p: Player,
  provider: "gclub" | "betflix" | "gclub_live" | "askmebet",
  period: string,
  kind: "CASHBACK" | "REFERRAL" = "CASHBACK",
): Promise<string> {
  await faults({ provider, op: "deposit", mode: "refuse", count: 1 });
  try {
    const first = await claim(p, provider, period, kind);
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
    expect(await env.DB.prepare(`SELECT status, retries FROM reward_claims WHERE code = ?`).bind(code).first()).toEqual({ status: "FAILED", retries: 0 });

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
    const audits = await env.DB.prepare(`SELECT after_json FROM audit_log WHERE action = 'reward.retry' AND target = ?`)
      .bind(code)
      .all<{ after_json: string }>();
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

describe("the retry buttons of /admin/cashback and /admin/referrals", () => {
  async function staff(role: "owner" | "cashier") {
    const username = `rr-${role}-${crypto.randomUUID().slice(0, 6)}`;
    const created = await createStaff(env, { agencyId: "demo", username, password: "retry-pass-1234", role });
    return staffLogin(env, { username, password: "retry-pass-1234", totpSecret: created.totpSecret });
  }
  const page = async (path: string, cookie: string) => (await fetchApp(`http://localhost${path}`, { headers: { Cookie: cookie } })).text();
  const retryButton = (html: string, code: string) => new RegExp(`name="code" value="${code}"`).test(html);

  it("the owner retries a FAILED cashback and referral share from the lists (plain posts); a cashier may not", async () => {
    const p = await playerWithBank();
    const cashback = await failedClaim(p, "betflix", "2026-W44");
    const referral = await failedClaim(p, "gclub", "2026-W44", "REFERRAL");
    const owner = await staff("owner");

    expect(retryButton(await page("/admin/cashback", owner), cashback)).toBe(true);
    expect(retryButton(await page("/admin/referrals", owner), referral)).toBe(true);
    // the referral list does not retry a cashback (and the other way round)
    const crossed = await postForm("/admin/referrals", { intent: "retry", code: cashback, retries: "0" }, { cookie: owner });
    expect(crossed.status).toBe(302);
    expect((await p.wallet.getReward(cashback))!.status).toBe("FAILED");

    const cashier = await staff("cashier");
    expect((await postForm("/admin/cashback", { intent: "retry", code: cashback, retries: "0" }, { cookie: cashier })).status).toBe(403);
    expect((await p.wallet.getReward(cashback))!.status).toBe("FAILED");

    const done = await postForm("/admin/cashback", { intent: "retry", code: cashback, retries: "0" }, { cookie: owner });
    expect(done.status).toBe(302);
    expect(done.headers.get("Location")).toBe("/admin/cashback");
    expect((await p.wallet.getReward(cashback))!.status).toBe("SUCCESS");
    expect((await postForm("/admin/referrals", { intent: "retry", code: referral, retries: "0" }, { cookie: owner })).status).toBe(302);
    expect((await p.wallet.getReward(referral))!.status).toBe("SUCCESS");
    expect(await providerBalance("betflix", p.username)).toBe("12.50");
    expect(await providerBalance("gclub", p.username)).toBe("12.50");

    await p.wallet.runDueWork();
    expect(retryButton(await page("/admin/cashback", owner), cashback)).toBe(false);
    expect(retryButton(await page("/admin/referrals", owner), referral)).toBe(false);
    // a form without its fields is refused
    expect((await postForm("/admin/cashback", { intent: "retry", code: "", retries: "x" }, { cookie: owner })).status).toBe(400);
  }, 120_000);
});
