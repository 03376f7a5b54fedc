import { beforeAll, describe, expect, it, vi } from "vitest";
import { env } from "cloudflare:workers";
import { fetchApp, seedDemo } from "../setup/seed";
import { fundProvider, playerWithBank, postDeposit } from "../setup/money";
import { newStaff, staffGet, type Staff } from "../setup/bank-reports";
import { litePartsIn, markupOf } from "../setup/lite-script";
import { PART_MARKUP, pageHasHook } from "../../app/lib/lite/hooks";
import type { LitePartName } from "../../app/lib/lite/parts";
import { vientianeDate } from "../../workers/core/report-range";
import { findAgencyByHost } from "../../workers/services/agency";
import { confirmWithdraw, decideWithdrawal } from "../../workers/services/withdrawals";

vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });
beforeAll(seedDemo);

/** The page's parts run, and it carries each one's hooks (the check both describes make). */
function expectParts(path: string, html: string, parts: readonly LitePartName[]) {
  const runs = litePartsIn(html);
  const markup = markupOf(html);
  for (const part of parts) {
    expect(runs, `${path} runs ${part}`).toContain(part);
    for (const hook of PART_MARKUP[part]) expect(pageHasHook(markup, hook), `${path}: ${part} needs ${hook.selector}`).toBe(true);
  }
}

/**
 * Every part a lite page runs finds the markup it needs (decision 066): the hooks of
 * app/lib/lite/hooks.ts PART_MARKUP, in the page as the server renders it. A route that
 * renames or drops a hook its parts look for fails here, where before the part silently did
 * nothing. Each case is a page in the state where its parts' markup shows (the deposit page's
 * QR step runs the polling and the countdown; its form, the validation and the preview).
 */
type Case = { path: string; player: boolean; state?: (cookie: string) => Promise<void>; parts: LitePartName[] };

const CASES: Case[] = [
  { path: "/", player: false, parts: ["public", "carousel"] },
  { path: "/register", player: false, parts: ["public"] },
  { path: "/", player: true, parts: ["public", "menus", "creditChip", "passwordDialog", "pending"] },
  { path: "/player/deposit", player: true, parts: ["validate", "creditPreview", "quickAmount", "menus", "creditChip", "passwordDialog", "pending"] },
  {
    path: "/player/deposit",
    player: true,
    state: async (cookie) => {
      expect((await postDeposit(cookie, { amount: "60000" })).status).toBe(302);
    },
    parts: ["depositStatus", "countdown", "copy", "selectOnFocus", "saveQr"],
  },
  { path: "/player/withdraw", player: true, parts: ["validate"] },
  { path: "/player/bank", player: true, parts: ["validate"] },
  { path: "/player/password", player: true, parts: ["validate"] },
  { path: "/player/limits", player: true, parts: ["validate"] },
  { path: "/player/referral", player: true, parts: ["copy"] },
];

describe("the lite pages carry the markup of the parts they run (decision 066)", () => {
  for (const c of CASES) {
    it(`${c.path}${c.player ? " (player)" : ""}${c.state ? " (after a deposit)" : ""}: ${c.parts.join(", ")}`, async () => {
      const headers: Record<string, string> = {};
      if (c.player) {
        const p = await playerWithBank();
        headers.Cookie = p.cookie;
        await c.state?.(p.cookie);
      }
      const html = await (await fetchApp(`http://localhost${c.path}`, { headers })).text();
      expectParts(c.path, html, c.parts);
    });
  }

  it("every part that needs markup is checked on some page", () => {
    const checked = new Set([...CASES.flatMap((c) => c.parts), ...STAFF_CASES.flatMap((c) => c.parts)]);
    const needing = (Object.keys(PART_MARKUP) as LitePartName[]).filter((part) => PART_MARKUP[part].length > 0);
    expect(needing.filter((part) => !checked.has(part))).toEqual([]);
  });

  it("a page without a part's markup fails the check (the check can fail)", () => {
    const page = '<div data-testid="qr-status" hidden></div>';
    expect(PART_MARKUP.depositStatus.every((hook) => pageHasHook(page, hook))).toBe(false);
    expect(pageHasHook('<p data-copy="x" data-copied="y">', PART_MARKUP.copy[0]!)).toBe(true);
    expect(pageHasHook('<p data-copyright="x">', PART_MARKUP.copy[0]!)).toBe(false);
  });
});

/**
 * The staff pages are lite too (decision 089): each in the state where its parts' markup
 * shows, as an owner of the demo agency sees it. A withdrawal under review has the two
 * validated decision forms; once marked paid with no bank debit under an imported statement it
 * is a difference of the day, whose note form is sent once.
 */
type StaffCase = { path: () => string; parts: LitePartName[] };
let owner: Staff;
let withdrawal = "";
let player: Awaited<ReturnType<typeof playerWithBank>>;

