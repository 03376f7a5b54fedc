// `npm run render:demo-images`: draws the demo agency's pictures as a real agency's are — raster.
// Operators upload PNG, JPEG, WebP or AVIF banners (workers/core/brand.ts IMAGE_TYPES) and real
// providers serve raster game thumbnails; the demo's were SVG, and Chromium builds a whole page
// (frame, document loader, parser) for every SVG <img>, which made the landing's first seconds
// the busiest of the portal (decision 037). The drawings stay as SVG sources:
//   scripts/demo-images/<promotion>.svg  -> public/promotions/<promotion>.webp (640x240, seed.sql)
//   gameDrawing(code) of the sandbox     -> workers/sandbox/provider/game-pictures.ts (320x240,
//     game-art.ts: scenes that pass for a provider's own game art, decision 082)
//   scripts/brand/<agency>-hero.jpg       -> scripts/brand/<agency>-hero-phone.webp (720 px wide:
//     the seeded brands' phone heroes, decision 038; what an operator's mobile banner is)
// Rendered by Debian's Chromium (canvas -> WebP); run again after changing a drawing or the
// sandbox's catalogue, and commit what it writes. Needs Node 24 (the npm script's `node`).
import { chromium } from "playwright-core";
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
// with their extension: Node strips the types but resolves paths as written
import { catalogueGames } from "../workers/sandbox/provider/games.ts";
import { gameDrawing } from "../workers/sandbox/provider/game-art.ts";

/** WebP quality: flat colours and large letters; 0.7 keeps the edges clean at a third of 0.9's bytes. */
const QUALITY = 0.7;
/**
 * The game pictures' quality: smooth gradients and flat shapes, shown at about half size on
 * a phone. 0.3 shows no artefact there and makes them 3.5 KB on average (0.5: 4.6 KB), which
 * keeps a lobby's first screen within the player page's budget (decision 082).
 */
const GAME_QUALITY = 0.3;
const SOURCES = "scripts/demo-images";
const PROMOTIONS = "public/promotions";
const GAME_MODULE = "workers/sandbox/provider/game-pictures.ts";
const BRANDS = "scripts/brand";
/** A 360-px phone at twice its pixels. */
const PHONE_HERO_WIDTH = 720;

/**
 * A WebP without the sRGB colour profile Chromium's encoder adds (an ICCP chunk of about 470
 * bytes, a tenth of a game picture): browsers take an untagged picture as sRGB anyway. The
 * chunk goes, and the VP8X header's ICC flag with it.
 * @param {Buffer} webp
 */
function withoutColourProfile(webp) {
  if (webp.toString("ascii", 0, 4) !== "RIFF" || webp.toString("ascii", 8, 12) !== "WEBP") return webp;
  const chunks = [];
  for (let at = 12; at + 8 <= webp.length; ) {
    const size = webp.readUInt32LE(at + 4);
    const end = at + 8 + size + (size % 2);
    const chunk = Buffer.from(webp.subarray(at, end));
    const type = chunk.toString("ascii", 0, 4);
    if (type === "VP8X") chunk[8] &= ~0x20;
    if (type !== "ICCP") chunks.push(chunk);
    at = end;
  }
  const body = Buffer.concat(chunks);
  const header = Buffer.alloc(12);
  header.write("RIFF", 0, "ascii");
  header.writeUInt32LE(body.length + 4, 4);
  header.write("WEBP", 8, "ascii");
  return Buffer.concat([header, body]);
}

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium" });
try {
  const page = await browser.newPage();
  /** A picture (as a data: URL) drawn into a canvas `width` wide (its own width by default), as WebP. */
  const dataUrlToWebp = async (src, width, quality = QUALITY) => {
    const base64 = await page.evaluate(
      async ({ src, width, quality }) => {
        const img = new Image();
        img.src = src;
        await img.decode();
        const canvas = document.createElement("canvas");
        canvas.width = width ?? img.naturalWidth;
        canvas.height = Math.round((canvas.width * img.naturalHeight) / img.naturalWidth);
        const context = canvas.getContext("2d");
        context.imageSmoothingQuality = "high";
        context.drawImage(img, 0, 0, canvas.width, canvas.height);
        return canvas.toDataURL("image/webp", quality).split(",")[1];
      },
      { src, width, quality },
    );
    return Buffer.from(base64, "base64");
  };
  /** @param {string} svg */
  const toWebp = (svg, quality = QUALITY) => dataUrlToWebp(`data:image/svg+xml;base64,${Buffer.from(svg, "utf8").toString("base64")}`, undefined, quality);

  for (const file of readdirSync(SOURCES)
    .filter((f) => f.endsWith(".svg"))
    .sort()) {
    const out = join(PROMOTIONS, `${basename(file, ".svg")}.webp`);
    const webp = await toWebp(readFileSync(join(SOURCES, file), "utf8"));
    writeFileSync(out, webp);
    console.log(`${out}: ${webp.length} bytes`);
  }

  for (const file of readdirSync(BRANDS)
    .filter((f) => f.endsWith("-hero.jpg"))
    .sort()) {
    const out = join(BRANDS, file.replace(/-hero\.jpg$/, "-hero-phone.webp"));
    const webp = await dataUrlToWebp(`data:image/jpeg;base64,${readFileSync(join(BRANDS, file)).toString("base64")}`, PHONE_HERO_WIDTH);
    writeFileSync(out, webp);
    console.log(`${out}: ${webp.length} bytes`);
  }

  const entries = [];
  for (const game of catalogueGames()) {
    const { code } = game;
    const drawing = gameDrawing(game);
    if (!drawing) throw new Error(`no drawing for ${code}`);
    const webp = withoutColourProfile(await toWebp(drawing, GAME_QUALITY));
    entries.push(`  "${code}": "${webp.toString("base64")}",`);
    console.log(`${code}: ${webp.length} bytes`);
  }
  writeFileSync(
    GAME_MODULE,
    [
      "// Generated by scripts/render-demo-images.mjs from gameDrawing() in games.ts: do not edit.",
      "// One WebP picture (320x240, base64) per game of the sandbox's catalogue (decision 037).",
      "export const GAME_PICTURES: Readonly<Record<string, string>> = {",
      ...entries,
      "};",
      "",
    ].join("\n"),
  );
  // as the repository formats it (npm run format:check), so a run changes only the pictures
  execFileSync("npx", ["biome", "format", "--write", GAME_MODULE], { stdio: "inherit" });
  console.log(`${GAME_MODULE}: ${entries.length} pictures`);
} finally {
  await browser.close();
}
