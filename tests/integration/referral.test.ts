import { beforeAll, describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { fetchApp, seedDemo } from "../setup/seed";
import { firstListPage } from "../../workers/core/keyset";
import { loginViaForm, PASSWORD, postForm, postJson, sessionFrom, uniqueName } from "../setup/players";
import { addBankAccount, registerPlayer } from "../../workers/services/players";
import { upsertFingerprint } from "../../workers/db/players";
import { upsertPlayerProviderDayStatement } from "../../workers/db/player-provider-stats";
import { adminReferralsPage, claimReferralWeek, ensureReferralCode, referralPage, saveReferralSettings } from "../../workers/services/promotions";
import { SETTLE_MS, weekOf } from "../../workers/core/referral";
import { listAudit } from "../../workers/db/audit";
import { providerBalance, sandboxProvider } from "../setup/money";
import { walletOf } from "../../workers/services/wallets";

beforeAll(seedDemo);

const AGENCY = { id: "demo", enabledProviders: ["askmebet", "betflix", "gclub", "gclub_live", "alphabet"] as const };
const OWNER = { agencyId: "demo", staffId: null, staffUsername: "test-owner" };
const FP_A = "a".repeat(32);
const FP_B = "b".repeat(32);

let ipN = 0;
const ip = () => `10.77.${++ipN % 250}.${(ipN * 11) % 250}`;

/** A phone of its own per player (the referrer's phone is compared at registration, decision 049). */
let phoneN = 0;
const phone = () => `020${String(70_000_000 + (((Date.now() % 1_000_000) * 10 + ++phoneN) % 29_999_999)).padStart(8, "0")}`;

async function newPlayer(opts: { ref?: string; fingerprint?: string; phone?: string; ip?: string } = {}) {
  const username = uniqueName("rf");
  const reg = await registerPlayer(
    env.DB,
    "demo",
    { username, password: PASSWORD, phone: opts.phone ?? phone(), ref: opts.ref, fingerprint: opts.fingerprint },
    { ip: opts.ip ?? ip(), userAgent: null },
  );
  if (!reg.ok) throw new Error(`register failed: ${reg.code}`);
  return { username, playerId: reg.playerId, referral: reg.referral };
}

let acct = 0;
const accountNumber = () => `0202${String(Date.now()).slice(-6)}${String(++acct).padStart(3, "0")}`;

/** This real week, claimed as if two hours after its end (ties made now fall inside it). */
const week = weekOf(Date.now());
const afterWeek = () => week.endsAt + SETTLE_MS + 1;
const day = (i: number) => new Date(week.startsAt + i * 86400_000 + 7 * 3600_000).toISOString().slice(0, 10);

async function netLoss(playerId: string, dayIndex: number, provider: "askmebet" | "betflix", winLossMinor: bigint) {
  await upsertPlayerProviderDayStatement(env.DB, {
    agencyId: "demo",
    playerId,
    provider,
    day: day(dayIndex),
    turnoverMinor: 1_000_000n,
    winLossMinor,
    collectedAt: new Date().toISOString(),
  }).run();
}

async function settledDeposit(playerId: string, creditMinor: number, paidAt = new Date(week.startsAt + 3600_000).toISOString()) {
  const code = `D${crypto.randomUUID().slice(0, 12)}`;
  await env.DB.prepare(
    `INSERT INTO deposit_orders_view (code, agency_id, player_id, provider, amount, credit, status, created_at, updated_at, credit_minor, paid_at, projection_version)
     VALUES (?1, 'demo', ?2, 'askmebet', '0', '0', 'SUCCESS', ?3, ?3, ?4, ?3, 1)`,
  )
    .bind(code, playerId, paidAt, creditMinor)
    .run();
}

describe("referral codes and the register page", () => {
  it("a code is made once per player, stable, and the register page says who invited (or that a code is not valid)", async () => {
    const referrer = await newPlayer();
    const code = await ensureReferralCode(env.DB, "demo", referrer.playerId);
    expect(await ensureReferralCode(env.DB, "demo", referrer.playerId)).toBe(code);
    const page = await (await fetchApp(`http://localhost/register?ref=${code.toLowerCase()}`)).text();
    expect(page).toContain('data-testid="referral-invited"');
    expect(page).toContain(`name="ref" value="${code}"`);
    const bad = await (await fetchApp(`http://localhost/register?ref=NOPE2345`)).text();
    expect(bad).toContain('data-testid="referral-invalid"');
    expect(bad).toContain("NOPE2345");
    expect(bad).not.toContain('name="ref"');
  });

  it("registration through the form ties the newcomer once; an invalid code still registers, without a tie, and says so", async () => {
    const referrer = await newPlayer();
    const code = await ensureReferralCode(env.DB, "demo", referrer.playerId);
    const username = uniqueName("rg");
    const res = await postForm(
      "/register",
      { username, password: PASSWORD, confirmPassword: PASSWORD, phone: "02055555555", adult: "on", ref: code, fingerprint: "" },
      { ip: ip() },
    );
    expect(res.status).toBe(302);
    const mine = await referralPage(env, AGENCY, { id: referrer.playerId, username: referrer.username });
    expect(mine.referred).toHaveLength(1);
    expect(mine.counting).toBe(1);

    const other = uniqueName("rg");
    const invalid = await postForm(
      "/register",
      { username: other, password: PASSWORD, confirmPassword: PASSWORD, phone: "02055555555", adult: "on", ref: "ZZZZ2345" },
      { ip: ip() },
    );
    expect(invalid.status).toBe(302);
    const row = await env.DB.prepare(`SELECT COUNT(*) AS n FROM referrals r JOIN players p ON p.id = r.referred_player_id WHERE p.username = ?1`)
      .bind(other)
      .first<{ n: number }>();
    expect(row!.n).toBe(0);
  });
});

describe("the JSON register API (docs/product.md §7) takes `ref` like the form", () => {
  const registerJson = (path: string, fields: Record<string, unknown>, headers: Record<string, string> = {}) =>
    fetchApp(`http://localhost${path}`, {
      method: "POST",
      headers: { Origin: "http://localhost", "Content-Type": "application/json", "CF-Connecting-IP": ip(), ...headers },
      body: JSON.stringify({ password: PASSWORD, confirmPassword: PASSWORD, phone: "02055555555", adult: true, ...fields }),
    });
  const tieOf = (username: string) =>
    env.DB.prepare(
      `SELECT r.referrer_player_id AS referrer, r.counts, r.reason FROM referrals r JOIN players p ON p.id = r.referred_player_id WHERE p.agency_id = 'demo' AND p.username = ?1`,
    )
      .bind(username)
      .first<{ referrer: string; counts: number; reason: string | null }>();

  it("ties the newcomer with the same rules (the fingerprint from the body or the X-Fingerprint header), on both spellings", async () => {
    const referrer = await newPlayer();
    await upsertFingerprint(env.DB, "demo", referrer.playerId, FP_A, "{}");
    const code = await ensureReferralCode(env.DB, "demo", referrer.playerId);

    const fresh = uniqueName("ja");
    const res = await registerJson("/api/v2/players/register", { username: fresh, ref: code.toLowerCase(), fingerprint: FP_B });
    expect(res.status).toBe(201);
    expect(((await res.json()) as { referral?: string }).referral).toBe("accepted");
    expect(await tieOf(fresh)).toEqual({ referrer: referrer.playerId, counts: 1, reason: null });

    // the referrer's own device (sent as the header): tied, not counting, and the answer does not say so
    const same = uniqueName("jb");
    const sameRes = await registerJson("/v2/players/register", { username: same, ref: code }, { "X-Fingerprint": FP_A });
    expect(sameRes.status).toBe(201);
    expect(((await sameRes.json()) as { referral?: string }).referral).toBe("accepted");
    expect(await tieOf(same)).toEqual({ referrer: referrer.playerId, counts: 0, reason: "same_device" });
  });

  it("an invalid code still registers, without a tie, and says so; no code: no word about it", async () => {
    const bad = uniqueName("jc");
    const res = await registerJson("/api/v2/players/register", { username: bad, ref: "ZZZZ2345" });
    expect(res.status).toBe(201);
    expect(((await res.json()) as { referral?: string }).referral).toBe("invalid");
    expect(await tieOf(bad)).toBeNull();

    const none = await postJson(
      "/api/v2/players/register",
      { username: uniqueName("jd"), password: PASSWORD, confirmPassword: PASSWORD, phone: "02055555555", adult: true },
      { ip: ip() },
    );
    expect(none.status).toBe(201);
    expect(Object.keys((await none.json()) as object)).toEqual(["player"]);
  });
});

describe("tie rules", () => {
  it("a device already seen on the referrer's account: tied, not counting, reason recorded", async () => {
    const referrer = await newPlayer();
    await upsertFingerprint(env.DB, "demo", referrer.playerId, FP_A, "{}");
    const code = await ensureReferralCode(env.DB, "demo", referrer.playerId);
    const same = await newPlayer({ ref: code, fingerprint: FP_A });
    expect(same.referral).toBe("not_counting");
    const fresh = await newPlayer({ ref: code, fingerprint: FP_B });
    expect(fresh.referral).toBe("tied");
    const page = await referralPage(env, AGENCY, { id: referrer.playerId, username: referrer.username });
    expect(page.counting).toBe(1);
    expect(page.notCounting).toBe(1);
    expect(page.referred.find((r) => !r.counts)?.reason).toBe("same_device");
  });

  it("self-referral is impossible: the referrer's own code never ties the referrer (and a second account from their device does not count)", async () => {
    const referrer = await newPlayer();
    const code = await ensureReferralCode(env.DB, "demo", referrer.playerId);
    const { tieReferral } = await import("../../workers/services/promotions");
    expect(await tieReferral(env.DB, "demo", referrer.playerId, code, null)).toBe("self");
    expect(await env.DB.prepare(`SELECT COUNT(*) AS n FROM referrals WHERE referred_player_id = ?1`).bind(referrer.playerId).first<number>("n")).toBe(0);
  });

  it("a newcomer is tied once: a second tie changes nothing", async () => {
    const a = await newPlayer();
    const b = await newPlayer();
    const codeA = await ensureReferralCode(env.DB, "demo", a.playerId);
    const codeB = await ensureReferralCode(env.DB, "demo", b.playerId);
    const c = await newPlayer({ ref: codeA });
    const { tieReferral } = await import("../../workers/services/promotions");
    await tieReferral(env.DB, "demo", c.playerId, codeB, null);
    const row = await env.DB.prepare(`SELECT referrer_player_id FROM referrals WHERE referred_player_id = ?1`)
      .bind(c.playerId)
      .first<string>("referrer_player_id");
    expect(row).toBe(a.playerId);
  });

  it("a bank account the referrer had (replaced since) added later by the referred player: stops counting, with the reason", async () => {
    const referrer = await newPlayer();
    const code = await ensureReferralCode(env.DB, "demo", referrer.playerId);
    const old = accountNumber();
    expect((await addBankAccount(env.DB, "demo", referrer.playerId, { bankCode: "BCEL", accountNumber: old, accountName: "Ref Errer" })).ok).toBe(true);
    const { replaceBankAccount } = await import("../../workers/services/players");
    const replaced = await replaceBankAccount(
      env,
      OWNER,
      referrer.playerId,
      { bankCode: "BCEL", accountNumber: accountNumber(), accountName: "Ref Errer" },
      { allowPaid: true },
    );
    expect(replaced.ok).toBe(true);
    const referred = await newPlayer({ ref: code });
    expect((await referralPage(env, AGENCY, { id: referrer.playerId, username: referrer.username })).counting).toBe(1);
    // the old number is free again: the referred player adds it
    expect((await addBankAccount(env.DB, "demo", referred.playerId, { bankCode: "BCEL", accountNumber: old, accountName: "Re Ferred" })).ok).toBe(true);
    const page = await referralPage(env, AGENCY, { id: referrer.playerId, username: referrer.username });
    expect(page.counting).toBe(0);
    expect(page.referred[0]!.reason).toBe("same_bank");
    const stored = await env.DB.prepare(`SELECT counts, reason, reason_at FROM referrals WHERE referred_player_id = ?1`)
      .bind(referred.playerId)
      .first<{ counts: number; reason: string; reason_at: string }>();
    expect(stored).toMatchObject({ counts: 0, reason: "same_bank" });
    expect(stored!.reason_at).toBeTruthy();
  });
});

/** A withdrawal (credit taken from the provider) of the player, requested at `at`. */
async function withdrawal(playerId: string, creditMinor: number, status = "SUCCESS", at = new Date(week.startsAt + 2 * 3600_000).toISOString()) {
  const code = `W${crypto.randomUUID().slice(0, 12)}`;
  await env.DB.prepare(
    `INSERT INTO withdraw_orders_view (code, agency_id, player_id, provider, credit, received, status, review, created_at, updated_at, credit_minor, paid_at, projection_version)
     VALUES (?1, 'demo', ?2, 'askmebet', '0', '0', ?3, 'AUTO', ?4, ?4, ?5, ?4, 1)`,
  )
    .bind(code, playerId, status, at, creditMinor)
    .run();
}

describe("self-referral without a fingerprint, and deposits net of withdrawals (decision 049)", () => {
  it("deposits mode: a referred player who deposits 1,000,000 kip and withdraws it all in the week earns the referrer nothing", async () => {
    await saveReferralSettings(env.DB, OWNER, { enabled: true, mode: "deposits", percentBp: 1000, weeklyCapMinor: 0n, turnoverMultiplier: 1 });
    const referrer = await newPlayer();
    const code = await ensureReferralCode(env.DB, "demo", referrer.playerId);
    const roundTrip = await newPlayer({ ref: code });
    // 1,000,000 kip at 600 kip per credit = 1,666.67 credit, all taken out again the same week
    await settledDeposit(roundTrip.playerId, 166_667);
    await withdrawal(roundTrip.playerId, 166_667);
    const w = (await referralPage(env, AGENCY, { id: referrer.playerId, username: referrer.username }, afterWeek)).weeks.find((x) => x.week === week.start)!;
    expect(w).toMatchObject({ basis: "0.00", amount: "0.00" });
    expect(
      await claimReferralWeek(env, AGENCY, { id: referrer.playerId, username: referrer.username }, { week: week.start, provider: "askmebet" }, afterWeek),
    ).toEqual({ ok: false, error: "REFERRAL_NOTHING_TO_CLAIM" });
  });

  it("deposits mode: what stays counts; a refused or failed withdrawal gave nothing back; a player who took out more adds 0, never less", async () => {
    await saveReferralSettings(env.DB, OWNER, { enabled: true, mode: "deposits", percentBp: 1000, weeklyCapMinor: 0n, turnoverMultiplier: 1 });
    const referrer = await newPlayer();
    const code = await ensureReferralCode(env.DB, "demo", referrer.playerId);
    const keeps = await newPlayer({ ref: code });
    await settledDeposit(keeps.playerId, 400_000);
    await withdrawal(keeps.playerId, 100_000, "SUCCESS");
    await withdrawal(keeps.playerId, 50_000, "OPEN"); // taken from the provider, payout pending: out of the game
    await withdrawal(keeps.playerId, 70_000, "REJECTED"); // staff refused: the credit went back
    await withdrawal(keeps.playerId, 90_000, "FAILED"); // the provider never gave it
    await withdrawal(keeps.playerId, 80_000, "SUCCESS", new Date(week.startsAt - 1000).toISOString()); // last week's
    const winner = await newPlayer({ ref: code });
    await settledDeposit(winner.playerId, 100_000);
    await withdrawal(winner.playerId, 900_000);
    const w = (await referralPage(env, AGENCY, { id: referrer.playerId, username: referrer.username }, afterWeek)).weeks.find((x) => x.week === week.start)!;
    expect(w).toMatchObject({ counted: 2, basis: "2500.00", amount: "250.00" });
  });

  it("the referrer's phone number at registration (any spelling): tied, not counting, even with JavaScript off (no fingerprint)", async () => {
    const referrer = await newPlayer({ phone: "020 7123 4567" });
    const code = await ensureReferralCode(env.DB, "demo", referrer.playerId);
    const same = await newPlayer({ ref: code, phone: "+856 20 71234567" });
    expect(same.referral).toBe("not_counting");
    const other = await newPlayer({ ref: code });
    expect(other.referral).toBe("tied");
    // the register form without JavaScript: no fingerprint field at all, the phone as typed
    const viaForm = uniqueName("rp");
    const res = await postForm(
      "/register",
      { username: viaForm, password: PASSWORD, confirmPassword: PASSWORD, phone: "020-7123-4567", adult: "on", ref: code },
      { ip: ip() },
    );
    expect(res.status).toBe(302);
    const page = await referralPage(env, AGENCY, { id: referrer.playerId, username: referrer.username });
    expect(page.counting).toBe(1);
    expect(page.notCounting).toBe(2);
    expect(page.referred.filter((r) => !r.counts).map((r) => r.reason)).toEqual(["same_phone", "same_phone"]);
  });

  it("a bank account in the referrer's name added by the referred player (another number): stops counting", async () => {
    const referrer = await newPlayer();
    const code = await ensureReferralCode(env.DB, "demo", referrer.playerId);
    expect(
      (await addBankAccount(env.DB, "demo", referrer.playerId, { bankCode: "BCEL", accountNumber: accountNumber(), accountName: "Somchai Phommavong" })).ok,
    ).toBe(true);
    const referred = await newPlayer({ ref: code });
    const stranger = await newPlayer({ ref: code });
    expect(
      (await addBankAccount(env.DB, "demo", stranger.playerId, { bankCode: "BCEL", accountNumber: accountNumber(), accountName: "Noy Sisavath" })).ok,
    ).toBe(true);
    expect((await referralPage(env, AGENCY, { id: referrer.playerId, username: referrer.username })).counting).toBe(2);
    // the same holder at another bank, written another way
    expect(
      (await addBankAccount(env.DB, "demo", referred.playerId, { bankCode: "LDB", accountNumber: accountNumber(), accountName: "SOMCHAI  PHOMMAVONG" })).ok,
    ).toBe(true);
    const page = await referralPage(env, AGENCY, { id: referrer.playerId, username: referrer.username });
    expect(page.counting).toBe(1);
    expect(page.referred.find((r) => !r.counts)?.reason).toBe("same_holder");
  });

  it("the referrer's IP address at registration only flags the referral for staff: it still counts", async () => {
    const referrer = await newPlayer();
    const shared = ip();
    expect(sessionFrom(await loginViaForm(referrer.username, PASSWORD, { ip: shared }))).toBeTruthy();
    const code = await ensureReferralCode(env.DB, "demo", referrer.playerId);
    const flagged = await newPlayer({ ref: code, ip: shared });
    expect(flagged.referral).toBe("tied");
    const page = await referralPage(env, AGENCY, { id: referrer.playerId, username: referrer.username });
    expect(page.counting).toBe(1);
    const report = await adminReferralsPage(env.DB, "demo", null);
    expect(report.flagged).toContainEqual(expect.objectContaining({ referrer: referrer.username, referred: flagged.username, flag: "same_ip" }));
  });
});

describe("earnings", () => {
  it("net loss mode: from the provider figures of counting players (a winner adds 0), percent then cap", async () => {
    await saveReferralSettings(env.DB, OWNER, { enabled: true, mode: "net_loss", percentBp: 1000, weeklyCapMinor: 0n, turnoverMultiplier: 2 });
    const referrer = await newPlayer();
    const code = await ensureReferralCode(env.DB, "demo", referrer.playerId);
    await upsertFingerprint(env.DB, "demo", referrer.playerId, FP_A, "{}");
    const a = await newPlayer({ ref: code });
    const b = await newPlayer({ ref: code });
    const notCounting = await newPlayer({ ref: code, fingerprint: FP_A });
    await netLoss(a.playerId, 0, "askmebet", 300_000n);
    await netLoss(a.playerId, 1, "betflix", -100_000n);
    await netLoss(b.playerId, 2, "askmebet", -500_000n);
    await netLoss(notCounting.playerId, 0, "askmebet", 900_000n);
    // deposits alone never make a net-loss share
    await settledDeposit(b.playerId, 10_000_000);
    const page = await referralPage(env, AGENCY, { id: referrer.playerId, username: referrer.username }, afterWeek);
    const w = page.weeks.find((x) => x.week === week.start)!;
    expect(w).toMatchObject({ counted: 2, basis: "2000.00", amount: "200.00", capped: false });

    await saveReferralSettings(env.DB, OWNER, { enabled: true, mode: "net_loss", percentBp: 1000, weeklyCapMinor: 15_000n, turnoverMultiplier: 2 });
    const capped = (await referralPage(env, AGENCY, { id: referrer.playerId, username: referrer.username }, afterWeek)).weeks.find(
      (x) => x.week === week.start,
    )!;
    expect(capped).toMatchObject({ amount: "150.00", capped: true });
  });

  it("deposits mode: settled deposits of counting players inside the week", async () => {
    await saveReferralSettings(env.DB, OWNER, { enabled: true, mode: "deposits", percentBp: 250, weeklyCapMinor: 0n, turnoverMultiplier: 1 });
    const referrer = await newPlayer();
    const code = await ensureReferralCode(env.DB, "demo", referrer.playerId);
    const a = await newPlayer({ ref: code });
    await settledDeposit(a.playerId, 400_000);
    await settledDeposit(a.playerId, 100_000);
    // paid the week before: not this week's
    await settledDeposit(a.playerId, 999_999, new Date(week.startsAt - 1000).toISOString());
    const w = (await referralPage(env, AGENCY, { id: referrer.playerId, username: referrer.username }, afterWeek)).weeks.find((x) => x.week === week.start)!;
    expect(w).toMatchObject({ basis: "5000.00", amount: "125.00" });
  });

  it("a week that has not ended cannot be claimed; a disabled programme pays nothing", async () => {
    const referrer = await newPlayer();
    expect(await claimReferralWeek(env, AGENCY, { id: referrer.playerId, username: referrer.username }, { week: week.start, provider: "askmebet" })).toEqual({
      ok: false,
      error: "REFERRAL_WEEK_OPEN",
    });
    expect(
      await claimReferralWeek(env, AGENCY, { id: referrer.playerId, username: referrer.username }, { week: "2026-11-24", provider: "askmebet" }, afterWeek),
    ).toEqual({ ok: false, error: "REFERRAL_WEEK_INVALID" });
    await saveReferralSettings(env.DB, OWNER, { enabled: false, mode: "deposits", percentBp: 250, weeklyCapMinor: 0n, turnoverMultiplier: 1 });
    expect(
      await claimReferralWeek(env, AGENCY, { id: referrer.playerId, username: referrer.username }, { week: week.start, provider: "askmebet" }, afterWeek),
    ).toEqual({ ok: false, error: "REFERRAL_DISABLED" });
    await saveReferralSettings(env.DB, OWNER, { enabled: true, mode: "deposits", percentBp: 250, weeklyCapMinor: 0n, turnoverMultiplier: 1 });
    expect(
      await claimReferralWeek(env, AGENCY, { id: referrer.playerId, username: referrer.username }, { week: week.start, provider: "askmebet" }, afterWeek),
    ).toEqual({ ok: false, error: "REFERRAL_NOTHING_TO_CLAIM" });
  });
});

/** A referrer with a settled bank account and session-free identity, and one counting referred player who lost `lossMinor` this week. */
async function referrerWithShare(lossMinor: bigint) {
  const referrer = await newPlayer();
  const code = await ensureReferralCode(env.DB, "demo", referrer.playerId);
  const a = await newPlayer({ ref: code });
  await netLoss(a.playerId, 1, "askmebet", lossMinor);
  return { ...referrer, who: { id: referrer.playerId, username: referrer.username } };
}

describe("the claim, through the wallet's reward path", () => {
  it("20 concurrent posts for one week: one claim, one credit at the provider, one ledger entry; the rest hear 'already claimed'", async () => {
    await saveReferralSettings(env.DB, OWNER, { enabled: true, mode: "net_loss", percentBp: 1000, weeklyCapMinor: 0n, turnoverMultiplier: 0 });
    const r = await referrerWithShare(123_450n); // 10 % = 123.45
    const results = await Promise.all(
      Array.from({ length: 20 }, () => claimReferralWeek(env, AGENCY, r.who, { week: week.start, provider: "gclub" }, afterWeek)),
    );
    const won = results.filter((x) => x.ok);
    expect(won).toHaveLength(1);
    expect(won[0]).toMatchObject({ ok: true, amount: "123.45", provider: "gclub" });
    expect(results.filter((x) => !x.ok && x.error === "REFERRAL_ALREADY_CLAIMED")).toHaveLength(19);
    const wallet = walletOf(env, "demo", r.playerId);
    await wallet.runDueWork(Date.now() + 60_000);
    expect(await providerBalance("gclub", r.username)).toBe("123.45");
    const rewards = await wallet.listRewards("REFERRAL", 1, 10);
    expect(rewards.total).toBe(1);
    const reward = rewards.items[0]!;
    expect(reward).toMatchObject({ status: "SUCCESS", amount: "123.45", provider: "gclub" });
    const ledger = await wallet.ledgerFor(reward.code);
    expect(ledger.filter((l) => l.account === "agency:referral")).toEqual([expect.objectContaining({ currency: "THB", amountMinor: "12345" })]);
    expect(await wallet.ledgerTotals()).toEqual({ THB: "0" });
    // a later claim of the same week is refused, and the page shows it claimed
    expect(await claimReferralWeek(env, AGENCY, r.who, { week: week.start, provider: "askmebet" }, afterWeek)).toEqual({
      ok: false,
      error: "REFERRAL_ALREADY_CLAIMED",
    });
    const page = await referralPage(env, AGENCY, { id: r.playerId, username: r.username }, afterWeek);
    expect(page.history).toEqual([expect.objectContaining({ week: week.start, amount: "123.45", provider: "gclub", status: "CREDITED" })]);
    expect(page.weeks.find((w) => w.week === week.start)!.claim?.status).toBe("CREDITED");
  }, 120_000);

  it("a second post while the first claim's credit is still unknown at the provider hears 'already claimed', and the week is credited once", async () => {
    await saveReferralSettings(env.DB, OWNER, { enabled: true, mode: "net_loss", percentBp: 1000, weeklyCapMinor: 0n, turnoverMultiplier: 0 });
    const r = await referrerWithShare(80_000n); // 10 % = 80.00
    // the provider books the credit but its answer is lost: the wallet's reward stays PENDING
    await sandboxProvider("/sandbox/faults", { method: "POST", body: JSON.stringify({ provider: "gclub", op: "deposit", mode: "error-after", count: 1 }) });
    try {
      const first = await claimReferralWeek(env, AGENCY, r.who, { week: week.start, provider: "gclub" }, afterWeek);
      expect(first.ok ? first.pending : first.error, "the first claim's credit is not known yet").not.toBe(false);
      expect(await claimReferralWeek(env, AGENCY, r.who, { week: week.start, provider: "gclub" }, afterWeek)).toEqual({
        ok: false,
        error: "REFERRAL_ALREADY_CLAIMED",
      });
    } finally {
      await sandboxProvider("/sandbox/faults", { method: "DELETE" });
    }
    const wallet = walletOf(env, "demo", r.playerId);
    await wallet.runDueWork(Date.now() + 60_000);
    expect(await providerBalance("gclub", r.username)).toBe("80.00");
    expect((await wallet.listRewards("REFERRAL", 1, 10)).total).toBe(1);
  }, 60_000);

  it("the turnover requirement is the share times the owner's multiplier; a refused credit books nothing and can be claimed again", async () => {
    await saveReferralSettings(env.DB, OWNER, { enabled: true, mode: "net_loss", percentBp: 1000, weeklyCapMinor: 0n, turnoverMultiplier: 3 });
    const r = await referrerWithShare(50_000n); // 10 % = 50.00
    await sandboxProvider("/sandbox/faults", { method: "POST", body: JSON.stringify({ provider: "alphabet", op: "deposit", mode: "refuse", count: 1 }) });
    try {
      expect(await claimReferralWeek(env, AGENCY, r.who, { week: week.start, provider: "alphabet" }, afterWeek)).toEqual({
        ok: false,
        error: "REFERRAL_CREDIT_FAILED",
      });
    } finally {
      await sandboxProvider("/sandbox/faults", { method: "DELETE" });
    }
    const again = await claimReferralWeek(env, AGENCY, r.who, { week: week.start, provider: "alphabet" }, afterWeek);
    expect(again).toEqual({ ok: true, amount: "50.00", provider: "alphabet", turnover: "150.00", pending: false });
    const wallet = walletOf(env, "demo", r.playerId);
    const items = (await wallet.listRewards("REFERRAL", 1, 10)).items;
    expect(items.filter((i) => i.status === "SUCCESS")).toEqual([expect.objectContaining({ turnoverTarget: "150.00" })]);
    expect(await providerBalance("alphabet", r.username)).toBe("50.00");
    // the history: credited, with its turnover so far (the refused reward of that week does not hide it)
    const page = await referralPage(env, AGENCY, { id: r.playerId, username: r.username }, afterWeek);
    expect(page.history).toEqual([expect.objectContaining({ status: "CREDITED", turnover: "150.00", turnoverDone: "0.00", turnoverMet: false })]);
  }, 120_000);
});

describe("owner settings and report", () => {
  it("settings changes are audited (before/after), an unchanged save writes nothing; the report lists referrers", async () => {
    const input = { enabled: true, mode: "net_loss" as const, percentBp: 777, weeklyCapMinor: 123_400n, turnoverMultiplier: 5 };
    await saveReferralSettings(env.DB, OWNER, input);
    await saveReferralSettings(env.DB, OWNER, input);
    const rows = (await listAudit(env.DB, "demo", { action: "referral.settings", ask: firstListPage(50) })).items.filter(
      (r) => (r.after as { percentBp: number }).percentBp === 777,
    );
    expect(rows).toHaveLength(1);
    const report = await adminReferralsPage(env.DB, "demo", null);
    expect(report.settings).toMatchObject({ enabled: true, percent: "7.77", weeklyCap: "1234.00", turnoverMultiplier: 5 });
    expect(report.rows.length).toBeGreaterThan(0);
  });

  it("the owner's page posts the settings; a cashier is refused", async () => {
    // the page and its form work as plain HTTP (JS off): covered by the e2e; here the route's guard
    const res = await fetchApp("http://localhost/admin/referrals", { redirect: "manual" });
    expect([302, 303]).toContain(res.status);
  });
});

describe("player page over HTTP", () => {
  it("shows the link, the code and the counts", async () => {
    const username = uniqueName("pg");
    const reg = await registerPlayer(env.DB, "demo", { username, password: PASSWORD, phone: "02055555555" }, { ip: ip(), userAgent: null });
    if (!reg.ok) throw new Error("register");
    const cookie = sessionFrom(await loginViaForm(username, PASSWORD, { ip: ip() }))!;
    const html = await (await fetchApp("http://localhost/player/referral", { headers: { Cookie: cookie } })).text();
    const code = await ensureReferralCode(env.DB, "demo", reg.playerId);
    expect(html).toContain(`http://localhost/register?ref=${code}`);
    expect(html).toContain('data-testid="referral-counts"');
  });
});
