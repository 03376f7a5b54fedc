// Playwright cannot download browsers here; we use Debian's chromium packages (scripts/chromium.mjs),
// and Debian's zbar-tools for zbarimg, the QR reader that checks the deposit's saved QR picture
// the way a bank app's gallery scanner would (tests/e2e/deposit.spec.ts, decision 080).
// Installs the missing ones when we are root; otherwise stops with how to do it.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { CHROMIUM, TEST_CHROMIUM } from "./chromium.mjs";

const wanted = [
  { path: CHROMIUM, pkg: "chromium" },
  { path: TEST_CHROMIUM, pkg: "chromium-headless-shell" },
  { path: process.env.ZBARIMG_PATH ?? "/usr/bin/zbarimg", pkg: "zbar-tools" },
];
const missing = wanted.filter(({ path }) => !existsSync(path)).map(({ pkg }) => pkg);

if (missing.length > 0) {
  if (process.getuid?.() === 0) {
    console.log(`Missing: installing Debian's ${missing.join(" and ")} (apt-get)...`);
    const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
    execFileSync("apt-get", ["update", "-qq"], { stdio: "inherit", env });
    execFileSync("apt-get", ["install", "-y", "-qq", ...missing], { stdio: "inherit", env });
  } else {
    console.error(
      `Not found: ${missing.join(", ")} (${CHROMIUM}, ${TEST_CHROMIUM}).\n` +
        `Install as root:  sudo apt-get update && sudo apt-get install -y ${missing.join(" ")}\n` +
        "or point CHROMIUM_PATH / TEST_CHROMIUM_PATH at existing binaries.",
    );
    process.exit(1);
  }
}
