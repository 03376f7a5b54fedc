import { describe, expect, it } from "vitest";
import { encode as encodePng } from "fast-png";
import QRCode from "qrcode";
import { decodeQrImage, MAX_QR_IMAGE_BYTES } from "../../workers/services/agency";
import { blankPng, qrJpeg, qrPng } from "../integration/fixtures/qr-images";

const TEXT =
  "00020101021115229704180027710418123456385000160A0052662846625770108277104180202002031" +
  "4mch19B73F61B9E5204599953034185802LA5914VIENTIANE PLAY6009VIENTIANE6304ABCD";

// The PNG the qrcode package writes itself (pngjs, Node only) is uploaded by the e2e test.
describe("a QR code read from an uploaded image (inside workerd)", () => {
  it("reads the text of a PNG and of a JPEG", async () => {
    expect(await decodeQrImage(qrPng(TEXT))).toEqual({ ok: true, text: TEXT });
    expect(await decodeQrImage(qrJpeg(TEXT))).toEqual({ ok: true, text: TEXT });
  });

  it("reads a 1-bit grey PNG and a transparent one (dark modules on nothing)", async () => {
    const qr = QRCode.create("LAO-QR-1BIT", { errorCorrectionLevel: "M" });
    const n = qr.modules.size;
    const scale = 4;
    const margin = 4;
    const size = (n + 2 * margin) * scale;
    const on = (x: number, y: number) => {
      const mx = Math.floor(x / scale) - margin;
      const my = Math.floor(y / scale) - margin;
      return mx >= 0 && my >= 0 && mx < n && my < n && qr.modules.get(my, mx) === 1;
    };
    const rowBytes = Math.ceil(size / 8);
    const bits = new Uint8Array(rowBytes * size);
    const rgba = new Uint8Array(size * size * 4);
    for (let y = 0; y < size; y++) {
      for (let x = 0; x < size; x++) {
        if (!on(x, y)) bits[y * rowBytes + (x >> 3)] |= 0x80 >> (x & 7);
        rgba[(y * size + x) * 4 + 3] = on(x, y) ? 255 : 0;
      }
    }
    expect(await decodeQrImage(encodePng({ width: size, height: size, data: bits, channels: 1, depth: 1 }))).toEqual({ ok: true, text: "LAO-QR-1BIT" });
    expect(await decodeQrImage(encodePng({ width: size, height: size, data: rgba, channels: 4, depth: 8 }))).toEqual({ ok: true, text: "LAO-QR-1BIT" });
  });

  it("says which problem: not an image, a broken image, no QR in it, too large", async () => {
    expect(await decodeQrImage(new TextEncoder().encode("hello, not an image"))).toEqual({ ok: false, problem: "IMAGE_UNREADABLE" });
    const png = qrPng(TEXT);
    expect(await decodeQrImage(png.slice(0, 60))).toEqual({ ok: false, problem: "IMAGE_UNREADABLE" });
    expect(await decodeQrImage(blankPng())).toEqual({ ok: false, problem: "NO_QR" });
    expect(await decodeQrImage(new Uint8Array(MAX_QR_IMAGE_BYTES + 1))).toEqual({ ok: false, problem: "IMAGE_TOO_LARGE" });
    // A PNG header claiming 100 000 x 100 000 pixels is refused before anything is inflated.
    const huge = png.slice();
    new DataView(huge.buffer).setUint32(16, 100_000);
    new DataView(huge.buffer).setUint32(20, 100_000);
    expect(await decodeQrImage(huge)).toEqual({ ok: false, problem: "IMAGE_TOO_LARGE" });
  });
});
