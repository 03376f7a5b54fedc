import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { changed, fingerprints } from "../../scripts/start-dirs.mjs";

// `npm test` records npm start's folders first and checks them last (decision 055): the check
// must see a file replaced, added or removed, and a folder that appeared.
describe("npm start's folders, before and after the tests", () => {
  it("a replaced, added or removed file, or a folder that appeared, is a change; nothing else is", () => {
    const root = mkdtempSync(join(tmpdir(), "start-dirs-"));
    const build = join(root, "build");
    const state = join(root, "state");
    mkdirSync(join(build, "client", "assets"), { recursive: true });
    writeFileSync(join(build, "client", "assets", "app.js"), "one");
    writeFileSync(join(build, "client", "sw.js"), "sw");
    const paths = [build, state];
    const before = fingerprints(paths);
    expect(before[state]).toBe("absent");
    expect(changed(before, fingerprints(paths))).toEqual([]);

    writeFileSync(join(build, "client", "assets", "app.js"), "two"); // rebuilt in place (same size)
    utimesSync(join(build, "client", "assets", "app.js"), new Date(), new Date(Date.now() + 5000));
    expect(changed(before, fingerprints(paths))).toEqual([build]);

    const rebuilt = fingerprints(paths);
    rmSync(join(build, "client", "sw.js"));
    expect(changed(rebuilt, fingerprints(paths))).toEqual([build]);

    mkdirSync(join(state, "v3"), { recursive: true }); // a reseed where there was none
    expect(changed(rebuilt, fingerprints(paths))).toEqual([build, state]);
    rmSync(root, { recursive: true, force: true });
  });
});
