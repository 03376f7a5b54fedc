import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import lo from "../../locales/lo/common.json";
import { sweepAlerts } from "../../workers/services/alerts";
import { addBankAccount, getPlayerDetail, registerPlayer, replaceBankAccount, searchPlayers } from "../../workers/services/players";
import { firstListPage } from "../../workers/core/keyset";
import { securityAlertsToNewChat } from "../setup/sandbox-telegram";
import { fetchApp, seedDemo, shownOf } from "../setup/seed";
import { loginViaForm, PASSWORD, postForm, postJson, sessionFrom, uniqueName } from "../setup/players";
import { createStaff, staffLogin } from "../setup/staff";

/**
 * The owner's blocklist (decision 090) against real D1, through the owner's page and the
 * player's own forms and API: each kind refused and flagged, nothing stored on a refusal, every
 * add and remove audited, a flag shown to staff and alerted, and a cashier refused.
 */

let ownerCookie = "";
let cashierCookie = "";
let ipCounter = 0;
const nextIp = () => `10.150.${Math.floor(++ipCounter / 200)}.${ipCounter % 200}`;
let phoneCounter = 0;
/** A phone no other test of this file uses (020 + 8 digits). */
const freshPhone = () => `020${String(70000000 + (Date.now() % 1000000) * 10 + (++phoneCounter % 10)).slice(-8)}`;
const fingerprintOf = (seed: string) =>
  [...seed]
    .map((c) => c.charCodeAt(0).toString(16))
    .join("")
    .padEnd(32, "0")
    .slice(0, 32);

const REFUSED_REGISTRATION = lo.blocklist.registrationRefused;
const REFUSED_BANK = lo.blocklist.bankAccountRefused;
const USERNAME_TAKEN = lo.errors.code.USERNAME_EXISTS;

beforeAll(async () => {
  await seedDemo();
  const o = await createStaff(env, { agencyId: "demo", username: "bl-owner", password: "bl-owner-pass-123", role: "owner" });
  const c = await createStaff(env, { agencyId: "demo", username: "bl-cashier", password: "bl-cashier-pass-123", role: "cashier" });
  ownerCookie = await staffLogin(env, { username: "bl-owner", password: "bl-owner-pass-123", totpSecret: o.totpSecret });
  cashierCookie = await staffLogin(env, { username: "bl-cashier", password: "bl-cashier-pass-123", totpSecret: c.totpSecret });
});

async function list(fields: { kind: string; value: string; bankCode?: string; action?: "refuse" | "flag"; note?: string }, cookie = ownerCookie) {
  return postForm("/admin/blocklist", { intent: "add", action: "refuse", note: "", ...fields }, { cookie });
}

async function entryOf(shownPart: string) {
  return env.DB.prepare(`SELECT * FROM blocklist_entries WHERE agency_id = 'demo' AND instr(shown, ?1) > 0`)
    .bind(shownPart)
    .first<{ id: string; kind: string; match_key: string; action: string; note: string; added_by: string }>();
}

async function auditOf(action: string, target?: string) {
  const { results } = await env.DB.prepare(`SELECT * FROM audit_log WHERE agency_id = 'demo' AND action = ?1 AND (?2 IS NULL OR target = ?2) ORDER BY id`)
    .bind(action, target ?? null)
    .all<{ staff_username: string | null; target: string; before_json: string | null; after_json: string | null }>();
  return results;
}

function registerForm(username: string, phone: string, fingerprint = "") {
  return postForm(
    "/register",
    { username, password: PASSWORD, confirmPassword: PASSWORD, phone, adult: "on", displayName: `Player ${username}`, fingerprint },
    { ip: nextIp() },
  );
}

const playerNamed = (username: string) =>
  env.DB.prepare(`SELECT id FROM players WHERE agency_id = 'demo' AND username = ?1`).bind(username).first<{ id: string }>();

async function playerWithSession(phone = freshPhone()) {
  const username = uniqueName("bl");
  const ip = nextIp();
  const reg = await registerPlayer(env.DB, "demo", { username, password: PASSWORD, phone }, { ip, userAgent: null });
  if (!reg.ok) throw new Error(`register failed: ${reg.code}`);
  return { username, playerId: reg.playerId, cookie: sessionFrom(await loginViaForm(username, PASSWORD, { ip }))! };
}

const flagsOf = async (playerId: string) =>
  (
    await env.DB.prepare(`SELECT kind, checkpoint, shown FROM blocklist_flags WHERE player_id = ?1 ORDER BY created_at`)
      .bind(playerId)
      .all<{ kind: string; checkpoint: string; shown: string }>()
  ).results;

