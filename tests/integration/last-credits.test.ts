import { beforeAll, describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { fetchApp, seedDemo, shownOf } from "../setup/seed";
import { fundProvider, openOrder, payQr, playerWithBank, postDeposit, pumpDeliveries, qrPayloadOf, sandboxProvider } from "../setup/money";
import { addAgency } from "../setup/players";
import { recordLastCredit } from "../../workers/db/last-credits";
import { lastCredits } from "../../workers/services/providers";
import { PROVIDERS } from "../../workers/core/providers";

/**
 * The last credit known of each player at each provider (decision 081): kept when a balance
 * is read successfully, never on a failed read, newest first, per agency; shown in the header
 * of every page without a provider call.
 */

beforeAll(seedDemo);

async function faults(body: object | null) {
  if (body === null) return sandboxProvider("/sandbox/faults", { method: "DELETE" });
  return sandboxProvider("/sandbox/faults", { method: "POST", body: JSON.stringify(body) });
}

type Row = { amount: string; currency: string; seen_at: number };

async function stored(playerId: string, provider: string, agencyId = "demo"): Promise<Row | null> {
  return env.DB.prepare(`SELECT amount, currency, seen_at FROM last_credits WHERE agency_id = ?1 AND player_id = ?2 AND provider = ?3`)
    .bind(agencyId, playerId, provider)
    .first<Row>();
}

/** The write is sent after the answer (waitUntil): wait for it, up to a second. */
async function storedSoon(playerId: string, provider: string, until: (row: Row | null) => boolean): Promise<Row | null> {
  for (let i = 0; i < 50; i++) {
    const row = await stored(playerId, provider);
    if (until(row)) return row;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return stored(playerId, provider);
}

const creditApi = (cookie: string, provider: string) => fetchApp(`http://localhost/api/v2/players/credits/${provider}`, { headers: { Cookie: cookie } });

/** The header's credit as a page without JavaScript shows it. */
async function chipOf(cookie: string, path: string) {
  const html = await shownOf(await fetchApp(`http://localhost${path}`, { headers: { Cookie: cookie } }));
  const chip = /<a[^>]*data-testid="credit-chip"[\s\S]*?<\/a>/.exec(html)?.[0] ?? "";
  const amount = /data-testid="credit-chip-amount"[^>]*>([^<]*)</.exec(chip)?.[1] ?? null;
  const title = /<time[^>]*title="([^"]*)"/.exec(chip)?.[1] ?? null;
  const provider = /data-provider="([^"]*)"/.exec(chip)?.[1] ?? null;
  return { chip, amount, title, provider };
}

