// qrcode's encoder and SVG renderer, required without its Node entry (workers/services/agency/qr-image.ts).
declare module "qrcode/lib/core/qrcode" {
  export function create(text: string, options?: { errorCorrectionLevel?: "L" | "M" | "Q" | "H" }): unknown;
}
declare module "qrcode/lib/renderer/svg-tag" {
  export function render(qrData: unknown, options?: { margin?: number }): string;
}
