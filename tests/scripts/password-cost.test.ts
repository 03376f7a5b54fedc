import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ensureBuild, localDirs, useLocalDirs } from "../../scripts/local-dirs.mjs";

/**
 * The tests inside workerd hash passwords at N=2^10 (vitest.config.ts defines
 * __TEST_SCRYPT_N__, decision 064); a build never does. The production build's Worker still
 * asks `typeof __TEST_SCRYPT_N__` at run time (undefined there: N=2^14); a build that had the
 * test cost baked in would carry the number instead of the name.
 */
function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : path.endsWith(".js") ? [path] : [];
  });
}

describe("the password cost of a build", () => {
  it("the Worker of the tests' production build hashes at the production cost", () => {
    const dirs = useLocalDirs(localDirs("password-cost", "test"));
    ensureBuild({ stdio: "ignore" });
    const worker = files(join(dirs.build, "server"))
      .map((file) => readFileSync(file, "utf8"))
      .join("\n");
    expect(worker).toContain("__TEST_SCRYPT_N__");
    expect(worker).toMatch(/2\s*\*\*\s*14|16384/);
  });
});
