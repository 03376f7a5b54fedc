import { beforeAll, describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import worker from "../../workers/app";
import { seedDemo } from "../setup/seed";
import { IMAGES } from "../fixtures/brand/images";
import type { AuditActor } from "../../workers/db/audit";
import { saveBrandSettings, uploadBrandImage, uploadPromotionBanner, type BrandSettingsInput } from "../../workers/services/agency";

/**
 * Decision 053: brand uploads are limited per agency and hour, an image no
 * page has referred to for 30 days is deleted (object and record) by the hourly scheduled
 * job, and the brand texts follow the name rule of workers/core/names.ts.
 */

const actor = (agencyId: string): AuditActor => ({ agencyId, staffId: `s-${agencyId}`, staffUsername: "boss", ip: "10.81.0.1", userAgent: "vitest" });
const file = (bytes: Uint8Array<ArrayBuffer>, type: string, name = "upload") => new File([bytes], name, { type });
const logo = () => file(IMAGES.demoLogo, "image/png", "logo.png");

/** CRC-32 (PNG's) of a chunk's type and data. */
function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  }
  return (c ^ 0xffffffff) >>> 0;
}

/** The demo logo with a tEXt chunk of its own before IEND: a valid PNG with other bytes, so another image name. */
function logoNumber(n: number) {
  const png = IMAGES.demoLogo;
  const data = new TextEncoder().encode(`Comment\0logo ${n}`);
  const chunk = new Uint8Array(12 + data.length);
  const view = new DataView(chunk.buffer);
  view.setUint32(0, data.length);
  chunk.set(new TextEncoder().encode("tEXt"), 4);
  chunk.set(data, 8);
  view.setUint32(8 + data.length, crc32(chunk.subarray(4, 8 + data.length)));
  const iend = png.length - 12;
  const bytes = new Uint8Array(png.length + chunk.length);
  bytes.set(png.subarray(0, iend));
  bytes.set(chunk, iend);
  bytes.set(png.subarray(iend), iend + chunk.length);
  return file(bytes, "image/png", `logo-${n}.png`);
}
const objectsOf = async (agencyId: string) => (await env.BRAND_ASSETS.list({ prefix: `agencies/${agencyId}/` })).objects.map((o) => o.key.split("/").pop());
const recordsOf = async (agencyId: string) =>
  (await env.DB.prepare(`SELECT name FROM brand_assets WHERE agency_id = ?1 ORDER BY name`).bind(agencyId).all<{ name: string }>()).results.map((r) => r.name);

async function addAgency(id: string) {
  await env.DB.batch([
    env.DB.prepare(`INSERT INTO agencies (id, name) VALUES (?1, ?1)`).bind(id),
    env.DB.prepare(`INSERT INTO agency_domains (host, agency_id) VALUES (?1, ?2)`).bind(`${id}.localhost`, id),
    env.DB.prepare(`INSERT INTO agency_settings (agency_id) VALUES (?1)`).bind(id),
  ]);
}

/** The Worker's own hourly trigger, as Cloudflare calls it. */
async function hourlyJob(at: number) {
  const ctx = createExecutionContext();
  await worker.scheduled!(createScheduledController({ scheduledTime: at, cron: "17 * * * *" }), env, ctx);
  await waitOnExecutionContext(ctx);
}

const DAY = 24 * 3600_000;

beforeAll(async () => {
  await seedDemo();
  for (const id of ["burst", "calm", "sweep", "texts"]) await addAgency(id);
});

