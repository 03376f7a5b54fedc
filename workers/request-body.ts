/**
 * A request body the answer left unread is read to its end before the answer goes out
 * (decision 051). The early refusals (cross-site 403, 401, 413, 415) answer without reading
 * what was posted; locally workerd (kj's HTTP server) then closes the connection once more
 * than 64 KiB of the body is still unread, and `vite preview`'s forwarder (miniflare's
 * dispatchFetch, undici), still writing that body, fails with ECONNRESET before it reads the
 * answer: the browser got vite's 500 "fetch failed" instead of the refusal. Read to its end,
 * the body leaves the connection clean and the refusal arrives.
 *
 * Up to DRAIN_LIMIT_BYTES: a larger body (declared or counted) is cancelled instead, so a
 * refusal never waits for a huge upload (the platform's body limit is 100 MB and more); the
 * portal takes nothing that large (a QR image: 2 MiB, brand images less).
 */
const DRAIN_LIMIT_BYTES = 8 * 1024 * 1024;

export async function finishRequestBody(request: Request): Promise<void> {
  const body = request.body;
  // GET/HEAD, or read by the route (formData(), json(), passed on to a fetch)
  if (body === null || request.bodyUsed) return;
  try {
    const declared = Number(request.headers.get("Content-Length") ?? "0");
    if (declared > DRAIN_LIMIT_BYTES) {
      await body.cancel();
      return;
    }
    const reader = body.getReader();
    let read = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      read += value.byteLength;
      if (read > DRAIN_LIMIT_BYTES) {
        await reader.cancel();
        return;
      }
    }
  } catch {
    // the client went away, or the stream is held by a reader of the route: nothing to finish
  }
}
