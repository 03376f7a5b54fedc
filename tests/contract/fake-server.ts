import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * The part every provider fake shares: a real HTTP server on 127.0.0.1 (port 0), a record
 * of every request, and a fault switch. Faults are queued per path and consumed by the next
 * matching request:
 * - "timeout": no answer at all (the connection is held until the test stops the server);
 * - "apply-then-timeout": the fake processes the request, then never answers (the real
 *   "unknown outcome": the credit moved but the caller could not see it);
 * - "http500": HTTP 500 with an HTML page, nothing processed;
 * - "apply-then-500": processed, then HTTP 502 from a "gateway";
 * - "garbage": HTTP 200 with a body that is not JSON, nothing processed;
 * - "apply-then-garbage": processed, then HTTP 200 with a truncated JSON body.
 */
export type Fault = "timeout" | "apply-then-timeout" | "http500" | "apply-then-500" | "garbage" | "apply-then-garbage";

export type RecordedRequest = {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: Record<string, string>;
  body: string;
};

export type Reply = { status: number; body: string; contentType?: string };
export type Handler = (req: RecordedRequest) => Reply;

export class FakeServer {
  readonly requests: RecordedRequest[] = [];
  private readonly faults = new Map<string, Fault[]>();
  private server: Server | null = null;
  private readonly held: ServerResponse[] = [];
  baseUrl = "";

  constructor(private readonly handle: Handler) {}

  async start(): Promise<string> {
    this.server = createServer((req, res) => void this.onRequest(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, "127.0.0.1", resolve));
    const { port } = this.server.address() as AddressInfo;
    this.baseUrl = `http://127.0.0.1:${port}`;
    return this.baseUrl;
  }

  async stop(): Promise<void> {
    for (const res of this.held) res.destroy();
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  /** The next request to `path` meets this fault. */
  fault(path: string, fault: Fault): void {
    const queue = this.faults.get(path) ?? [];
    queue.push(fault);
    this.faults.set(path, queue);
  }

  clearRequests(): void {
    this.requests.length = 0;
  }

  to(path: string): RecordedRequest[] {
    return this.requests.filter((r) => r.path === path);
  }

  private async onRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const url = new URL(req.url ?? "/", "http://fake");
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers[k.toLowerCase()] = v;
    const recorded: RecordedRequest = {
      method: req.method ?? "GET",
      path: url.pathname,
      query: url.searchParams,
      headers,
      body: Buffer.concat(chunks).toString("utf8"),
    };
    this.requests.push(recorded);

    const fault = this.faults.get(url.pathname)?.shift();
    if (fault === "timeout") return void this.held.push(res);
    if (fault === "http500") return send(res, { status: 500, body: "<html><body>500 Internal Server Error</body></html>", contentType: "text/html" });
    if (fault === "garbage") return send(res, { status: 200, body: "<html>maintenance</html>", contentType: "text/html" });
    const reply = this.handle(recorded);
    if (fault === "apply-then-timeout") return void this.held.push(res);
    if (fault === "apply-then-500") return send(res, { status: 502, body: "Bad Gateway", contentType: "text/plain" });
    if (fault === "apply-then-garbage")
      return send(res, { status: 200, body: reply.body.slice(0, Math.max(1, Math.floor(reply.body.length / 2))), contentType: "application/json" });
    send(res, reply);
  }
}

function send(res: ServerResponse, reply: Reply): void {
  res.writeHead(reply.status, { "Content-Type": reply.contentType ?? "application/json" });
  res.end(reply.body);
}

export function json(status: number, value: unknown): Reply {
  return { status, body: JSON.stringify(value) };
}

/** "100.25" | 100.25 -> 10025n; null when not an amount. */
export function cents(value: unknown): bigint | null {
  const text = typeof value === "number" ? String(value) : typeof value === "string" ? value.trim() : "";
  const m = /^(-)?(\d+)(?:\.(\d{1,2}))?$/.exec(text);
  if (!m) return null;
  const v = BigInt(m[2]!) * 100n + BigInt((m[3] ?? "").padEnd(2, "0") || "0");
  return m[1] ? -v : v;
}

/** 10025n -> 100.25 as a JS number (the providers' quirk: numbers where strings are documented). */
export function asNumber(minor: bigint): number {
  return Number(minor) / 100;
}

export function asString(minor: bigint): string {
  const neg = minor < 0n;
  const abs = neg ? -minor : minor;
  return `${neg ? "-" : ""}${abs / 100n}.${(abs % 100n).toString().padStart(2, "0")}`;
}
