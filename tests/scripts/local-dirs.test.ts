import { describe, expect, it } from "vitest";
import { buildEnv, localDirs, START_DIRS } from "../../scripts/local-dirs.mjs";

// Decision 055: tests build and keep state beside `npm start`, never in its folders, and a
// build made from inside a test runner is the build `npm start` would make.
describe("the tests' local folders and build", () => {
  it("a test's build and state are never npm start's", () => {
    for (const [name, buildName] of [
      ["e2e-4173", "test"],
      ["rehearsal", "rehearsal"],
      ["bench", "bench"],
    ]) {
      const dirs = localDirs(name, buildName);
      expect(dirs.build).not.toBe(START_DIRS.build);
      expect(dirs.state).not.toBe(START_DIRS.state);
      expect(dirs.build.startsWith(".local/")).toBe(true);
    }
  });

  it("a build started from vitest does not inherit vitest's NODE_ENV=test (the e2e server served such a build: every admin page failed to hydrate)", () => {
    expect(process.env.NODE_ENV).toBe("test"); // what this runner sets
    const env = buildEnv();
    expect(env.NODE_ENV).toBeUndefined();
    expect(Object.keys(env).filter((k) => k.startsWith("VITEST") || ["TEST", "MODE", "DEV", "PROD", "SSR", "BASE_URL"].includes(k))).toEqual([]);
    expect(env.PATH).toBe(process.env.PATH);
  });
});
