// The seeded brands (decision 018): the demo agency and the four e2e agencies each look like
// themselves (name, colours, logo, icon, hero, phone hero). Used by scripts/seed.mjs and seed-e2e.mjs;
// the images are drawn by scripts/brand-images.mjs (phone heroes: render-demo-images.mjs) into scripts/brand/. Also the R2 and
// SQL steps agency:create uses for --logo (scripts/create-agency.mjs).
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { stateDir } from "./local-dirs.mjs";
import { loadBrandRules } from "./brand-rules.mjs";
import { q } from "./agency-sql.mjs";

const text = (lo, cn, vn) => ({ lo, cn, vn });

export const SEED_BRANDS = [
  {
    agencyId: "demo",
    mark: "CHAMPA",
    siteName: text("ຈຳປາ ເພຍ", "占巴游戏", "Champa Play"),
    heroTitle: text("ຍິນດີຕ້ອນຮັບສູ່ ຈຳປາ ເພຍ", "欢迎来到占巴游戏", "Chào mừng đến Champa Play"),
    heroSubtitle: text("ຝາກ ແລະ ຖອນ ໄວ ດ້ວຍ LAO QR", "LAO QR 快速存取款", "Nạp rút nhanh bằng LAO QR"),
    colors: { primary: "#7a1f2b", primaryText: "#ffffff", accent: "#f5b301", accentText: "#111827" },
  },
  {
    agencyId: "e2e-phone-js",
    mark: "MEKONG",
    siteName: text("ແມ່ຂອງ ເບັດ", "湄公游戏", "Mekong Bet"),
    heroTitle: text("ແມ່ຂອງ ເບັດ", "湄公游戏", "Mekong Bet"),
    heroSubtitle: text("ເກມ ແລະ ໂປຣໂມຊັນ ທຸກມື້", "每天的游戏和优惠", "Trò chơi và khuyến mãi mỗi ngày"),
    colors: { primary: "#0f4c81", primaryText: "#ffffff", accent: "#ffb000", accentText: "#111827" },
  },
  {
    agencyId: "e2e-phone-nojs",
    mark: "NAGA",
    siteName: text("ນາຄາ ຄລັບ", "那伽俱乐部", "Naga Club"),
    heroTitle: text("ນາຄາ ຄລັບ", "那伽俱乐部", "Naga Club"),
    heroSubtitle: text("ຫຼິ້ນງ່າຍ ຖອນໄວ", "玩得轻松，取款快速", "Chơi dễ, rút nhanh"),
    colors: { primary: "#14532d", primaryText: "#ffffff", accent: "#fde047", accentText: "#14532d" },
  },
  {
    agencyId: "e2e-desktop-js",
    mark: "LANXANG",
    siteName: text("ລ້ານຊ້າງ 88", "澜沧88", "Lanxang 88"),
    heroTitle: text("ລ້ານຊ້າງ 88", "澜沧88", "Lanxang 88"),
    heroSubtitle: text("ໂບນັດ ສຳລັບ ສະມາຊິກ ໃໝ່", "新会员奖金", "Thưởng cho thành viên mới"),
    colors: { primary: "#4c1d95", primaryText: "#ffffff", accent: "#f97316", accentText: "#111827" },
  },
  {
    agencyId: "e2e-desktop-nojs",
    mark: "VTE WIN",
    siteName: text("ວຽງຈັນ ວິນ", "万象赢", "Vientiane Win"),
    heroTitle: text("ວຽງຈັນ ວິນ", "万象赢", "Vientiane Win"),
    heroSubtitle: text("ຄາສິໂນ ແລະ ສະລັອດ", "娱乐场和老虎机", "Casino và slot"),
    colors: { primary: "#9a3412", primaryText: "#ffffff", accent: "#22d3ee", accentText: "#0f172a" },
  },
];

/** The bucket of BRAND_ASSETS in wrangler.toml: top level for "local", else [env.<name>]'s. */
export function brandBucketName(env = "local") {
  const toml = readFileSync(new URL("../wrangler.toml", import.meta.url), "utf8");
  const header = env === "local" ? "[[r2_buckets]]" : `[[env.${env}.r2_buckets]]`;
  const at = toml.indexOf(header);
  const block = at < 0 ? "" : toml.slice(at + header.length).split(/\n\[/)[0];
  const name = /binding\s*=\s*"BRAND_ASSETS"[\s\S]*?bucket_name\s*=\s*"([^"]+)"/.exec(block)?.[1];
  if (!name) throw new Error(`no BRAND_ASSETS bucket for env ${env} in wrangler.toml`);
  return name;
}

/**
 * An image file checked for a slot with the rules of workers/core/brand.ts (the service's
 * own): its R2 key, name, type, size. Throws with the refusal code when it does not fit.
 */
export async function brandAsset(agencyId, slot, path, rules) {
  const bytes = new Uint8Array(readFileSync(path));
  const magic = rules.magicType(bytes);
  const checked = rules.checkImage(slot, rules.declaredImageType("", path), bytes);
  if (!checked.ok) throw new Error(`${path}: ${checked.code} for the ${slot} slot (${magic ?? "unknown type"}, ${bytes.length} bytes)`);
  const sha256 = createHash("sha256").update(bytes).digest("hex");
  const name = rules.assetName(slot, sha256, checked.image.type);
  return {
    slot,
    path,
    name,
    key: rules.assetKey(agencyId, name),
    type: checked.image.type,
    bytes: bytes.length,
    width: checked.image.width,
    height: checked.image.height,
    sha256,
  };
}

