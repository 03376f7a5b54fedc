// qrcode's encoder and SVG renderer, required without its Node entry (workers/services/agency/qr-image.ts).
declare module "qrcode/lib/core/qrcode" {
  /** The encoded symbol: its modules, `size` x `size`, `get(row, col)` 1 when dark (the deposit QR's picture reads them). */
  export function create(
    text: string,
    options?: { errorCorrectionLevel?: "L" | "M" | "Q" | "H" },
  ): { modules: { size: number; get(row: number, col: number): number } };
}
declare module "qrcode/lib/renderer/svg-tag" {
  export function render(qrData: unknown, options?: { margin?: number }): string;
}
