import { describe, expect, it } from "vitest";
import { statusAttempt, transferAttempt } from "../../workers/core/provider-attempts";

/** How a provider call's answer is stored (decision 049). */
describe("provider attempt outcomes", () => {
  it("a transfer: ok, refused with the provider's code, timeout, or error with a short code", () => {
    expect(transferAttempt({ kind: "ok" })).toEqual({ outcome: "ok", errorCode: null, detail: null });
    expect(transferAttempt({ kind: "refused", code: "REFUSED" })).toEqual({ outcome: "refused", errorCode: "REFUSED", detail: null });
    // the sandbox adapter's AbortSignal.timeout, and the AMB/Betflix adapters' own words
    expect(transferAttempt({ kind: "unknown", reason: "TimeoutError: The operation was aborted due to timeout" })).toMatchObject({
      outcome: "timeout",
      errorCode: "TIMEOUT",
    });
    expect(transferAttempt({ kind: "unknown", reason: "timeout after 5000 ms" })).toMatchObject({ outcome: "timeout", errorCode: "TIMEOUT" });
    expect(transferAttempt({ kind: "unknown", reason: "HTTP 502" })).toEqual({ outcome: "error", errorCode: "HTTP_502", detail: "HTTP 502" });
    expect(transferAttempt({ kind: "unknown", reason: "network: connection refused" })).toMatchObject({ outcome: "error", errorCode: "NETWORK" });
    expect(transferAttempt({ kind: "unknown", reason: "unparsable answer (HTTP 200)" })).toMatchObject({ outcome: "error", errorCode: "BAD_ANSWER" });
    expect(transferAttempt({ kind: "unknown", reason: "provider setup unreadable" })).toMatchObject({ outcome: "error", errorCode: "NO_SETUP" });
    expect(transferAttempt({ kind: "unknown", reason: "code 999 strange" })).toMatchObject({ outcome: "error", errorCode: "ERROR" });
  });
  it("a status query: any answer is ok (success, failed, not found); no answer is a timeout or an error", () => {
    for (const kind of ["success", "failed", "not-found"] as const) expect(statusAttempt({ kind })).toEqual({ outcome: "ok", errorCode: null, detail: null });
    expect(statusAttempt({ kind: "unknown", reason: "HTTP 500" })).toMatchObject({ outcome: "error", errorCode: "HTTP_500" });
    expect(statusAttempt({ kind: "unknown", reason: "status: timeout after 5000 ms" })).toMatchObject({ outcome: "timeout" });
  });
  it("keeps the detail short", () => {
    expect(transferAttempt({ kind: "unknown", reason: "x".repeat(1000) }).detail).toHaveLength(200);
  });
});
