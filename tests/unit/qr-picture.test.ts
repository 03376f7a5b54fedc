import { describe, expect, it } from "vitest";
import jsQR from "jsqr";
import QRCode from "qrcode";
import { decode as decodePng } from "fast-png";
import { oneBitPng } from "../../workers/core/png";
import { CLOCK, drawQrPicture, oneBitRows, QR_PICTURE_MIN_WIDTH, QUIET_ZONE_MODULES, modulePixels, type GreyPicture } from "../../workers/core/qr-picture";
import { quickAmounts } from "../../workers/core/quick-amounts";

// a dynamic LAO QR as the sandbox gateway makes them (tag 38 LAPNet, 54 amount, 62 reference)
const PAYLOAD =
  "00020101021238670016A00526628466257701082771041802030020325mch19B73F61B9E1234567890123" +
  "52045999530341854066012345802LA5914VIENTIANE PLAY6009VIENTIANE62170513D261202ABCDE6304ABCD";

const modulesOf = (text: string) => {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: "M" });
  return { size: modules.size, isDark: (r: number, c: number) => modules.get(r, c) === 1 };
};

const rgba = ({ width, height, pixels }: GreyPicture) => {
  const out = new Uint8ClampedArray(width * height * 4);
  for (let i = 0; i < pixels.length; i++) out.set([pixels[i], pixels[i], pixels[i], 255], i * 4);
  return out;
};

describe("the deposit QR as a picture (workers/core/qr-picture)", () => {
  const qr = modulesOf(PAYLOAD);
  const picture = drawQrPicture(qr, ["₭601.234", `${CLOCK} 14:30`]);
  const m = modulePixels(qr.size);

  it("is at least 600 px wide, whole modules, with the text below the square", () => {
    expect(picture.width).toBeGreaterThanOrEqual(QR_PICTURE_MIN_WIDTH);
    expect(picture.width).toBe((qr.size + 2 * QUIET_ZONE_MODULES) * m);
    expect(picture.height).toBeGreaterThan(picture.width);
    expect(picture.pixels.length).toBe(picture.width * picture.height);
  });

  it("keeps a white quiet zone of four modules on every side of the code, the text outside it", () => {
    const zone = QUIET_ZONE_MODULES * m;
    const dark: string[] = [];
    for (let y = 0; y < picture.width; y++) {
      for (let x = 0; x < picture.width; x++) {
        const inside = x >= zone && x < picture.width - zone && y >= zone && y < picture.width - zone;
        if (!inside && picture.pixels[y * picture.width + x] !== 255) dark.push(`${x},${y}`);
      }
    }
    expect(dark.slice(0, 5)).toEqual([]);
  });

  it("draws the lines under the quiet zone (dark pixels there)", () => {
    const below = picture.pixels.subarray((picture.width + 1) * picture.width);
    expect(below.some((p) => p === 0)).toBe(true);
    const noText = drawQrPicture(qr, []);
    expect(noText.height).toBe(noText.width);
  });

  it("decodes back to the payload (jsQR on its pixels)", () => {
    const found = jsQR(rgba(picture), picture.width, picture.height);
    expect(found?.data).toBe(PAYLOAD);
  });

  it("packs into 1-bit PNG rows that decode to the same pixels (the file the Worker sends)", async () => {
    const png = await oneBitPng(picture.width, picture.height, oneBitRows(picture));
    // every chunk's CRC checked: a bank app's reader may refuse a file whose CRC does not hold
    const back = decodePng(png, { checkCrc: true });
    expect([back.width, back.height, back.depth, back.channels]).toEqual([picture.width, picture.height, 1, 1]);
    const rowBytes = Math.ceil(picture.width / 8);
    const differing = [...picture.pixels].filter((grey, i) => {
      const x = i % picture.width;
      const bit = (back.data[Math.floor(i / picture.width) * rowBytes + (x >> 3)] >> (7 - (x & 7))) & 1;
      return (grey === 255 ? 1 : 0) !== bit;
    }).length;
    expect(differing).toBe(0);
    expect(png.length).toBeLessThan(8 * 1024);
  });

  it("the module size grows for a small code, so any QR makes at least 600 px", () => {
    const small = drawQrPicture(modulesOf("1"), ["1"]);
    expect(small.width).toBeGreaterThanOrEqual(QR_PICTURE_MIN_WIDTH);
    expect(jsQR(rgba(small), small.width, small.height)?.data).toBe("1");
  });
});

describe("quick amounts from the agency's deposit limits", () => {
  it("the demo's 10.000 to 50.000.000: four round amounts from five times the minimum", () => {
    expect(quickAmounts({ min: "10000", max: "50000000" })).toEqual(["50000", "100000", "200000", "500000"]);
  });

  it("a narrow range: what fits, moved down to stay within the maximum", () => {
    expect(quickAmounts({ min: "100000", max: "1000000" })).toEqual(["100000", "200000", "500000", "1000000"]);
    expect(quickAmounts({ min: "30000", max: "150000" })).toEqual(["50000", "100000"]);
    expect(quickAmounts({ min: "60000", max: "70000" })).toEqual([]);
  });

  it("every amount is within the limits; unreadable limits mean none and no maximum", () => {
    for (const limits of [
      { min: "15000", max: "2500000" },
      { min: "1", max: "9000" },
      { min: "5000000", max: "100000000" },
    ]) {
      const amounts = quickAmounts(limits).map(Number);
      expect(amounts.length).toBeGreaterThan(0);
      for (const a of amounts) expect(a >= Number(limits.min) && a <= Number(limits.max)).toBe(true);
    }
    expect(quickAmounts({ min: "", max: "" })).toEqual(["1000", "2000", "5000", "10000"]);
  });
});
