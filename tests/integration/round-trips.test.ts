import { beforeAll, describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { fetchApp, seedDemo } from "../setup/seed";
import { fundProvider, playerWithBank, postDeposit, postWithdraw } from "../setup/money";
import { loginViaForm, PASSWORD } from "../setup/players";
import { createStaff, staffLogin } from "../setup/staff";
import { meteredD1, offThePath, parseD1MetricsHeader, type D1Metrics } from "../../workers/db/metered";

/**
 * The sequential D1 round trips each request costs (decision 076), read from the
 * `X-D1-Metrics` header every local answer carries (workers/db/metered.ts): the critical path,
 * not a count of statements. In production D1's primary sits in one region, tens of ms away
 * from a player in Laos, so each level is one such wait before the page renders.
 *
 * The budgets are the figures reached; a change that adds a round trip to a page fails here.
 * Measured in a warm isolate: one request has come before (as in production, where an isolate
 * serves many), so what an isolate keeps (the agency, the provider setups) is kept.
 */

/** Anonymous pages. */
const ANONYMOUS: Record<string, number> = { "/": 3, "/login": 2 };

/** A logged-in player's pages. */
const PLAYER_PAGES: Record<string, number> = {
  "/": 4,
  "/player/deposit": 5,
  "/player/deposit/history": 4,
  "/player/withdraw": 4,
  "/player/withdraw/history": 4,
  "/player/bank": 4,
  "/player/promotion": 4,
  "/player/promotion/history": 4,
  "/player/game/askmebet": 4,
  "/player/password": 4,
  "/player/sessions": 4,
  "/player/limits": 4,
  "/player/referral": 4,
  "/player/cashback": 4,
};

/** The forms a player posts. */
const PLAYER_POSTS = { deposit: 9, depositWithOpenOrderPage: 5, withdrawReview: 5, withdraw: 4, login: 7 };

/** Staff pages (an owner: every section). */
const STAFF_PAGES: Record<string, number> = {
  "/admin": 4,
  "/admin/deposits": 5,
  "/admin/deposits/open": 4,
  "/admin/payments": 6,
  "/admin/withdrawals": 4,
  "/admin/players": 5,
  "/admin/players/:id": 5,
  "/admin/settings": 4,
  "/admin/reports": 4,
  "/admin/reconciliation": 4,
  "/admin/audit": 4,
  "/admin/promotions": 4,
  "/admin/staff": 4,
};

type Measured = D1Metrics & { status: number };

async function measured(res: Response): Promise<Measured> {
  await res.arrayBuffer();
  const metrics = parseD1MetricsHeader(res.headers.get("X-D1-Metrics"));
  if (!metrics) throw new Error(`answer ${res.status} without X-D1-Metrics`);
  return { status: res.status, ...metrics };
}

function get(path: string, cookie?: string): Promise<Measured> {
  return fetchApp(`http://localhost${path}`, { headers: cookie ? { Cookie: cookie } : {}, redirect: "manual" }).then(measured);
}

/** Every page over its budget, with what it cost (empty when all hold), and the figures for the log. */
function overBudget(budgets: Record<string, number>, figures: Record<string, Measured>): string[] {
  for (const [page, m] of Object.entries(figures)) {
    console.log(`${page.padEnd(28)} ${m.status} depth=${m.depth} queries=${m.queries} rows_read=${m.rowsRead} rows_written=${m.rowsWritten}`);
  }
  return Object.entries(budgets)
    .filter(([page, budget]) => !figures[page] || figures[page].depth > budget)
    .map(([page, budget]) => `${page}: depth ${figures[page]?.depth ?? "not measured"} > ${budget}`);
}

let player: Awaited<ReturnType<typeof playerWithBank>>;
let staff: string;

beforeAll(async () => {
  await seedDemo();
  player = await playerWithBank();
  const owner = await createStaff(env, { agencyId: "demo", username: "trips-owner", password: "trips-owner-pass-1", role: "owner" });
  staff = await staffLogin(env, { username: "trips-owner", password: "trips-owner-pass-1", totpSecret: owner.totpSecret });
  // the isolate has served this agency before (warm), and the player's referral code exists (made at the first view)
  await get("/");
  await get("/player/referral", player.cookie);
}, 60_000);

describe("round trips to D1 per request", () => {
  it("anonymous pages", async () => {
    const figures: Record<string, Measured> = {};
    for (const page of Object.keys(ANONYMOUS)) figures[page] = await get(page);
    expect(Object.values(figures).map((m) => m.status)).toEqual(Object.keys(ANONYMOUS).map(() => 200));
    expect(overBudget(ANONYMOUS, figures)).toEqual([]);
  });

  it("every player page", async () => {
    const figures: Record<string, Measured> = {};
    for (const page of Object.keys(PLAYER_PAGES)) figures[page] = await get(page, player.cookie);
    expect(Object.entries(figures).filter(([, m]) => m.status !== 200)).toEqual([]);
    expect(overBudget(PLAYER_PAGES, figures)).toEqual([]);
  });

  it("a deposit POST, and the deposit page with its open order", async () => {
    const p = await playerWithBank();
    await get("/player/deposit", p.cookie);
    const deposit = await measured(await postDeposit(p.cookie, { amount: "60000" }));
    expect(deposit.status).toBe(302);
    const page = await get("/player/deposit", p.cookie);
    expect(page.status).toBe(200);
    const figures = { deposit, depositWithOpenOrderPage: page };
    expect(overBudget({ deposit: PLAYER_POSTS.deposit, depositWithOpenOrderPage: PLAYER_POSTS.depositWithOpenOrderPage }, figures)).toEqual([]);
  });

  it("a withdraw POST (review, then confirm)", async () => {
    const p = await playerWithBank();
    await fundProvider("askmebet", p.username, "500.00");
    const withdrawReview = await measured(await postWithdraw(p.cookie, { amount: "200", intent: "review" }));
    expect(withdrawReview.status).toBe(200);
    const withdraw = await measured(await postWithdraw(p.cookie, { amount: "200" }));
    expect(withdraw.status).toBe(302);
    const figures = { withdrawReview, withdraw };
    expect(overBudget({ withdrawReview: PLAYER_POSTS.withdrawReview, withdraw: PLAYER_POSTS.withdraw }, figures)).toEqual([]);
  });

  it("the login POST", async () => {
    const login = await measured(await loginViaForm(player.username, PASSWORD, { ip: "10.61.0.1" }));
    expect(login.status).toBe(302);
    expect(overBudget({ login: PLAYER_POSTS.login }, { login })).toEqual([]);
  });

  it("staff pages", async () => {
    const figures: Record<string, Measured> = {};
    for (const page of Object.keys(STAFF_PAGES)) figures[page] = await get(page.replace(":id", player.playerId), staff);
    expect(Object.entries(figures).filter(([, m]) => m.status !== 200)).toEqual([]);
    expect(overBudget(STAFF_PAGES, figures)).toEqual([]);
  });
});

describe("the metered D1 wrapper", () => {
  it("keeps D1's answers: first, first(column), all, run, raw, bind, batch of its own statements, a session's batch", async () => {
    const { db, metrics } = meteredD1(env.DB);
    await db.prepare(`CREATE TABLE IF NOT EXISTS trips_probe (id INTEGER PRIMARY KEY, name TEXT)`).run();
    const insert = db.prepare(`INSERT INTO trips_probe (id, name) VALUES (?1, ?2)`);
    const written = await db.batch([insert.bind(1, "one"), insert.bind(2, "two"), env.DB.prepare(`INSERT INTO trips_probe (id, name) VALUES (3, 'three')`)]);
    expect(written.map((r) => r.meta.changes)).toEqual([1, 1, 1]);
    expect(await db.prepare(`SELECT name FROM trips_probe WHERE id = ?1`).bind(2).first()).toEqual({ name: "two" });
    expect(await db.prepare(`SELECT name FROM trips_probe WHERE id = ?1`).bind(3).first("name")).toBe("three");
    expect(await db.prepare(`SELECT name FROM trips_probe WHERE id = ?1`).bind(9).first("name")).toBeNull();
    await expect(db.prepare(`SELECT name FROM trips_probe WHERE id = 1`).first("nope")).rejects.toThrow(/D1_COLUMN_NOTFOUND/);
    expect((await db.prepare(`SELECT id FROM trips_probe ORDER BY id`).all<{ id: number }>()).results.map((r) => r.id)).toEqual([1, 2, 3]);
    expect(await db.prepare(`SELECT id, name FROM trips_probe WHERE id = 1`).raw()).toEqual([[1, "one"]]);
    expect(await db.prepare(`SELECT id FROM trips_probe WHERE id = 1`).raw({ columnNames: true })).toEqual([["id"], [1]]);
    const session = db.withSession("first-primary");
    const [one, two] = await session.batch([session.prepare(`SELECT COUNT(*) AS n FROM trips_probe`), session.prepare(`DELETE FROM trips_probe`)]);
    expect(one.results).toEqual([{ n: 3 }]);
    expect(two.meta.changes).toBe(3);
    expect(metrics()).toMatchObject({ depth: 10, queries: 13 });
    expect(metrics().rowsRead).toBeGreaterThan(0);
  });

  it("measures depth, not calls: a batch and queries started together share a level, a query after another is one deeper, work off the path takes none", async () => {
    const { db, metrics } = meteredD1(env.DB);
    const one = () => db.prepare(`SELECT 1 AS n`).first();
    await Promise.all([one(), one(), db.batch([db.prepare(`SELECT 1`), db.prepare(`SELECT 2`)])]);
    expect(metrics()).toMatchObject({ depth: 1, queries: 4 });
    await one();
    expect(metrics().depth).toBe(2);
    await offThePath(db).prepare(`SELECT 1`).run();
    await Promise.all([one(), one()]);
    expect(metrics()).toMatchObject({ depth: 3, queries: 8 });
  });
});
