// Playwright cannot download browsers here; we use Debian's chromium package.
// Installs it when missing and we are root; otherwise stops with how to do it.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";

export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

if (!existsSync(CHROMIUM)) {
  if (process.getuid?.() === 0) {
    console.log("Chromium is missing: installing Debian's chromium package (apt-get)...");
    const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
    execFileSync("apt-get", ["update", "-qq"], { stdio: "inherit", env });
    execFileSync("apt-get", ["install", "-y", "-qq", "chromium"], { stdio: "inherit", env });
  } else {
    console.error(
      `Chromium was not found at ${CHROMIUM}.\n` +
        "Install it as root:  sudo apt-get update && sudo apt-get install -y chromium\n" +
        "or point CHROMIUM_PATH at an existing Chromium/Chrome binary.",
    );
    process.exit(1);
  }
}