const STAFF_CASES: StaffCase[] = [
  { path: () => "/admin/login", parts: ["validate", "pending"] },
  { path: () => "/admin", parts: ["pending"] },
  { path: () => "/admin/staff/new", parts: ["validate"] },
  { path: () => "/admin/settings", parts: ["validate"] },
  { path: () => "/admin/blocklist", parts: ["validate"] },
  { path: () => "/admin/promotions/new", parts: ["validate"] },
  { path: () => `/admin/withdrawals/${withdrawal}`, parts: ["validate", "pending"] },
  { path: () => "/admin/reports", parts: ["chartTips"] },
  { path: () => "/admin/settings/brand", parts: ["colorPair"] },
  { path: () => `/admin/reconciliation?day=${vientianeDate(Date.now())}`, parts: ["submitOnce"] },
];

describe("the staff pages are lite and carry the markup of the parts they run (decision 089)", () => {
  beforeAll(async () => {
    owner = await newStaff("demo", "owner", `lite-owner-${crypto.randomUUID().slice(0, 6)}`);
    // a withdrawal of 100 credit, waiting for staff (the agency's review threshold)
    const p = (player = await playerWithBank());
    await fundProvider("betflix", p.username, "100.00");
    const agency = (await findAgencyByHost(env.DB, "localhost"))!;
    const production = { ...env, SANDBOX_BANK: undefined, SANDBOX_BANK_MERCHANT: undefined, SANDBOX_BANK_SECRET: undefined } as unknown as Env;
    const confirmed = await confirmWithdraw(
      production,
      agency,
      { id: p.playerId, username: p.username, displayName: p.username },
      { provider: "betflix", amountMinor: 10_000n, idempotencyKey: crypto.randomUUID() },
      "http://localhost",
    );
    if (!confirmed.ok) throw new Error("withdrawal refused");
    await p.wallet.runDueWork();
    withdrawal = confirmed.order.code;
  });

  for (const c of STAFF_CASES) {
    it(`${c.path().replace(/\?.*/, "")}: ${c.parts.join(", ")}`, async () => {
      const path = c.path();
      if (path.startsWith("/admin/reconciliation")) await withdrawalPaidWithoutDebit();
      const res = path === "/admin/login" ? await fetchApp(`http://localhost${path}`) : await staffGet(path, owner);
      expect(res.status, path).toBe(200);
      const html = await res.text();
      expect(html, `${path} is lite`).toContain('data-scripts="lite"');
      // no React in the browser: no module script, no route chunks
      expect(html).not.toMatch(/<script[^>]*type="module"/);
      expectParts(path, html, c.parts);
      // the copy buttons' part runs on every page of the back office's layout: a page that shows a copy button needs nothing more
      if (path !== "/admin/login") expect(litePartsIn(html), `${path} runs copy`).toContain("copy");
    });
  }

  it("a staff page inlines only its own routes' translations, never the root's or whole namespaces", async () => {
    const withForms = await (await staffGet(`/admin/withdrawals/${withdrawal}`, owner)).text();
    const inlined = JSON.parse(/<script type="application\/json" id="i18n-resources"[^>]*>([^<]*)<\/script>/.exec(withForms)![1]!) as {
      groups: string[];
      resources: Record<string, unknown>;
    };
    expect(inlined.groups).toEqual(["withdrawals.validation"]);
    expect(Object.keys((inlined.resources.admin as Record<string, unknown>) ?? {})).toEqual(["withdrawals"]);
    // a page without a form that validates needs no translations in the browser at all
    expect(await (await staffGet("/admin/deposits", owner)).text()).not.toContain('id="i18n-resources"');
  });
});

/** The withdrawal marked paid, with a statement imported around it that has no debit for it: a difference of today. */
async function withdrawalPaidWithoutDebit() {
  const actor = { agencyId: "demo", staffId: "lite-owner", staffUsername: "lite-owner", ip: "10.211.0.2", userAgent: "vitest", via: "back-office" as const };
  expect((await decideWithdrawal(env, "demo", withdrawal, { action: "paid", bankReference: `BCEL-OUT-${withdrawal}` }, actor)).ok).toBe(true);
  await player.wallet.runDueWork();
  const now = Date.now();
  await env.DB.prepare(
    `INSERT OR IGNORE INTO statement_imports (id, agency_id, channel_code, file_name, bank_time_from, bank_time_to, credit_rows, debit_rows, imported_by, imported_at)
     VALUES ('lite-import', 'demo', 'OWN-LITE', 'bcel.csv', ?1, ?2, 0, 0, 'lite-owner', ?3)`,
  )
    .bind(now - 3600_000, now + 3600_000, now)
    .run();
}
