import jpeg from "jpeg-js";
import jsQR from "jsqr";
import { create as createQr } from "qrcode/lib/core/qrcode";
import { render as renderSvg } from "qrcode/lib/renderer/svg-tag";
import { hasPngSignature, readPng } from "../../core/png";

/**
 * Reads the text of a QR code from an uploaded image, inside the Worker: PNG (core/png.ts, on the
 * platform's own inflate, decision 094) or JPEG (jpeg-js) to RGBA pixels, then jsQR. No
 * WebAssembly, no Node APIs: they run in workerd as they run in Node.
 *
 * Limits keep one upload within a Worker's memory: at most MAX_QR_IMAGE_BYTES of file and
 * MAX_QR_IMAGE_PIXELS pixels (a phone screenshot is 2-4 million), checked before decoding.
 */
export const MAX_QR_IMAGE_BYTES = 2 * 1024 * 1024;
const MAX_QR_IMAGE_PIXELS = 12_000_000;

export type QrImageProblem = "IMAGE_TOO_LARGE" | "IMAGE_UNREADABLE" | "NO_QR";
type QrImageResult = { ok: true; text: string } | { ok: false; problem: QrImageProblem };

type Rgba = { width: number; height: number; data: Uint8ClampedArray };

export async function decodeQrImage(bytes: Uint8Array): Promise<QrImageResult> {
  if (bytes.byteLength > MAX_QR_IMAGE_BYTES) return { ok: false, problem: "IMAGE_TOO_LARGE" };
  let image: Rgba | "TOO_LARGE" | null;
  try {
    image = hasPngSignature(bytes) ? await pngToRgba(bytes) : isJpeg(bytes) ? jpegToRgba(bytes) : null;
  } catch {
    image = null;
  }
  if (image === "TOO_LARGE") return { ok: false, problem: "IMAGE_TOO_LARGE" };
  if (!image) return { ok: false, problem: "IMAGE_UNREADABLE" };
  onWhite(image.data);
  const found = jsQR(image.data, image.width, image.height, { inversionAttempts: "attemptBoth" });
  if (!found || !found.data) return { ok: false, problem: "NO_QR" };
  return { ok: true, text: found.data };
}

const isJpeg = (bytes: Uint8Array) => bytes.length > 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff;

function jpegToRgba(bytes: Uint8Array): Rgba | "TOO_LARGE" {
  const size = jpegSize(bytes);
  if (size && size.width * size.height > MAX_QR_IMAGE_PIXELS) return "TOO_LARGE";
  const decoded = jpeg.decode(bytes, { useTArray: true, formatAsRGBA: true, maxResolutionInMP: MAX_QR_IMAGE_PIXELS / 1_000_000, maxMemoryUsageInMB: 96 });
  return { width: decoded.width, height: decoded.height, data: new Uint8ClampedArray(decoded.data.buffer, decoded.data.byteOffset, decoded.data.byteLength) };
}

/** The frame size from the first SOFn marker, to refuse a huge image before decoding it. */
function jpegSize(bytes: Uint8Array): { width: number; height: number } | null {
  let i = 2;
  while (i + 9 < bytes.length) {
    if (bytes[i] !== 0xff) return null;
    const marker = bytes[i + 1];
    const length = (bytes[i + 2] << 8) | bytes[i + 3];
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { height: (bytes[i + 5] << 8) | bytes[i + 6], width: (bytes[i + 7] << 8) | bytes[i + 8] };
    }
    i += 2 + length;
  }
  return null;
}

/** Transparent pixels over white, as a screen shows them (jsQR reads colour, not alpha). */
function onWhite(data: Uint8ClampedArray): void {
  for (let o = 0; o < data.length; o += 4) {
    const a = data[o + 3];
    if (a === 255) continue;
    for (let c = 0; c < 3; c++) data[o + c] = Math.round((data[o + c] * a + 255 * (255 - a)) / 255);
    data[o + 3] = 255;
  }
}

/** A PNG's pixels, refused before decoding when its header (IHDR, the first chunk: width and height at bytes 16..23) says it is too large. */
async function pngToRgba(bytes: Uint8Array): Promise<Rgba | "TOO_LARGE" | null> {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.byteLength < 24 || view.getUint32(16) * view.getUint32(20) > MAX_QR_IMAGE_PIXELS) return "TOO_LARGE";
  return readPng(bytes);
}

/**
 * A QR code as an SVG string (the deposit's QR step, staff enrolment's TOTP code). qrcode's own
 * encoder and SVG renderer, required directly: its Node entry also bundles the PNG renderer and
 * pngjs into the Worker (about 28 KB minified) for pictures it never draws here.
 */
export function qrSvg(text: string): string {
  return renderSvg(createQr(text, { errorCorrectionLevel: "M" }), { margin: 2 });
}
