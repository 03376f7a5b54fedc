import type { Plugin } from "vite";

/**
 * jsQR carries a Shift_JIS table (about 7000 pairs) to decode a QR's Kanji mode: 36 KB of the
 * Worker's 46 KB gzip of jsQR, the largest single piece of the upload. The portal reads only LAO
 * QR codes (EMVCo: numeric, alphanumeric and byte modes; a bank never writes Kanji mode), so the
 * table is replaced by an empty one when jsQR is bundled. A Kanji segment then reads as NULs,
 * which the LAO QR parser and its CRC refuse like any unreadable picture. If a jsQR release moves
 * the table, the build stops here rather than ship it silently (decision 092).
 */
const TABLE = /exports\.shiftJISTable = \{[^}]*\};/;

export function withoutKanjiTable(code: string): string {
  if (!TABLE.test(code)) throw new Error("jsQR's Shift_JIS table was not found where vite-plugins/jsqr-without-kanji.ts expects it");
  return code.replace(TABLE, "exports.shiftJISTable = {};");
}

export function jsqrWithoutKanji(): Plugin {
  return {
    name: "portal:jsqr-without-kanji",
    enforce: "pre",
    transform(code, id) {
      if (!/[\\/]node_modules[\\/]jsqr[\\/]dist[\\/]jsQR\.js$/.test(id.split("?")[0]!)) return null;
      return { code: withoutKanjiTable(code), map: null };
    },
  };
}