describe("registration against the blocklist", () => {
  it("a listed phone (refuse) is refused in any spelling, by the form and the API, saying 'contact staff' and storing nothing", async () => {
    const phone = freshPhone();
    const added = await list({ kind: "phone", value: phone.replace(/^0/, "+856 ").replace(/(\d{4})(\d{4})$/, "$1-$2"), note: "chargeback ring" });
    expect(added.status).toBe(302);
    const entry = (await entryOf(phone.slice(-4)))!;
    expect(entry).toMatchObject({ kind: "phone", match_key: `phone:${phone.slice(1)}`, action: "refuse", note: "chargeback ring", added_by: "bl-owner" });
    const [audit] = await auditOf("blocklist.add", entry.id);
    expect(audit.staff_username).toBe("bl-owner");
    expect(JSON.parse(audit.after_json!)).toMatchObject({ kind: "phone", action: "refuse", note: "chargeback ring" });

    const username = uniqueName("blr");
    const res = await registerForm(username, phone);
    expect(res.status).toBe(403);
    const html = await shownOf(res);
    // the form's message (the taken-name text also sits in a data attribute for the lite script)
    const said = /data-testid="form-error">(.*?)<\/div>/.exec(html)![1];
    expect(said).toContain(REFUSED_REGISTRATION);
    expect(said).not.toContain(USERNAME_TAKEN);
    expect(html).not.toContain("ບັນຊີດຳ"); // the list is never named to a player
    expect(await playerNamed(username)).toBeNull();

    // the JSON API, the number spelled otherwise: the code of its own, never "username exists"
    const api = await postJson(
      "/api/v2/players/register",
      { username, password: PASSWORD, confirmPassword: PASSWORD, phone: `+856${phone.slice(1)}`, adult: true },
      { ip: nextIp() },
    );
    expect(api.status).toBe(403);
    const body = (await api.json()) as { error: { code: string; message: string } };
    expect(body.error).toEqual({ code: "REGISTRATION_REFUSED", message: REFUSED_REGISTRATION });
    expect(await playerNamed(username)).toBeNull();
    expect(await env.DB.prepare(`SELECT COUNT(*) AS n FROM blocklist_flags`).first<{ n: number }>()).toEqual({ n: 0 });
  });

  it("a listed device (refuse) is refused from the fingerprint header; the same phone without that device registers", async () => {
    const device = fingerprintOf(uniqueName("dev"));
    expect((await list({ kind: "device", value: device.toUpperCase() })).status).toBe(302);
    const username = uniqueName("bld");
    const phone = freshPhone();
    const refused = await fetchApp("http://localhost/api/v2/players/register", {
      method: "POST",
      headers: { Origin: "http://localhost", "Content-Type": "application/json", "X-Fingerprint": device, "CF-Connecting-IP": nextIp() },
      body: JSON.stringify({ username, password: PASSWORD, confirmPassword: PASSWORD, phone, adult: true }),
    });
    expect(refused.status).toBe(403);
    expect(await playerNamed(username)).toBeNull();
    expect((await registerForm(username, phone, device)).status).toBe(403);
    expect(await playerNamed(username)).toBeNull();
    // JavaScript off sends no fingerprint: the phone alone is checked, and it is not listed
    expect((await registerForm(username, phone)).status).toBe(302);
    expect(await playerNamed(username)).not.toBeNull();
  });

  it("a listed phone and device (flag) register, the player is flagged on the staff pages, audited and alerted", async () => {
    await securityAlertsToNewChat({ agencyId: "demo", staffId: null, staffUsername: "bl-owner", ip: null, userAgent: null });
    const phone = freshPhone();
    const device = fingerprintOf(uniqueName("flag"));
    await list({ kind: "phone", value: phone, action: "flag", note: "watch: second account" });
    await list({ kind: "device", value: device, action: "flag" });
    const username = uniqueName("blf");
    const res = await registerForm(username, phone.replace(/(\d{3})(\d{4})(\d{4})/, "$1 $2 $3"), device);
    expect(res.status).toBe(302);
    const player = (await playerNamed(username))!;
    expect((await flagsOf(player.id)).map((f) => [f.kind, f.checkpoint]).sort()).toEqual([
      ["device", "registration"],
      ["phone", "registration"],
    ]);
    const [audit] = await auditOf("player.blocklist-flag", player.id);
    expect(audit.staff_username).toBe(`player:${username}`);
    expect(JSON.parse(audit.after_json!)).toMatchObject({ checkpoint: "registration", username });

    // staff see it: the player page (with the owner's note) and the players list's mark
    const detail = (await getPlayerDetail(env.DB, "demo", player.id))!;
    expect(detail.player.blocklistFlagged).toBe(true);
    expect(detail.blocklistFlags.find((f) => f.kind === "phone")).toMatchObject({ checkpoint: "registration", note: "watch: second account" });
    const page = await shownOf(await fetchApp(`http://localhost/admin/players/${player.id}`, { headers: { Cookie: cashierCookie } }));
    expect(page).toContain('data-testid="player-blocklist-flags"');
    expect(page).toContain("watch: second account");
    const found = await searchPlayers(env.DB, "demo", username, firstListPage(25));
    expect(found.items.map((p) => [p.username, p.blocklistFlagged])).toEqual([[username, true]]);
    const listPage = await shownOf(await fetchApp(`http://localhost/admin/players?q=${username}`, { headers: { Cookie: cashierCookie } }));
    expect(listPage).toContain('data-testid="blocklist-flagged"');

    // the staff alert, through the security sweep, once
    const now = Date.now();
    await sweepAlerts(env, now);
    await sweepAlerts(env, now + 30_000);
    const events = await env.DB.prepare(`SELECT facts, state FROM alert_events WHERE agency_id = 'demo' AND kind = 'player.blocklisted'`).all<{
      facts: string;
      state: string;
    }>();
    expect(events.results).toHaveLength(1);
    expect(events.results[0].state).toBe("queued");
    const facts = JSON.parse(events.results[0].facts) as { playerId: string; username: string; checkpoint: string; kinds: string[] };
    expect({ ...facts, kinds: facts.kinds.sort() }).toMatchObject({ playerId: player.id, username, checkpoint: "registration", kinds: ["device", "phone"] });
  });
});

