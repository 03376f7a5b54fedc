import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

/**
 * Issue 35 item 9: `agency:create` prints the enrolment link with the scheme and port the
 * domain is reached at: a loopback name (localhost, *.localhost, 127.0.0.1) only answers on
 * this machine, over http, at the local server's port (5173 for `npm start`, else wrangler
 * dev's, 8787 unless --port says otherwise); any other domain over https, without a port.
 */
const dir = mkdtempSync(join(tmpdir(), "enrol-link-test-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function createAgency(...args: string[]) {
  const run = spawnSync(process.execPath, ["scripts/create-agency.mjs", "--persist-to", dir, ...args], {
    encoding: "utf8",
    env: { ...process.env, CI: "true" },
  });
  expect(run.status, run.stderr).toBe(0);
  return /^ {2}(\S+)\/admin\/enrol\?token=/m.exec(run.stdout)?.[1];
}

describe("agency:create's enrolment link", () => {
  it("rehearsing another environment on this machine (--env <agency> --domain localhost): http and wrangler dev's port", () => {
    expect(createAgency("--env", "rehearsal", "--id", "reh", "--name", "Rehearsal", "--domain", "localhost")).toBe("http://localhost:8787");
  });

  it("--port names the port wrangler dev answers on", () => {
    expect(createAgency("--env", "rehearsal", "--id", "reh2", "--name", "Rehearsal 2", "--domain", "two.localhost", "--port", "4186")).toBe(
      "http://two.localhost:4186",
    );
  });

  it("a real domain is https without a port, whatever the environment", () => {
    expect(createAgency("--env", "rehearsal", "--id", "real", "--name", "Real", "--domain", "play.example.la")).toBe("https://play.example.la");
    expect(createAgency("--env", "local", "--id", "local", "--name", "Local", "--domain", "local.localhost")).toBe("http://local.localhost:5173");
  });
});
