import { describe, expect, it } from "vitest";
import { linkOrigin, parse } from "../../scripts/agency-sql.mjs";

/**
 * `agency:create` prints the enrolment link with the scheme and port the
 * domain is reached at: a loopback name (localhost, *.localhost, 127.0.0.1) only answers on
 * this machine, over http, at the local server's port (5173 for `npm start`, else wrangler
 * dev's, 8787 unless --port says otherwise); any other domain over https, without a port.
 *
 * The rule is `linkOrigin` of the parsed command line, asked here directly: each case used to
 * run a whole `agency:create` into a fresh local D1 (65 s for three tests, decision 065).
 * create-agency.test.ts runs the command and reads the printed link whole
 * (`http://acme.localhost:5173/admin/enrol?token=...`).
 */
const origin = (...args: string[]) => linkOrigin(parse(args));

describe("agency:create's enrolment link", () => {
  it("rehearsing another environment on this machine (--env <agency> --domain localhost): http and wrangler dev's port", () => {
    expect(origin("--env", "rehearsal", "--id", "reh", "--name", "Rehearsal", "--domain", "localhost")).toBe("http://localhost:8787");
  });

  it("--port names the port wrangler dev answers on", () => {
    expect(origin("--env", "rehearsal", "--id", "reh2", "--name", "Rehearsal 2", "--domain", "two.localhost", "--port", "4186")).toBe(
      "http://two.localhost:4186",
    );
  });

  it("a real domain is https without a port, whatever the environment", () => {
    expect(origin("--env", "rehearsal", "--id", "real", "--name", "Real", "--domain", "play.example.la")).toBe("https://play.example.la");
    expect(origin("--env", "local", "--id", "local", "--name", "Local", "--domain", "local.localhost")).toBe("http://local.localhost:5173");
    expect(origin("--env", "local", "--id", "ip", "--name", "IP", "--domain", "127.0.0.1")).toBe("http://127.0.0.1:5173");
  });

  it("the first domain decides", () => {
    expect(origin("--env", "acme", "--id", "acme", "--name", "Acme", "--domain", "play.acme.la", "--domain", "acme.localhost")).toBe("https://play.acme.la");
  });
});
