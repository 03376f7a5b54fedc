import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import QRCode from "qrcode";
import { describe, expect, it } from "vitest";
import { withoutKanjiTable } from "../../vite-plugins/jsqr-without-kanji";

// The bundled jsQR without its Shift_JIS table (decision 092): the table is gone, and a LAO QR
// still reads exactly as with the package as published.

const require = createRequire(import.meta.url);
const source = readFileSync(require.resolve("jsqr/dist/jsQR.js"), "utf8");
type JsQr = (data: Uint8ClampedArray, width: number, height: number) => { data: string } | null;

/** jsQR evaluated from its source as a CommonJS module. */
function load(code: string): JsQr {
  const module = { exports: {} as { default?: JsQr } };
  new Function("module", "exports", code)(module, module.exports);
  return (module.exports.default ?? module.exports) as JsQr;
}

/** A QR drawn black on white, 4 pixels a module, with its quiet zone, as RGBA. */
function picture(text: string) {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: "M" });
  const scale = 4;
  const size = (modules.size + 8) * scale;
  const rgba = new Uint8ClampedArray(size * size * 4).fill(255);
  for (let y = 0; y < modules.size; y++)
    for (let x = 0; x < modules.size; x++) {
      if (!modules.get(y, x)) continue;
      for (let dy = 0; dy < scale; dy++)
        for (let dx = 0; dx < scale; dx++) {
          const at = (((y + 4) * scale + dy) * size + (x + 4) * scale + dx) * 4;
          rgba.fill(0, at, at + 3);
        }
    }
  return { rgba, size };
}

describe("jsQR bundled without its Kanji table", () => {
  const patched = withoutKanjiTable(source);

  it("drops the table: the bundled source is over 100 KB smaller", () => {
    expect(source.length - patched.length).toBeGreaterThan(100_000);
    expect(patched).toContain("exports.shiftJISTable = {};");
  });

  it("reads a LAO QR (with a Lao account name in byte mode) exactly as the published package does", () => {
    const payload = "00020101021138670016A00526628466257701082771041802030010324LAO0001020304050607080910530341854070000.005802LA5910ສົມໃຈ ແກ້ວ6009Vientiane6304";
    const { rgba, size } = picture(payload);
    const published = load(source)(rgba, size, size);
    expect(published?.data).toBe(payload);
    expect(load(patched)(rgba, size, size)?.data).toBe(payload);
  });

  it("stops the build when a jsQR release moves the table", () => {
    expect(() => withoutKanjiTable("module.exports = {}")).toThrow(/Shift_JIS table was not found/);
  });
});