describe("bank accounts against the blocklist", () => {
  const bankForm = (cookie: string, fields: { bankCode: string; accountNumber: string; accountName: string }) =>
    postForm("/player/bank", { ...fields, currency: "LAK", owner: "SELF" }, { cookie });
  const accountsOf = async (playerId: string) =>
    (await env.DB.prepare(`SELECT account_number FROM bank_accounts WHERE player_id = ?1`).bind(playerId).all<{ account_number: string }>()).results;

  it("a listed account (refuse, typed with dashes) and a listed holder name (refuse) cannot be added; nothing is stored", async () => {
    const number = `0101${String(Date.now()).slice(-9)}`;
    await list({ kind: "bank", bankCode: "BCEL", value: `${number.slice(0, 4)}-${number.slice(4, 8)}-${number.slice(8)}` });
    await list({ kind: "holder", value: "KHAMPHONE  SIHARATH." });
    const p = await playerWithSession();

    const byNumber = await bankForm(p.cookie, { bankCode: "BCEL", accountNumber: number, accountName: "Some One" });
    expect(byNumber.status).toBe(409);
    const html = await shownOf(byNumber);
    expect(html).toContain(REFUSED_BANK);
    expect(html).not.toContain("ບັນຊີດຳ");
    // the same number at another bank is another account
    const byName = await bankForm(p.cookie, { bankCode: "LDB", accountNumber: `99${number}`.slice(0, 12), accountName: "Khamphone Siharath" });
    expect(byName.status).toBe(409);
    expect(await shownOf(byName)).toContain(REFUSED_BANK);
    expect(await accountsOf(p.playerId)).toEqual([]);
    expect(await flagsOf(p.playerId)).toEqual([]);

    const fine = await bankForm(p.cookie, { bankCode: "LDB", accountNumber: `88${number}`.slice(0, 12), accountName: "Khamphone Other" });
    expect(fine.status).toBe(302);
    expect(await accountsOf(p.playerId)).toHaveLength(1);
  });

  it("a listed account and holder (flag) are added and flag the player at bank add", async () => {
    const number = `0202${String(Date.now()).slice(-9)}`;
    await list({ kind: "bank", bankCode: "BCEL", value: number, action: "flag" });
    await list({ kind: "holder", value: "Vilayphone Keo", action: "flag" });
    const p = await playerWithSession();
    const added = await addBankAccount(env.DB, "demo", p.playerId, { bankCode: "BCEL", accountNumber: number, accountName: "VILAYPHONE KEO" });
    expect(added.ok).toBe(true);
    expect((await flagsOf(p.playerId)).map((f) => [f.kind, f.checkpoint]).sort()).toEqual([
      ["bank", "bank-add"],
      ["holder", "bank-add"],
    ]);
    expect(await auditOf("player.blocklist-flag", p.playerId)).toHaveLength(1);
  });

  it("a replacement to a listed account is refused (the player's form and the owner's) or flagged, and a refused one changes nothing", async () => {
    const p = await playerWithSession();
    const first = `0303${String(Date.now()).slice(-9)}`;
    expect((await addBankAccount(env.DB, "demo", p.playerId, { bankCode: "BCEL", accountNumber: first, accountName: "First Holder" })).ok).toBe(true);
    const refusedNumber = `0404${String(Date.now()).slice(-9)}`;
    const flaggedNumber = `0505${String(Date.now()).slice(-9)}`;
    await list({ kind: "bank", bankCode: "BCEL", value: refusedNumber });
    await list({ kind: "bank", bankCode: "BCEL", value: flaggedNumber, action: "flag" });

    const form = await postForm(
      "/player/bank",
      {
        intent: "replace",
        bankCode: "BCEL",
        accountNumber: refusedNumber,
        accountName: "First Holder",
        currency: "LAK",
        owner: "SELF",
        currentPassword: PASSWORD,
      },
      { cookie: p.cookie },
    );
    expect(form.status).toBe(409);
    expect(await shownOf(form)).toContain(REFUSED_BANK);
    const owner = { agencyId: "demo", staffId: null, staffUsername: "bl-owner", ip: null, userAgent: null };
    const byOwner = await replaceBankAccount(
      env,
      owner,
      p.playerId,
      { bankCode: "BCEL", accountNumber: refusedNumber, accountName: "First Holder" },
      { allowPaid: true },
    );
    expect(byOwner).toEqual({ ok: false, code: "BANK_ACCOUNT_REFUSED" });
    expect(await accountsOf(p.playerId)).toEqual([{ account_number: first }]);
    expect(await auditOf("player.bank-replace", p.playerId)).toEqual([]);

    const flagged = await replaceBankAccount(
      env,
      owner,
      p.playerId,
      { bankCode: "BCEL", accountNumber: flaggedNumber, accountName: "First Holder" },
      { allowPaid: true },
    );
    expect(flagged.ok).toBe(true);
    expect((await flagsOf(p.playerId)).map((f) => [f.kind, f.checkpoint])).toEqual([["bank", "bank-replace"]]);
  });
});

