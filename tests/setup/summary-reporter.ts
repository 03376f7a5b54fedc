import type { Reporter, TestModule } from "vitest/node";

/**
 * Prints the plain closing line CI reads: "integration: N passed, N failed, N skipped". The
 * label is the reporter's option: none for the workerd run, "unit", "scripts" and "contract"
 * for the Node runs; scripts/test.mjs adds the runners' lines up.
 */
export default class SummaryReporter implements Reporter {
  private readonly label: string;

  constructor(options: { label?: string } = {}) {
    this.label = options.label ?? "integration";
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>) {
    const counts = { passed: 0, failed: 0, skipped: 0 };
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === "passed") counts.passed++;
        else if (state === "failed") counts.failed++;
        else counts.skipped++;
      }
    }
    console.log(`${this.label}: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`);
  }
}
