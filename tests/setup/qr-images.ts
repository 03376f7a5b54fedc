import QRCode from "qrcode";
import { encode as encodePng } from "fast-png";
import jpeg from "jpeg-js";

/**
 * QR code images made in the test (no fixture files): the modules of `QRCode.create`
 * drawn as pixels, then encoded as PNG (fast-png) or JPEG (jpeg-js), the formats an owner
 * uploads from a bank app screenshot. Pure JS, so it runs in workerd and in Node alike.
 */
function pixels(text: string, { scale = 6, margin = 4, dark = 0, light = 255 } = {}) {
  const qr = QRCode.create(text, { errorCorrectionLevel: "M" });
  const n = qr.modules.size;
  const size = (n + margin * 2) * scale;
  const data = new Uint8Array(size * size * 4);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const mx = Math.floor(x / scale) - margin;
      const my = Math.floor(y / scale) - margin;
      const on = mx >= 0 && my >= 0 && mx < n && my < n && qr.modules.get(my, mx) === 1;
      const o = (y * size + x) * 4;
      data[o] = data[o + 1] = data[o + 2] = on ? dark : light;
      data[o + 3] = 255;
    }
  }
  return { width: size, height: size, data };
}

export function qrPng(text: string, options?: { scale?: number; margin?: number }): Uint8Array {
  return encodePng({ ...pixels(text, options), channels: 4, depth: 8 });
}

export function qrJpeg(text: string, options?: { scale?: number; margin?: number }): Uint8Array {
  const image = pixels(text, options);
  return new Uint8Array(jpeg.encode({ width: image.width, height: image.height, data: image.data }, 90).data);
}

/** A PNG of the right kind without any QR in it (a plain grey square). */
export function blankPng(size = 64): Uint8Array {
  return encodePng({ width: size, height: size, data: new Uint8Array(size * size).fill(200), channels: 1, depth: 8 });
}