describe("the owner's page", () => {
  it("a cashier cannot read, add, remove or export, and nothing changes", async () => {
    const phone = freshPhone();
    await list({ kind: "phone", value: phone });
    const entry = (await entryOf(phone))!;
    const get = (path: string, cookie: string) => fetchApp(`http://localhost${path}`, { headers: { Cookie: cookie } });
    expect((await get("/admin/blocklist", cashierCookie)).status).toBe(403);
    expect((await get("/admin/blocklist/export.csv", cashierCookie)).status).toBe(403);
    const other = freshPhone();
    expect((await list({ kind: "phone", value: other }, cashierCookie)).status).toBe(403);
    expect(await entryOf(other)).toBeNull();
    expect((await postForm("/admin/blocklist", { intent: "remove", entryId: entry.id }, { cookie: cashierCookie })).status).toBe(403);
    expect(await entryOf(phone)).not.toBeNull();
    expect(await auditOf("blocklist.remove", entry.id)).toEqual([]);
    // and the owner's page is not in a cashier's menu
    expect(await shownOf(await get("/admin/players", cashierCookie))).not.toContain('href="/admin/blocklist"');
    expect(await shownOf(await get("/admin/players", ownerCookie))).toContain('href="/admin/blocklist"');
  });

  it("the same value in another spelling is listed once; a removal is audited and lets the phone register again", async () => {
    const phone = freshPhone();
    await list({ kind: "phone", value: phone, note: "first" });
    const again = await list({ kind: "phone", value: `+856 ${phone.slice(1)}`, note: "second" });
    expect(again.status).toBe(409);
    expect(
      await env.DB.prepare(`SELECT COUNT(*) AS n FROM blocklist_entries WHERE match_key = ?1`)
        .bind(`phone:${phone.slice(1)}`)
        .first(),
    ).toEqual({ n: 1 });
    const entry = (await entryOf(phone))!;
    expect(entry.note).toBe("first");

    const removed = await postForm("/admin/blocklist", { intent: "remove", entryId: entry.id }, { cookie: ownerCookie });
    expect(removed.status).toBe(302);
    expect(await entryOf(phone)).toBeNull();
    const [audit] = await auditOf("blocklist.remove", entry.id);
    expect(audit.staff_username).toBe("bl-owner");
    expect(JSON.parse(audit.before_json!)).toMatchObject({ kind: "phone", note: "first", addedBy: "bl-owner" });
    expect((await registerForm(uniqueName("blok"), phone)).status).toBe(302);
    // removing it twice: gone, and no second audit row
    expect((await postForm("/admin/blocklist", { intent: "remove", entryId: entry.id }, { cookie: ownerCookie })).status).toBe(302);
    expect(await auditOf("blocklist.remove", entry.id)).toHaveLength(1);
  });

  it("pages by keyset, filters by kind, and exports every entry as CSV, audited", async () => {
    for (let i = 0; i < 27; i++) await list({ kind: "holder", value: `Paging Holder ${String.fromCharCode(97 + i)}${i}` });
    const first = await fetchApp("http://localhost/admin/blocklist?show=holder", { headers: { Cookie: ownerCookie } });
    expect(first.status).toBe(200);
    const html = await shownOf(first);
    const rows = (text: string) => [...text.matchAll(/data-kind="(\w+)"/g)].map((m) => m[1]);
    expect(rows(html).length).toBe(25);
    expect(new Set(rows(html))).toEqual(new Set(["holder"]));
    const next = /href="(\/admin\/blocklist\?[^"]*after=[^"]+)"/.exec(html)![1].replaceAll("&amp;", "&");
    const second = await shownOf(await fetchApp(`http://localhost${next}`, { headers: { Cookie: ownerCookie } }));
    const shown = (text: string) => [...text.matchAll(/data-shown="([^"]+)"/g)].map((m) => m[1]);
    expect(shown(second).some((s) => shown(html).includes(s))).toBe(false);
    expect(shown(html).length + shown(second).length).toBeGreaterThanOrEqual(27);

    const csv = await fetchApp("http://localhost/admin/blocklist/export.csv", { headers: { Cookie: ownerCookie } });
    expect(csv.status).toBe(200);
    expect(csv.headers.get("Content-Type")).toContain("text/csv");
    const text = await csv.text();
    const total = (await env.DB.prepare(`SELECT COUNT(*) AS n FROM blocklist_entries WHERE agency_id = 'demo'`).first<{ n: number }>())!.n;
    expect(text.trim().split("\r\n")).toHaveLength(total + 1);
    expect(text).toContain("Paging Holder a0");
    expect(await auditOf("blocklist.export")).toHaveLength(1);
  });
});

