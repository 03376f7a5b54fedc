import { encode as encodePng } from "fast-png";
import QRCode from "qrcode";
import { describe, expect, it } from "vitest";
import { readPng } from "../../workers/core/png";
import { seeded } from "../setup/random";

/**
 * The Worker's PNG reader (decision 094) against two encoders written by others: fast-png (every
 * colour type it writes, 8 and 16 bits, 1-bit grey) and qrcode's PNG renderer (pngjs: adaptive
 * filters, so rows filtered with Sub, Up, Average and Paeth), the model being the pixels given.
 */
describe("readPng", () => {
  it("reads back what fast-png wrote: grey, grey + alpha, RGB, RGBA at 8 and 16 bits", async () => {
    const r = seeded(92);
    for (const channels of [1, 2, 3, 4] as const)
      for (const depth of [8, 16] as const) {
        const [width, height] = [1 + r.int(23), 1 + r.int(17)];
        const samples = width * height * channels;
        const data = depth === 8 ? new Uint8Array(samples) : new Uint16Array(samples);
        for (let i = 0; i < samples; i++) data[i] = r.int(depth === 8 ? 256 : 65536);
        const picture = await readPng(encodePng({ width, height, data, channels, depth }));
        expect(picture, `${channels} channels, ${depth} bits`).not.toBeNull();
        const high = (i: number) => (depth === 16 ? data[i]! >> 8 : data[i]!);
        const expected = new Uint8ClampedArray(width * height * 4);
        for (let p = 0; p < width * height; p++) {
          const s = p * channels;
          const [r, g, b] = channels >= 3 ? [high(s), high(s + 1), high(s + 2)] : [high(s), high(s), high(s)];
          const a = channels === 4 ? high(s + 3) : channels === 2 ? high(s + 1) : 255;
          expected.set([r, g, b, a], p * 4);
        }
        expect(picture!.data).toEqual(expected);
      }
  });

  it("reads a 1-bit grey picture", async () => {
    const width = 10;
    const rows = new Uint8Array([0b10101010, 0b01000000, 0b11111111, 0b11000000]);
    const picture = await readPng(encodePng({ width, height: 2, data: rows, channels: 1, depth: 1 }));
    const greys = [...picture!.data].filter((_, i) => i % 4 === 0);
    // row 1: 1010101001, row 2: 1111111111 (white = 1)
    expect(greys).toEqual([255, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255]);
  });

  it("reads rows filtered every way: None, Sub, Up, Average, Paeth and pngjs's adaptive choice (qrcode's PNG renderer)", async () => {
    // pngjs takes the filter from qrcode's rendererOpts (its types name only the deflate's options)
    const options = (filterType: number) =>
      ({
        type: "png",
        margin: 1,
        scale: 3,
        color: { dark: "#123456ff", light: "#fedcbaff" },
        rendererOpts: { filterType },
      }) as unknown as QRCode.QRCodeToBufferOptions;
    const draw = async (filterType: number) => readPng(new Uint8Array(await QRCode.toBuffer("LAO-QR-FILTERS", options(filterType))));
    const plain = await draw(0);
    expect(plain).not.toBeNull();
    const colours = new Set<string>();
    for (let p = 0; p < plain!.width * plain!.height; p++) colours.add([...plain!.data.subarray(p * 4, p * 4 + 4)].join(","));
    expect([...colours].sort()).toEqual(["18,52,86,255", "254,220,186,255"]);
    for (const filterType of [1, 2, 3, 4, -1]) expect((await draw(filterType))?.data, `filter ${filterType}`).toEqual(plain!.data);
  });

  it("reads an interlaced (Adam7) picture: each pass put back in its place", async () => {
    const r = seeded(7);
    const [width, height] = [13, 11];
    const rgb = Uint8Array.from({ length: width * height * 3 }, () => r.int(256));
    const picture = await readPng(await adam7Png(width, height, rgb));
    expect(picture).not.toBeNull();
    const expected = new Uint8ClampedArray(width * height * 4);
    for (let p = 0; p < width * height; p++) expected.set([rgb[p * 3]!, rgb[p * 3 + 1]!, rgb[p * 3 + 2]!, 255], p * 4);
    expect(picture!.data).toEqual(expected);
  });

  it("refuses what is not a whole PNG", async () => {
    const png = encodePng({ width: 4, height: 4, data: new Uint8Array(16), channels: 1, depth: 8 });
    expect(await readPng(png.slice(0, 30))).toBeNull();
    expect(await readPng(new TextEncoder().encode("not a picture at all"))).toBeNull();
  });
});

/** An 8-bit RGB PNG written interlaced (Adam7, PNG 3 section 8.2), each pass's rows unfiltered: what no encoder at hand writes. */
async function adam7Png(width: number, height: number, rgb: Uint8Array): Promise<Uint8Array> {
  const passes = [
    [0, 0, 8, 8],
    [4, 0, 8, 8],
    [0, 4, 4, 8],
    [2, 0, 4, 4],
    [0, 2, 2, 4],
    [1, 0, 2, 2],
    [0, 1, 1, 2],
  ];
  const raw: number[] = [];
  for (const [x0, y0, dx, dy] of passes)
    for (let y = y0!; y < height; y += dy!) {
      if (x0! >= width) break;
      raw.push(0);
      for (let x = x0!; x < width; x += dx!) raw.push(rgb[(y * width + x) * 3]!, rgb[(y * width + x) * 3 + 1]!, rgb[(y * width + x) * 3 + 2]!);
    }
  const deflated = new Uint8Array(await new Response(new Blob([new Uint8Array(raw)]).stream().pipeThrough(new CompressionStream("deflate"))).arrayBuffer());
  const crc = (bytes: Uint8Array) => {
    let c = 0xffffffff;
    for (const byte of bytes) {
      c ^= byte;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    }
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Uint8Array) => {
    const out = new Uint8Array(12 + data.length);
    const view = new DataView(out.buffer);
    view.setUint32(0, data.length);
    out.set(new TextEncoder().encode(type), 4);
    out.set(data, 8);
    view.setUint32(8 + data.length, crc(out.subarray(4, 8 + data.length)));
    return out;
  };
  const ihdr = new Uint8Array(13);
  new DataView(ihdr.buffer).setUint32(0, width);
  new DataView(ihdr.buffer).setUint32(4, height);
  ihdr.set([8, 2, 0, 0, 1], 8);
  const parts = [
    new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", ihdr),
    chunk("IDAT", deflated),
    chunk("IEND", new Uint8Array()),
  ];
  return new Uint8Array(await new Blob(parts).arrayBuffer());
}
