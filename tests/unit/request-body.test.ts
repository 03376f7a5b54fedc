import { describe, expect, it } from "vitest";
import { finishRequestBody } from "../../workers/request-body";

/** Decision 051: what an answer left of the request body is read before the answer goes out. */

function streamed(chunks: number, size: number): { body: ReadableStream<Uint8Array>; pulled: () => number; cancelled: () => boolean } {
  let pulled = 0;
  let cancelled = false;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (pulled === chunks) return controller.close();
      pulled++;
      controller.enqueue(new Uint8Array(size));
    },
    cancel() {
      cancelled = true;
    },
  });
  return { body, pulled: () => pulled, cancelled: () => cancelled };
}

const post = (body: ReadableStream<Uint8Array> | string, headers: Record<string, string> = {}) =>
  new Request("https://portal.test/player/cashback", { method: "POST", body, headers, duplex: "half" } as RequestInit);

describe("finishRequestBody", () => {
  it("reads an unread body to its end (a refusal's 64 KB form)", async () => {
    const s = streamed(16, 4096);
    const request = post(s.body);
    await finishRequestBody(request);
    expect(s.pulled()).toBe(16);
    expect(s.cancelled()).toBe(false);
    expect(request.bodyUsed).toBe(true);
  });

  it("leaves a body the route read, and a request without one", async () => {
    const read = post("a=1", { "Content-Type": "application/x-www-form-urlencoded" });
    await read.formData();
    await finishRequestBody(read);
    await finishRequestBody(new Request("https://portal.test/"));
  });

  it("reads the original when the route read a clone (the 415 guard parses request.clone())", async () => {
    const s = streamed(4, 1024);
    const request = post(s.body);
    await request.clone().arrayBuffer();
    await finishRequestBody(request);
    expect(request.bodyUsed).toBe(true);
  });

  it("cancels a body declared or counted above 8 MiB instead of waiting for it", async () => {
    const declared = streamed(1, 1);
    await finishRequestBody(post(declared.body, { "Content-Length": String(9 * 1024 * 1024) }));
    expect(declared.cancelled()).toBe(true);
    expect(declared.pulled()).toBeLessThanOrEqual(1); // the stream fills its queue of one by itself
    const counted = streamed(100, 128 * 1024);
    await finishRequestBody(post(counted.body));
    expect(counted.cancelled()).toBe(true);
    expect(counted.pulled()).toBeLessThan(100);
  });
});
