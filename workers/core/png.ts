/**
 * A black-and-white PNG written with the platform's own deflate (`CompressionStream`, in the
 * Worker and in Node): the saved deposit QR (decision 080). fast-png stays the Worker's PNG
 * reader (uploaded QR pictures); its writer brought its own deflate, about 6 KiB of the
 * Worker's gzip budget (decision 079) for a picture that needs four chunks and no options.
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
