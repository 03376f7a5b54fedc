// zbarimg (Debian's zbar-tools, installed with Chromium by scripts/ensure-chromium.mjs): what a
// bank app's "scan from gallery" would read from a picture. A process of its own that reads one
// image file and nothing else (kept out of tests/e2e, where a child process is refused because
// it could reach the server's database: tests/scripts/e2e-no-external-d1.test.ts).
import { execFileSync } from "node:child_process";

/** The text of the one QR code in the picture at `file` (zbarimg --raw), trimmed. */
export function readQrFile(file) {
  return execFileSync(process.env.ZBARIMG_PATH ?? "zbarimg", ["--quiet", "--raw", file], { encoding: "utf8" }).trim();
}