describe("uploads per agency and hour", () => {
  it("25 logos in a row: the first 20 are kept, the rest refused; another agency is not held back", async () => {
    const results = [];
    for (let i = 0; i < 25; i++) results.push(await uploadBrandImage(env, actor("burst"), "logo", logoNumber(i)));
    expect(results.filter((r) => r.ok)).toHaveLength(20);
    expect(results.slice(20)).toEqual(Array(5).fill({ ok: false, code: "BRAND_UPLOAD_LIMIT" }));
    expect(await recordsOf("burst")).toHaveLength(20);
    expect(await objectsOf("burst")).toHaveLength(20);
    // promotion banners count against the same budget
    expect(await uploadPromotionBanner(env, actor("burst"), file(IMAGES.wideWebp, "image/webp", "b.webp"))).toEqual({ ok: false, code: "BRAND_UPLOAD_LIMIT" });
    expect((await uploadBrandImage(env, actor("calm"), "logo", logo())).ok).toBe(true);
  });

  it("25 logos at once: exactly 20 records and 20 objects, the other 5 get the limit", async () => {
    await addAgency("rush");
    const results = await Promise.all(Array.from({ length: 25 }, (_, i) => uploadBrandImage(env, actor("rush"), "logo", logoNumber(i))));
    const stored = results.filter((r) => r.ok);
    expect(stored).toHaveLength(20);
    expect(results.filter((r) => !r.ok)).toEqual(Array(5).fill({ ok: false, code: "BRAND_UPLOAD_LIMIT" }));
    const names = stored.map((r) => (r.ok ? r.name : "")).sort();
    expect(await recordsOf("rush")).toEqual(names);
    expect((await objectsOf("rush")).sort()).toEqual(names);
    expect((await env.DB.prepare(`SELECT COUNT(*) AS n FROM audit_log WHERE agency_id = 'rush' AND action = 'brand.upload'`).first<{ n: number }>())?.n).toBe(
      20,
    );
  });

  it("the same bytes again store no new image and do not use the budget", async () => {
    await addAgency("same");
    for (let i = 0; i < 19; i++) expect((await uploadBrandImage(env, actor("same"), "logo", logoNumber(i))).ok).toBe(true);
    for (let i = 0; i < 5; i++) expect((await uploadBrandImage(env, actor("same"), "logo", logoNumber(3))).ok).toBe(true);
    expect((await uploadBrandImage(env, actor("same"), "logo", logoNumber(19))).ok).toBe(true);
    expect(await uploadBrandImage(env, actor("same"), "logo", logoNumber(20))).toEqual({ ok: false, code: "BRAND_UPLOAD_LIMIT" });
    expect(await objectsOf("same")).toHaveLength(20);
  });

  it("an upload whose object could not be stored leaves a record no page uses, deleted by the hourly job; the slot is unchanged", async () => {
    await addAgency("broken");
    const kept = await uploadBrandImage(env, actor("broken"), "logo", logoNumber(0));
    if (!kept.ok) throw new Error("upload refused");
    const failing = { ...env, BRAND_ASSETS: { ...env.BRAND_ASSETS, put: () => Promise.reject(new Error("R2 down")) } } as unknown as Env;
    await expect(uploadBrandImage(failing, actor("broken"), "logo", logoNumber(1))).rejects.toThrow("R2 down");
    expect(await env.DB.prepare(`SELECT logo_name FROM agency_brand WHERE agency_id = 'broken'`).first()).toEqual({ logo_name: kept.name });
    expect(await objectsOf("broken")).toEqual([kept.name]);
    expect(await recordsOf("broken")).toHaveLength(2);
    const t0 = Date.now();
    await hourlyJob(t0);
    await hourlyJob(t0 + 30 * DAY + 3600_000);
    expect(await recordsOf("broken")).toEqual([kept.name]);
  });

  it("a refused file does not use the budget", async () => {
    await addAgency("refusals");
    for (let i = 0; i < 25; i++)
      expect((await uploadBrandImage(env, actor("refusals"), "logo", file(IMAGES.demoHero, "image/jpeg", "big.jpg"))).ok).toBe(false);
    expect((await uploadBrandImage(env, actor("refusals"), "logo", logo())).ok).toBe(true);
  });
});