/** SQL: the asset rows (kept when present) and the brand row pointing at them (ON CONFLICT: set only when missing, or always with `replace`). */
export function brandSql(agencyId, brand, assets, { replace = false } = {}) {
  const rows = assets.map(
    (a) => `INSERT OR IGNORE INTO brand_assets (agency_id, name, slot, content_type, byte_size, width, height, sha256)
VALUES (${q(agencyId)}, ${q(a.name)}, ${q(a.slot)}, ${q(a.type)}, ${a.bytes}, ${a.width}, ${a.height}, ${q(a.sha256)});`,
  );
  const slot = (s) => q(assets.find((a) => a.slot === s)?.name ?? null);
  const t = (x, lng) => q(x?.[lng] ?? null);
  const c = brand.colors ?? {};
  const columns = `agency_id, site_name_lo, site_name_cn, site_name_vn, hero_title_lo, hero_title_cn, hero_title_vn, hero_subtitle_lo, hero_subtitle_cn, hero_subtitle_vn,
  color_primary, color_primary_text, color_accent, color_accent_text, logo_name, icon_name, hero_name, hero_phone_name`;
  const values = [
    q(agencyId),
    ...["lo", "cn", "vn"].map((l) => t(brand.siteName, l)),
    ...["lo", "cn", "vn"].map((l) => t(brand.heroTitle, l)),
    ...["lo", "cn", "vn"].map((l) => t(brand.heroSubtitle, l)),
    q(c.primary ?? null),
    q(c.primaryText ?? null),
    q(c.accent ?? null),
    q(c.accentText ?? null),
    slot("logo"),
    slot("icon"),
    slot("hero"),
    slot("heroPhone"),
  ].join(", ");
  rows.push(`INSERT ${replace ? "OR REPLACE" : "OR IGNORE"} INTO agency_brand (${columns}) VALUES (${values});`);
  // A database seeded before the phone hero existed (decision 038) gets it while the agency
  // still shows the seeded hero: an owner's own choice is left alone.
  if (!replace && slot("heroPhone") !== "NULL") {
    rows.push(
      `UPDATE agency_brand SET hero_phone_name = ${slot("heroPhone")} WHERE agency_id = ${q(agencyId)} AND hero_phone_name IS NULL AND hero_name = ${slot("hero")};`,
    );
  }
  return rows.join("\n");
}

/**
 * Puts the objects into the local BRAND_ASSETS bucket (of stateDir(): .wrangler/state for `npm
 * start`, the e2e server's own folder for it) through wrangler's getPlatformProxy:
 * one workerd for all of them (`wrangler r2 object put` takes seconds per object), and an
 * object already there is left alone (its name is the hash of its bytes).
 */
export async function putLocalBrandObjects(assets) {
  process.env.WRANGLER_LOG ??= "error"; // its notes on the sandbox bindings and Durable Objects are not ours
  const { getPlatformProxy } = await import("wrangler");
  // getPlatformProxy takes the "v3" folder itself, where `--persist-to` takes its parent.
  const proxy = await getPlatformProxy({ configPath: new URL("../wrangler.toml", import.meta.url).pathname, persist: { path: join(stateDir(), "v3") } });
  try {
    for (const a of assets) {
      if (await proxy.env.BRAND_ASSETS.head(a.key)) continue;
      await proxy.env.BRAND_ASSETS.put(a.key, readFileSync(a.path), {
        httpMetadata: { contentType: a.type, cacheControl: "public, max-age=31536000, immutable" },
      });
    }
  } finally {
    await proxy.dispose();
  }
}

/**
 * Puts the objects into the BRAND_ASSETS bucket of an environment with `wrangler r2 object
 * put` (agency:create: remote, or that environment's local state). Overwriting is harmless.
 */
export function putBrandObjects(assets, { env = "local", remote = false, persistTo } = {}) {
  const bucket = brandBucketName(env);
  for (const a of assets) {
    const args = [
      "wrangler",
      "r2",
      "object",
      "put",
      `${bucket}/${a.key}`,
      "--file",
      a.path,
      "--content-type",
      a.type,
      "--cache-control",
      "public, max-age=31536000, immutable",
    ];
    if (env !== "local") args.push("--env", env);
    if (remote) args.push("--remote");
    else {
      args.push("--local");
      if (persistTo) args.push("--persist-to", persistTo);
    }
    execFileSync("npx", args, { stdio: ["ignore", "ignore", "inherit"], env: { ...process.env, CI: "true", WRANGLER_SEND_METRICS: "false" } });
  }
}

/** The seeded brand of one agency: its four images checked and keyed, and its SQL. */
export async function seedBrand(agencyId) {
  const brand = SEED_BRANDS.find((b) => b.agencyId === agencyId);
  if (!brand) throw new Error(`no seed brand for ${agencyId}`);
  const rules = await loadBrandRules();
  const dir = new URL("./brand/", import.meta.url).pathname;
  const assets = [
    await brandAsset(agencyId, "logo", `${dir}${agencyId}-logo.png`, rules),
    await brandAsset(agencyId, "icon", `${dir}${agencyId}-icon.png`, rules),
    await brandAsset(agencyId, "hero", `${dir}${agencyId}-hero.jpg`, rules),
    await brandAsset(agencyId, "heroPhone", `${dir}${agencyId}-hero-phone.webp`, rules),
  ];
  return { assets, sql: brandSql(agencyId, brand, assets) };
}
