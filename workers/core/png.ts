/**
 * PNG with the platform's own deflate and inflate (`CompressionStream`, `DecompressionStream`,
 * in the Worker and in Node): a black-and-white picture written (the saved deposit QR, decision
 * 080) and an uploaded picture read (readPng below, decision 094). fast-png's writer and reader
 * brought their own deflate and inflate, about 6 and 7 KiB of the Worker's gzip budget.
 * PNG: https://www.w3.org/TR/png-3/ (signature, IHDR, IDAT with a zlib stream, IEND; each
 * row of a 1-bit grey picture preceded by its filter byte, 0 = none).
 */
const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** CRC-32 (ISO 3309, the polynomial PNG names), over a chunk's type and data. */
const CRC_TABLE = /* @__PURE__ */ (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** One chunk: length, type, data, CRC of type and data. */
function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  for (let i = 0; i < 4; i++) out[4 + i] = type.charCodeAt(i);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

async function zlib(bytes: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([bytes as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new CompressionStream("deflate"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/**
 * `rows`: the picture's 1-bit rows, 8 pixels a byte, the first in the high bit, 1 = white,
 * each row padded to a whole byte (core/qr-picture.ts `oneBitRows`).
 */
export async function oneBitPng(width: number, height: number, rows: Uint8Array): Promise<Uint8Array<ArrayBuffer>> {
  const rowBytes = Math.ceil(width / 8);
  if (rows.length !== rowBytes * height) throw new Error(`${rows.length} bytes are not ${height} rows of ${rowBytes}`);
  const filtered = new Uint8Array((rowBytes + 1) * height);
  for (let y = 0; y < height; y++) filtered.set(rows.subarray(y * rowBytes, (y + 1) * rowBytes), y * (rowBytes + 1) + 1);
  const header = new Uint8Array(13);
  const view = new DataView(header.buffer);
  view.setUint32(0, width);
  view.setUint32(4, height);
  header.set([1, 0, 0, 0, 0], 8); // bit depth 1, colour type 0 (grey), deflate, adaptive filtering, no interlace
  const parts = [Uint8Array.from(SIGNATURE), chunk("IHDR", header), chunk("IDAT", await zlib(filtered)), chunk("IEND", new Uint8Array(0))];
  const png = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    png.set(part, at);
    at += part.length;
  }
  return png;
}

// ---- reading ------------------------------------------------------------------------------

/** Pixels as jsQR reads them: 4 bytes a pixel, red, green, blue, alpha. */
export type RgbaPicture = { width: number; height: number; data: Uint8ClampedArray };

/** Channels per pixel of each colour type (PNG 3, 11.2.2): grey, RGB, palette index, grey + alpha, RGBA. */
const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };
/** Adam7's seven passes: first column, first row, column step, row step. */
const ADAM7 = [
  [0, 0, 8, 8],
  [4, 0, 8, 8],
  [0, 4, 4, 8],
  [2, 0, 4, 4],
  [0, 2, 2, 4],
  [1, 0, 2, 2],
  [0, 1, 1, 2],
] as const;

export function hasPngSignature(bytes: Uint8Array): boolean {
  return bytes.length >= 8 && SIGNATURE.every((b, i) => bytes[i] === b);
}

/** The zlib stream (in its IDAT parts) inflated by the platform (`DecompressionStream`, in the Worker and in Node). */
async function inflate(parts: readonly Uint8Array[]): Promise<Uint8Array> {
  const stream = new Blob(parts as Uint8Array<ArrayBuffer>[]).stream().pipeThrough(new DecompressionStream("deflate"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** PNG 3, 9.4: the Paeth predictor. */
function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/**
 * An uploaded PNG's pixels (an uploaded QR picture, decision 094): the chunks read, the IDAT
 * stream inflated by the platform, each row's filter undone, every colour type and bit depth
 * (interlaced ones too) turned into RGBA; a palette's transparency kept. Null when it is not a
 * PNG this reads (a damaged file, a depth the standard does not allow). Replaces fast-png and the
 * deflate it brought (about 7 KiB of the Worker's gzip, decision 094).
 */
export async function readPng(bytes: Uint8Array): Promise<RgbaPicture | null> {
  if (!hasPngSignature(bytes)) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let width = 0;
  let height = 0;
  let depth = 0;
  let colour = 0;
  let interlace = 0;
  let palette: Uint8Array | null = null;
  let alphas: Uint8Array | null = null;
  const idat: Uint8Array[] = [];
  for (let at = 8; at + 8 <= bytes.length; ) {
    const length = view.getUint32(at);
    const type = String.fromCharCode(...bytes.subarray(at + 4, at + 8));
    const data = bytes.subarray(at + 8, at + 8 + length);
    if (data.length !== length) return null;
    if (type === "IHDR") {
      width = view.getUint32(at + 8);
      height = view.getUint32(at + 12);
      depth = data[8]!;
      colour = data[9]!;
      interlace = data[12]!;
    } else if (type === "PLTE") palette = data;
    else if (type === "tRNS") alphas = data;
    else if (type === "IDAT") idat.push(data);
    else if (type === "IEND") break;
    at += 12 + length;
  }
  const channels = CHANNELS[colour];
  if (!channels || width === 0 || height === 0 || ![1, 2, 4, 8, 16].includes(depth) || (colour === 3 && !palette)) return null;
  let raw: Uint8Array;
  try {
    raw = await inflate(idat);
  } catch {
    return null;
  }
  const out = new Uint8ClampedArray(width * height * 4);
  const bitsPerPixel = channels * depth;
  const bpp = Math.max(1, bitsPerPixel >> 3);
  const max = (1 << Math.min(depth, 8)) - 1;
  let offset = 0;
  for (const [x0, y0, dx, dy] of interlace === 1 ? ADAM7 : ([[0, 0, 1, 1]] as const)) {
    const passWidth = Math.ceil((width - x0) / dx);
    const passHeight = Math.ceil((height - y0) / dy);
    if (passWidth <= 0 || passHeight <= 0) continue;
    const rowBytes = Math.ceil((passWidth * bitsPerPixel) / 8);
    let previous = new Uint8Array(rowBytes);
    for (let y = 0; y < passHeight; y++) {
      if (offset + 1 + rowBytes > raw.length) return null;
      const filter = raw[offset]!;
      const row = raw.slice(offset + 1, offset + 1 + rowBytes);
      offset += 1 + rowBytes;
      for (let i = 0; i < rowBytes; i++) {
        const a = i >= bpp ? row[i - bpp]! : 0;
        const b = previous[i]!;
        const c = i >= bpp ? previous[i - bpp]! : 0;
        row[i] = (row[i]! + (filter === 1 ? a : filter === 2 ? b : filter === 3 ? (a + b) >> 1 : filter === 4 ? paeth(a, b, c) : 0)) & 0xff;
      }
      previous = row;
      // one sample of this row: 16-bit samples by their high byte, smaller ones scaled to 0..255 (palette indexes left as they are)
      const sample = (s: number): number => {
        if (depth === 8) return row[s]!;
        if (depth === 16) return row[s * 2]!;
        const bit = s * depth;
        const value = (row[bit >> 3]! >> (8 - depth - (bit & 7))) & max;
        return colour === 3 ? value : Math.round((value * 255) / max);
      };
      for (let x = 0; x < passWidth; x++) {
        const o = ((y0 + y * dy) * width + x0 + x * dx) * 4;
        const s = x * channels;
        if (colour === 3) {
          const index = sample(s);
          out[o] = palette![index * 3] ?? 0;
          out[o + 1] = palette![index * 3 + 1] ?? 0;
          out[o + 2] = palette![index * 3 + 2] ?? 0;
          out[o + 3] = alphas?.[index] ?? 255;
        } else if (channels >= 3) {
          out[o] = sample(s);
          out[o + 1] = sample(s + 1);
          out[o + 2] = sample(s + 2);
          out[o + 3] = channels === 4 ? sample(s + 3) : 255;
        } else {
          out[o] = out[o + 1] = out[o + 2] = sample(s);
          out[o + 3] = channels === 2 ? sample(s + 1) : 255;
        }
      }
    }
  }
  return { width, height, data: out };
}
