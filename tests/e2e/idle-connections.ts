import http from "node:http";

/**
 * The e2e server is workerd itself (scripts/workerd-portal.mjs), and workerd closes a kept-alive
 * connection 5 s after its last answer. Playwright's API clients (`request`, `page.request`)
 * keep theirs alive with no idle limit of their own (one `http.Agent({ keepAlive: true })` per
 * context): a request sent on such a connection in the instant workerd closes it fails with
 * `read ECONNRESET`, and Playwright does not send it again (Chromium does, on a reused
 * connection that closed before any answer). So in the test workers an agent that keeps
 * connections alive drops one idle for 4 s, before workerd would: what undici (`fetch`) does by
 * default. A request in progress is untouched (Node destroys only a free socket on its timeout).
 */
const IDLE_MS = 4_000;
const NodeAgent = http.Agent;
class AgentThatLetsGoFirst extends NodeAgent {
  constructor(options?: http.AgentOptions) {
    super(options?.keepAlive && options.timeout === undefined ? { ...options, timeout: IDLE_MS } : options);
  }
}
// Playwright reads `http.Agent` when a request context makes its agent
http.Agent = AgentThatLetsGoFirst as typeof http.Agent;