describe("images no page refers to", () => {
  it("are deleted by the hourly job 30 days after the last page stopped referring to them; current ones stay", async () => {
    const a = actor("sweep");
    const first = await uploadBrandImage(env, a, "logo", logo());
    const second = await uploadBrandImage(env, a, "logo", file(IMAGES.otherLogo, "image/png", "other.png")); // replaces the first
    const used = await uploadPromotionBanner(env, a, file(IMAGES.wideWebp, "image/webp", "used.webp"));
    const unused = await uploadPromotionBanner(env, a, file(IMAGES.lossy, "image/webp", "unused.webp")); // the promotion form was never saved
    if (!first.ok || !second.ok || !used.ok || !unused.ok) throw new Error("uploads refused");
    await env.DB.prepare(
      `INSERT INTO promotions (id, agency_id, status, title, description, image_url, bonus_kind, bonus_value, turnover_multiple, providers, sort_order)
       VALUES ('promo-sweep', 'sweep', 'INACTIVE', '{"lo":"x"}', '{"lo":"x"}', ?1, 'FIXED', '5', '0', '["gclub"]', 0)`,
    )
      .bind(JSON.stringify({ lo: "https://example.com/x.webp", cn: used.url }))
      .run();
    const all = [first.name, second.name, used.name, unused.name].sort();
    expect(await recordsOf("sweep")).toEqual(all);

    const t0 = Date.now();
    await hourlyJob(t0);
    await hourlyJob(t0 + 29 * DAY);
    expect((await objectsOf("sweep")).sort()).toEqual(all);
    await hourlyJob(t0 + 30 * DAY + 3600_000);
    const kept = [second.name, used.name].sort();
    expect((await objectsOf("sweep")).sort()).toEqual(kept);
    expect(await recordsOf("sweep")).toEqual(kept);
    // the current logo is still served
    expect((await env.BRAND_ASSETS.get(`agencies/sweep/${second.name}`)) !== null).toBe(true);
  });

  it("an image referred to again before its 30 days is kept (the clock starts over when it is dropped again)", async () => {
    await addAgency("again");
    const a = actor("again");
    const first = await uploadBrandImage(env, a, "logo", logo());
    const second = await uploadBrandImage(env, a, "logo", file(IMAGES.otherLogo, "image/png", "other.png"));
    if (!first.ok || !second.ok) throw new Error("uploads refused");
    const t0 = Date.now();
    await hourlyJob(t0); // the first logo is unreferenced from here
    await uploadBrandImage(env, a, "logo", logo()); // the same bytes again: the first is the current logo once more
    await hourlyJob(t0 + 20 * DAY);
    await uploadBrandImage(env, a, "logo", file(IMAGES.otherLogo, "image/png", "other.png"));
    await hourlyJob(t0 + 31 * DAY); // the first logo is unreferenced again from here
    expect((await objectsOf("again")).sort()).toEqual([first.name, second.name].sort());
    await hourlyJob(t0 + 51 * DAY);
    expect((await objectsOf("again")).sort()).toEqual([first.name, second.name].sort());
    await hourlyJob(t0 + 62 * DAY);
    expect(await objectsOf("again")).toEqual([second.name]);
  });
});

describe("brand texts follow the name rule", () => {
  const texts = (siteName: string): BrandSettingsInput => ({
    siteName: { lo: siteName, cn: null, vn: null },
    heroTitle: { lo: null, cn: null, vn: null },
    heroSubtitle: { lo: null, cn: null, vn: null },
    colors: { primary: "#7a1f2b", primaryText: "#ffffff", accent: "#f5b301", accentText: "#111827" },
  });

  it("refuses U+202E (right-to-left override) like a player name, and saves nothing", async () => {
    expect(await saveBrandSettings(env, actor("texts"), texts("Play\u202Egnp.exe"))).toEqual({ ok: false, code: "BRAND_TEXT_CHARACTERS", field: "siteNameLo" });
    expect(await env.DB.prepare(`SELECT site_name_lo FROM agency_brand WHERE agency_id = 'texts'`).first()).toBeNull();
  });

  it("removes zero-width characters and stores NFC, as for names", async () => {
    expect(await saveBrandSettings(env, actor("texts"), texts(" ຈຳ\u200Bປາ Vie\u0323\u0302t "))).toEqual({ ok: true });
    expect(await env.DB.prepare(`SELECT site_name_lo AS s FROM agency_brand WHERE agency_id = 'texts'`).first<{ s: string }>()).toEqual({
      s: "ຈຳປາ Vi\u1EC7t",
    });
  });
});