describe("the blocklist's statements through their indexes (decision 077)", () => {
  const plan = async (sql: string, ...binds: unknown[]) =>
    (
      await env.DB.prepare(`EXPLAIN QUERY PLAN ${sql}`)
        .bind(...binds)
        .all<{ detail: string }>()
    ).results.map((r) => r.detail);

  it("the checks, the pages (all kinds, one kind, after a cursor) and the players list's mark never SCAN the blocklist tables", async () => {
    const statements: [string, unknown[]][] = [
      [`SELECT id, kind, action, shown, note FROM blocklist_entries WHERE agency_id = ?1 AND match_key IN (?2, ?3)`, ["demo", "phone:2055551234", "device:ab"]],
      [`SELECT * FROM blocklist_entries WHERE agency_id = ?1 ORDER BY created_at DESC, id DESC LIMIT 26`, ["demo"]],
      [
        `SELECT * FROM blocklist_entries WHERE agency_id = ?1 AND kind = ?2 AND (created_at, id) < (?3, ?4) ORDER BY created_at DESC, id DESC LIMIT 26`,
        ["demo", "phone", "2026-12-02T00:00:00.000Z", "x"],
      ],
      [`SELECT EXISTS (SELECT 1 FROM blocklist_flags f WHERE f.agency_id = ?1 AND f.player_id = ?2)`, ["demo", "p"]],
      [`SELECT entry_id FROM blocklist_flags WHERE agency_id = ?1 AND player_id = ?2 ORDER BY created_at DESC LIMIT 50`, ["demo", "p"]],
    ];
    for (const [sql, binds] of statements) {
      const details = await plan(sql, ...binds);
      expect(
        details.filter((d) => /^SCAN (blocklist_entries|blocklist_flags|f)\b/.test(d) || /USE TEMP B-TREE/.test(d)),
        sql,
      ).toEqual([]);
    }
  });

  it("a cursor that is not one is the first page, never an error", async () => {
    for (const cursor of ["x", "~", "2026-01-01~", `${"9".repeat(200)}~a`, "2026-01-01T00:00:00.000Z~'; DROP TABLE players; --"]) {
      for (const key of ["after", "before"]) {
        const res = await fetchApp(`http://localhost/admin/blocklist?${key}=${encodeURIComponent(cursor)}&show=nothing`, { headers: { Cookie: ownerCookie } });
        expect(res.status, `${key}=${cursor}`).toBe(200);
      }
    }
  });
});
