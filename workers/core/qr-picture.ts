/**
 * The deposit QR as a picture a bank app's "scan from gallery" reads (decision 080): the QR's
 * own modules drawn at least QR_PICTURE_MIN_WIDTH pixels wide with a quiet zone of
 * QUIET_ZONE_MODULES, and under it a few short lines (the amount, a clock and the time the
 * order expires) in a 5 x 7 bitmap font. Pure: the caller hands the modules (the `qrcode`
 * package's matrix) and encodes the pixels as PNG (core/png.ts), so this runs in the Worker, in
 * the browser and in a unit test alike.
 *
 * Grey pixels, one byte each (0 black, 255 white; `oneBitRows` packs them for the PNG): a QR
 * needs no colour.
 */

/** A QR's modules: `size` x `size`, dark or light (row, column). */
export type QrModules = { size: number; isDark: (row: number, col: number) => boolean };

export type GreyPicture = { width: number; height: number; pixels: Uint8Array };

/** Narrower pictures lose modules to a phone gallery's downscaling; 600 px reads from any of them. */
export const QR_PICTURE_MIN_WIDTH = 600;
/** The white margin the QR standard asks for around the code, in modules. */
export const QUIET_ZONE_MODULES = 4;
/** Stands for the clock drawn before the expiry time: the words "valid until" exist in no bitmap font for Lao and Chinese. */
export const CLOCK = "⏰";

const GLYPH_ROWS = 7;
/** The largest text scale (a 7-row glyph becomes 56 px tall): big enough to read on a phone's gallery thumbnail. */
const MAX_TEXT_SCALE = 8;

/** The characters an amount ("₭500.123") and a time ("14:30") need, and the clock; anything else is drawn as a space. */
const GLYPHS: Record<string, readonly string[]> = {
  "0": ["01110", "10001", "10011", "10101", "11001", "10001", "01110"],
  "1": ["00100", "01100", "00100", "00100", "00100", "00100", "01110"],
  "2": ["01110", "10001", "00001", "00010", "00100", "01000", "11111"],
  "3": ["11111", "00010", "00100", "00010", "00001", "10001", "01110"],
  "4": ["00010", "00110", "01010", "10010", "11111", "00010", "00010"],
  "5": ["11111", "10000", "11110", "00001", "00001", "10001", "01110"],
  "6": ["00110", "01000", "10000", "11110", "10001", "10001", "01110"],
  "7": ["11111", "00001", "00010", "00100", "01000", "01000", "01000"],
  "8": ["01110", "10001", "10001", "01110", "10001", "10001", "01110"],
  "9": ["01110", "10001", "10001", "01111", "00001", "00010", "01100"],
  ".": ["00", "00", "00", "00", "00", "11", "11"],
  ",": ["00", "00", "00", "00", "11", "01", "10"],
  ":": ["00", "11", "11", "00", "11", "11", "00"],
  "₭": ["10001", "10010", "10100", "11111", "10100", "10010", "10001"],
  " ": ["000", "000", "000", "000", "000", "000", "000"],
  [CLOCK]: ["0011100", "0100010", "1001001", "1001001", "1000101", "0100010", "0011100"],
};

const glyphOf = (char: string) => GLYPHS[char] ?? GLYPHS[" "];

/** A line's width in font units: each glyph plus one column between glyphs. */
function lineUnits(line: string): number {
  const chars = [...line];
  return chars.reduce((sum, c) => sum + glyphOf(c)[0].length, 0) + Math.max(0, chars.length - 1);
}

/** Pixels per module: the smallest whole number that makes the picture at least QR_PICTURE_MIN_WIDTH wide. */
export function modulePixels(size: number): number {
  return Math.ceil(QR_PICTURE_MIN_WIDTH / (size + 2 * QUIET_ZONE_MODULES));
}

/**
 * Draws the QR (with its quiet zone) and `lines` centred under it, each at the largest scale
 * (up to MAX_TEXT_SCALE) at which the longest line fits the width. The text starts below the
 * quiet zone, never inside it.
 */
export function drawQrPicture(qr: QrModules, lines: readonly string[]): GreyPicture {
  const m = modulePixels(qr.size);
  const width = (qr.size + 2 * QUIET_ZONE_MODULES) * m;
  const margin = QUIET_ZONE_MODULES * m;
  const widest = Math.max(1, ...lines.map(lineUnits));
  const scale = Math.max(1, Math.min(MAX_TEXT_SCALE, Math.floor((width - 2 * margin) / widest)));
  const lineHeight = GLYPH_ROWS * scale;
  const gap = 3 * scale;
  const textHeight = lines.length ? lines.length * lineHeight + (lines.length - 1) * gap + margin : 0;
  const height = width + textHeight;
  const pixels = new Uint8Array(width * height).fill(255);
  const fill = (x: number, y: number, w: number, h: number) => {
    for (let row = y; row < y + h; row++) pixels.fill(0, row * width + x, row * width + x + w);
  };

  for (let r = 0; r < qr.size; r++) {
    for (let c = 0; c < qr.size; c++) if (qr.isDark(r, c)) fill(margin + c * m, margin + r * m, m, m);
  }
  lines.forEach((line, i) => {
    let x = Math.floor((width - lineUnits(line) * scale) / 2);
    const y = width + i * (lineHeight + gap);
    for (const char of line) {
      const glyph = glyphOf(char);
      glyph.forEach((bits, row) => {
        for (let col = 0; col < bits.length; col++) if (bits[col] === "1") fill(x + col * scale, y + row * scale, scale, scale);
      });
      x += (glyph[0].length + 1) * scale;
    }
  });
  return { width, height, pixels };
}

/**
 * The picture as PNG's 1-bit grey rows (8 pixels a byte, the first in the high bit, 1 = white,
 * each row padded to a whole byte). Black and white need no more: against 8-bit grey the file
 * is a tenth (1.5 KB instead of 18 KB) and deflating it in the Worker a seventh of the CPU.
 */
export function oneBitRows({ width, height, pixels }: GreyPicture): Uint8Array {
  const rowBytes = Math.ceil(width / 8);
  const rows = new Uint8Array(rowBytes * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) if (pixels[y * width + x] >= 128) rows[y * rowBytes + (x >> 3)] |= 0x80 >> (x & 7);
  }
  return rows;
}
