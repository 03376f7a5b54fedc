import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { DEFECT, MENDED, mendSource, patchTestPool, poolHelpersFile } from "../../scripts/patch-test-pool.mjs";

// scripts/patch-test-pool.mjs (decision 067): the installed test pool's wrapper classes must
// install their prototype Proxy once, not once more at every construction (workers-sdk #15092).

type WrapperFactory = (superClass: new () => object, getUnknownPrototypeKey: (this: object, key: string) => unknown) => new () => object;

const installed = () => readFileSync(poolHelpersFile(), "utf8");

/** The pool's createProxyPrototypeClass from its source, run in Node with a plain class (as #15092 reproduces it). */
function factoryOf(source: string): WrapperFactory {
  const start = source.indexOf("function createProxyPrototypeClass(");
  const end = source.indexOf("\n}\n", start);
  expect(start, "createProxyPrototypeClass is in the pool's source").toBeGreaterThanOrEqual(0);
  return new Function("IGNORED_KEYS", `${source.slice(start, end + 2)}\nreturn createProxyPrototypeClass;`)(["self"]);
}

/** How many `get` traps one read of an unknown property runs after `constructions` instances. */
function trapsPerRead(make: WrapperFactory, constructions: number): number {
  let traps = 0;
  const Wrapped = make(class {}, () => {
    traps += 1;
    return undefined;
  });
  let instance: object = {};
  for (let n = 0; n < constructions; n++) instance = new Wrapped();
  (instance as Record<string, unknown>).notAMethod;
  return traps;
}

describe("the test pool's wrapper classes", () => {
  it("the installed pool is mended (npm's postinstall ran scripts/patch-test-pool.mjs)", () => {
    expect(mendSource(installed()).state).toBe("mended");
  });

  it("one read runs one trap however many instances were made before it", () => {
    const make = factoryOf(installed());
    expect(trapsPerRead(make, 1)).toBe(1);
    expect(trapsPerRead(make, 50)).toBe(1);
  });

  it("the unmended text ran one trap per instance made, and the mend applies once", () => {
    const source = installed();
    const unmended = source.replace(MENDED, DEFECT);
    expect(unmended).not.toBe(source);
    expect(trapsPerRead(factoryOf(unmended), 50)).toBe(50);

    const once = mendSource(unmended);
    expect(once.state).toBe("applied");
    expect(once.source).toBe(source);
    expect(mendSource(once.source).state).toBe("mended");
    expect(mendSource("function other() {}").state).toBe("unknown");
    // an install without dev dependencies (`npm ci --omit=dev`) has no pool: nothing to do, no failure
    expect(patchTestPool("/nonexistent/test-internal.mjs")).toBe("absent");
  });
});
