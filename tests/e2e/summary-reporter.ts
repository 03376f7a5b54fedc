import type { Reporter, Suite } from "@playwright/test/reporter";

/** Prints the plain closing line CI reads: "e2e: N passed, N failed, N skipped". */
export default class SummaryReporter implements Reporter {
  private root: Suite | undefined;

  onBegin(_config: unknown, suite: Suite) {
    this.root = suite;
  }

  onEnd() {
    const counts = { passed: 0, failed: 0, skipped: 0 };
    for (const test of this.root?.allTests() ?? []) {
      const outcome = test.outcome();
      if (outcome === "expected" || outcome === "flaky") counts.passed++;
      else if (outcome === "skipped") counts.skipped++;
      else counts.failed++;
    }
    console.log(`e2e: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`);
  }
}
