// Draws the seed brands' images (scripts/brand/*): a logo, an app icon and a hero per seeded
// agency (the demo agency and the four e2e agencies, scripts/seed.mjs and seed-e2e.mjs), as
// small real PNG and JPEG files within the slot limits of workers/core/brand.ts. The files
// are committed; run `node scripts/brand-images.mjs` only to draw them again.
import { writeFileSync } from "node:fs";
import { encode as encodePng } from "fast-png";
import jpeg from "jpeg-js";
import { SEED_BRANDS } from "./brand-seed.mjs";

// A 5x7 bitmap font, just the letters the seed names use.
const FONT = {
  A: ["01110", "10001", "10001", "11111", "10001", "10001", "10001"],
  C: ["01111", "10000", "10000", "10000", "10000", "10000", "01111"],
  E: ["11111", "10000", "10000", "11110", "10000", "10000", "11111"],
  G: ["01111", "10000", "10000", "10011", "10001", "10001", "01111"],
  H: ["10001", "10001", "10001", "11111", "10001", "10001", "10001"],
  I: ["11111", "00100", "00100", "00100", "00100", "00100", "11111"],
  K: ["10001", "10010", "10100", "11000", "10100", "10010", "10001"],
  L: ["10000", "10000", "10000", "10000", "10000", "10000", "11111"],
  M: ["10001", "11011", "10101", "10101", "10001", "10001", "10001"],
  N: ["10001", "11001", "10101", "10011", "10001", "10001", "10001"],
  O: ["01110", "10001", "10001", "10001", "10001", "10001", "01110"],
  P: ["11110", "10001", "10001", "11110", "10000", "10000", "10000"],
  T: ["11111", "00100", "00100", "00100", "00100", "00100", "00100"],
  V: ["10001", "10001", "10001", "10001", "10001", "01010", "00100"],
  W: ["10001", "10001", "10001", "10101", "10101", "11011", "10001"],
  X: ["10001", "10001", "01010", "00100", "01010", "10001", "10001"],
  8: ["01110", "10001", "10001", "01110", "10001", "10001", "01110"],
  " ": ["00000", "00000", "00000", "00000", "00000", "00000", "00000"],
};

const rgb = (hex) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));

function canvas(width, height, channels) {
  const data = new Uint8Array(width * height * channels);
  const set = (x, y, [r, g, b], a = 255) => {
    if (x < 0 || y < 0 || x >= width || y >= height) return;
    const i = (y * width + x) * channels;
    data[i] = r;
    data[i + 1] = g;
    data[i + 2] = b;
    if (channels === 4) data[i + 3] = a;
  };
  const rect = (x0, y0, w, h, colour) => {
    for (let y = y0; y < y0 + h; y++) for (let x = x0; x < x0 + w; x++) set(x, y, colour);
  };
  const text = (s, x0, y0, scale, colour) => {
    [...s].forEach((ch, n) => {
      (FONT[ch] ?? FONT[" "]).forEach((row, y) => {
        [...row].forEach((bit, x) => {
          if (bit === "1") rect(x0 + (n * 6 + x) * scale, y0 + y * scale, scale, scale, colour);
        });
      });
    });
  };
  const textWidth = (s, scale) => (s.length * 6 - 1) * scale;
  return { data, set, rect, text, textWidth };
}

for (const brand of SEED_BRANDS) {
  const primary = rgb(brand.colors.primary);
  const onPrimary = rgb(brand.colors.primaryText);
  const accent = rgb(brand.colors.accent);

  // Logo: transparent, a badge in the accent colour and the mark in the text-on-primary colour
  // (the navbar is the primary colour), 240x64.
  const logo = canvas(240, 64, 4);
  logo.rect(0, 8, 48, 48, accent);
  logo.text(brand.mark[0], 14, 18, 4, rgb(brand.colors.accentText));
  logo.text(brand.mark, 60, 18, 4, onPrimary);
  writeFileSync(`scripts/brand/${brand.agencyId}-logo.png`, encodePng({ width: 240, height: 64, data: logo.data, channels: 4, depth: 8 }));

  // Icon: 192x192, primary with the first letter on an accent square.
  const icon = canvas(192, 192, 3);
  icon.rect(0, 0, 192, 192, primary);
  icon.rect(36, 36, 120, 120, accent);
  icon.text(brand.mark[0], 66, 54, 12, rgb(brand.colors.accentText));
  writeFileSync(`scripts/brand/${brand.agencyId}-icon.png`, encodePng({ width: 192, height: 192, data: icon.data, channels: 3, depth: 8 }));

  // Hero: 1200x400 JPEG, a diagonal gradient from the primary colour to the accent with the name.
  const W = 1200;
  const H = 400;
  const hero = canvas(W, H, 4);
  for (let y = 0; y < H; y++)
    for (let x = 0; x < W; x++) {
      const t = Math.min(1, (x + y * 1.5) / (W + H * 1.5));
      hero.set(
        x,
        y,
        primary.map((p, i) => Math.round(p + (accent[i] - p) * t * 0.6)),
      );
    }
  hero.text(brand.mark, Math.round((W - hero.textWidth(brand.mark, 12)) / 2), 158, 12, onPrimary);
  writeFileSync(`scripts/brand/${brand.agencyId}-hero.jpg`, jpeg.encode({ width: W, height: H, data: hero.data }, 40).data);
}
console.log(`drew ${SEED_BRANDS.length} brands into scripts/brand/`);