describe("the last credit known, in the header (decision 081)", () => {
  it("is kept when the credits API reads a balance, and shown on every page without asking the provider", async () => {
    const p = await playerWithBank();
    // nothing known yet: a neutral dash that links to the list of credits
    const before = await chipOf(p.cookie, "/");
    expect(before.amount).toBe("—");
    expect(before.chip).toContain('href="/player/withdraw#credits-title"');
    expect(before.title).toBeNull();

    await fundProvider("betflix", p.username, "12.5");
    await fundProvider("askmebet", p.username, "100");
    const t0 = Date.now();
    expect(await (await creditApi(p.cookie, "betflix")).json()).toEqual({ credit: { amount: "12.50", currency: "THB" } });
    expect(await storedSoon(p.playerId, "betflix", (r) => r !== null)).toMatchObject({ amount: "12.50", currency: "THB" });
    expect((await stored(p.playerId, "betflix"))!.seen_at).toBeGreaterThanOrEqual(t0);
    expect(await creditApi(p.cookie, "askmebet").then((r) => r.status)).toBe(200);
    await storedSoon(p.playerId, "askmebet", (r) => r !== null);

    // From here any balance call for this player fails once: the pages below must not make one.
    await faults({ provider: "*", op: "balance", mode: "error-before", count: 1, username: `demo_${p.username}` });
    try {
      const home = await chipOf(p.cookie, "/");
      expect(home.amount).toBe("฿112,50");
      expect(home.title).toMatch(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}:\d{2}$/);
      // the lite script asks the total live (no provider named)
      expect(home.provider).toBeNull();
      // on a provider's lobby: that provider's credit only
      const lobby = await chipOf(p.cookie, "/player/game/betflix");
      expect(lobby.amount).toBe("฿12,50");
      expect(lobby.provider).toBe("betflix");
      expect((await chipOf(p.cookie, "/player/game/gclub")).amount).toBe("—");
      expect((await chipOf(p.cookie, "/player/bank")).amount).toBe("฿112,50");
      // the fault is still armed: none of those pages asked a provider for a balance
      expect((await creditApi(p.cookie, "gclub")).status).toBe(503);
    } finally {
      await faults(null);
    }
  });

  it("a failed read keeps what was known", async () => {
    const p = await playerWithBank();
    await fundProvider("gclub", p.username, "7");
    expect((await creditApi(p.cookie, "gclub")).status).toBe(200);
    const kept = await storedSoon(p.playerId, "gclub", (r) => r !== null);
    expect(kept).toMatchObject({ amount: "7.00" });

    await fundProvider("gclub", p.username, "3");
    await faults({ provider: "gclub", op: "balance", mode: "error-before", count: 1, username: `demo_${p.username}` });
    try {
      expect((await creditApi(p.cookie, "gclub")).status).toBe(503);
    } finally {
      await faults(null);
    }
    // give a (wrong) write after the answer the time to land
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await stored(p.playerId, "gclub")).toEqual(kept);
    expect((await chipOf(p.cookie, "/player/game/gclub")).amount).toBe("฿7,00");
    // the next successful read replaces it
    expect((await creditApi(p.cookie, "gclub")).status).toBe(200);
    expect(await storedSoon(p.playerId, "gclub", (r) => r?.amount === "10.00")).toMatchObject({ amount: "10.00" });
  });

  it("the live figure the lite part asks for (/player/credit-chip): formatted by the server, kept, a provider's on its lobby, nothing while a provider is silent", async () => {
    const p = await playerWithBank();
    await fundProvider("askmebet", p.username, "20");
    await fundProvider("betflix", p.username, "2.5");
    const chipApi = (query = "") => fetchApp(`http://localhost/player/credit-chip${query}`, { headers: { Cookie: p.cookie } });
    const total = await chipApi();
    expect(total.status).toBe(200);
    expect(total.headers.get("Cache-Control")).toBe("private, no-store");
    const figure = (await total.json()) as { amount: string; short: string; full: string; at: string };
    expect(figure.amount).toBe("฿22,50");
    expect(figure.full).toMatch(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}:\d{2}$/);
    expect(figure.short).toBe(figure.full.slice(11, 16));
    expect(await storedSoon(p.playerId, "betflix", (r) => r !== null)).toMatchObject({ amount: "2.50" });
    expect(((await (await chipApi("?provider=betflix")).json()) as { amount: string }).amount).toBe("฿2,50");
    // not one of the agency's providers, or no session: nothing asked
    expect((await chipApi("?provider=nobody")).status).toBe(404);
    expect((await fetchApp("http://localhost/player/credit-chip")).status).toBe(401);
    // one provider silent: no total with a part missing
    await faults({ provider: "askmebet", op: "balance", mode: "error-before", count: 1, username: `demo_${p.username}` });
    try {
      const silent = await chipApi();
      expect(silent.status).toBe(200);
      expect(await silent.json()).toBeNull();
    } finally {
      await faults(null);
    }
  });

  it("the deposit and withdraw pages' credits keep what they read too", async () => {
    const p = await playerWithBank();
    await fundProvider("alphabet", p.username, "42");
    await (await fetchApp("http://localhost/player/withdraw", { headers: { Cookie: p.cookie } })).text();
    expect(await storedSoon(p.playerId, "alphabet", (r) => r !== null)).toMatchObject({ amount: "42.00", currency: "THB" });
  });

  it("the newest read wins, whatever order the writes land in", async () => {
    const p = await playerWithBank();
    const credit = (amount: string, seenAt: number) => ({ provider: "askmebet", amount, currency: "THB", seenAt });
    await recordLastCredit(env.DB, "demo", p.playerId, credit("5.00", 2000));
    await recordLastCredit(env.DB, "demo", p.playerId, credit("9.00", 1000)); // a slower, older read
    expect(await stored(p.playerId, "askmebet")).toEqual({ amount: "5.00", currency: "THB", seen_at: 2000 });
    await recordLastCredit(env.DB, "demo", p.playerId, credit("6.00", 3000));
    expect(await stored(p.playerId, "askmebet")).toEqual({ amount: "6.00", currency: "THB", seen_at: 3000 });
  });

  it("one agency's player never sees another agency's figure", async () => {
    await addAgency("chip-other", "chip-other.test");
    const p = await playerWithBank();
    // the same player id under another agency (ids are per agency in the store's key)
    await recordLastCredit(env.DB, "chip-other", p.playerId, { provider: "askmebet", amount: "999.00", currency: "THB", seenAt: Date.now() });
    const demo = { id: "demo", enabledProviders: PROVIDERS };
    expect(await lastCredits(env.DB, demo, p.playerId)).toEqual([]);
    expect((await chipOf(p.cookie, "/")).amount).toBe("—");
    await recordLastCredit(env.DB, "demo", p.playerId, { provider: "askmebet", amount: "1.00", currency: "THB", seenAt: Date.now() });
    expect((await lastCredits(env.DB, demo, p.playerId)).map((c) => c.amount)).toEqual(["1.00"]);
  });

  it("a successful deposit's notice offers 'play now' at that provider's lobby", async () => {
    const p = await playerWithBank();
    expect((await postDeposit(p.cookie, { amount: "60000", provider: "betflix" })).status).toBe(302);
    const order = (await openOrder(p.cookie))!;
    await payQr(await qrPayloadOf(p.wallet, order.code));
    await pumpDeliveries();
    await p.wallet.runDueWork();
    expect((await p.wallet.getDeposit(order.code))!.status).toBe("SUCCESS");
    const page = await shownOf(await fetchApp("http://localhost/player/bank", { headers: { Cookie: p.cookie } }));
    const notice = /<p[^>]*data-testid="deposit-success"[\s\S]*?<\/p>/.exec(page)?.[0] ?? "";
    expect(notice).toContain("ຝາກເງິນສຳເລັດ");
    // the menu's link to the lobby, with the tab it opens on
    expect(notice).toMatch(/<a href="\/player\/game\/betflix\?tab=pp\.txt"[^>]*data-testid="deposit-play-now"[^>]*>ຫຼິ້ນເລີຍ<\/a>/);
  });
});
