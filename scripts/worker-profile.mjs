// CPU profiles of the Workers running in local workerd, over its inspector (the DevTools
// protocol the vite plugin opens, port 9229 unless taken), for benchmarks that want to know
// where the time goes: `SETTLE_PROFILE=1 npx node scripts/bench-settlement.mjs` profiles each
// Worker (the portal with its wallets, both sandboxes) during the crowd and prints the
// functions that cost the most. Run it with PROFILE_UNMINIFIED=1 (an unminified build of
// its own) or the names are the minifier's. The profiler itself
// costs CPU: compare figures of profiled runs only with each other. Needs Node's global
// WebSocket (Node 22+: the project's own Node, as `npm run` scripts and `npx node` use).
import { writeFileSync } from "node:fs";

/**
 * Starts the sampling profiler in every Worker the inspector lists.
 * @param {number} port the inspector's port
 * @returns {Promise<() => Promise<Record<string, any>>>} stop: the profiles by Worker title
 */
export async function startWorkerProfiles(port = 9229) {
  if (typeof WebSocket === "undefined") throw new Error("profiling needs Node 22+ (its WebSocket): run with `npx node` or from an npm script");
  const targets = await (await fetch(`http://127.0.0.1:${port}/json`, { signal: AbortSignal.timeout(15_000) })).json();
  const sessions = await Promise.all(
    targets.map(async (/** @type {any} */ target) => {
      // The inspector proxy (miniflare's) closes at once, with no message, a connection that
      // has a User-Agent and no Origin, as Node's WebSocket sends it: give it a local Origin.
      const ws = new WebSocket(target.webSocketDebuggerUrl, { headers: { Origin: "http://localhost" } });
      await withTimeout(
        new Promise((resolve, reject) => {
          ws.addEventListener("open", resolve, { once: true });
          ws.addEventListener("error", reject, { once: true });
        }),
        `opening the inspector of ${target.title ?? target.id}`,
      );
      let id = 0;
      const pending = new Map();
      ws.addEventListener("message", (event) => {
        const message = JSON.parse(String(event.data));
        pending.get(message.id)?.(message);
        pending.delete(message.id);
      });
      /** @param {string} method @param {object} [params] */
      const send = (method, params = {}) =>
        withTimeout(
          new Promise((resolve) => {
            pending.set(++id, resolve);
            ws.send(JSON.stringify({ id, method, params }));
          }),
          `${method} in ${target.title ?? target.id}`,
        );
      await send("Profiler.enable");
      await send("Profiler.setSamplingInterval", { interval: 500 });
      await send("Profiler.start");
      return { title: String(target.title ?? target.id).replace(/^Cloudflare Worker: /, ""), ws, send };
    }),
  );
  return async () => {
    /** @type {Record<string, any>} */
    const profiles = {};
    for (const { title, ws, send } of sessions) {
      const answer = /** @type {any} */ (await send("Profiler.stop"));
      profiles[title] = answer.result?.profile;
      ws.close();
    }
    return profiles;
  };
}

/**
 * A step of the inspector that does not answer fails the bench instead of hanging it (seen in
 * session 27: a 50-player round waited forever, the machine idle).
 * @template T @param {Promise<T>} promise @param {string} what @returns {Promise<T>}
 */
function withTimeout(promise, what, ms = 30_000) {
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  const late = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer in ${ms / 1000} s: ${what} (is port 9229 this portal's inspector?)`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/**
 * The busiest functions of a profile: self time, and inclusive time (the function and what it
 * called), in ms; `file` also gets the raw profile (open it in Chrome DevTools).
 * @param {string} title @param {any} profile @param {string} [file]
 */
export function printProfile(title, profile, file) {
  if (file) writeFileSync(file, JSON.stringify(profile));
  const byId = new Map(profile.nodes.map((/** @type {any} */ n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const child of n.children ?? []) parent.set(child, n.id);
  const name = (/** @type {any} */ n) =>
    `${n.callFrame.functionName || "(anonymous)"} ${n.callFrame.url.split("/").slice(-1)[0]}:${n.callFrame.lineNumber + 1}`;
  const self = new Map();
  const inclusive = new Map();
  let busy = 0;
  profile.samples.forEach((/** @type {number} */ sample, /** @type {number} */ i) => {
    const us = profile.timeDeltas[i + 1] ?? 0;
    const node = byId.get(sample);
    if (["(idle)", "(program)"].includes(node.callFrame.functionName)) return;
    busy += us;
    self.set(name(node), (self.get(name(node)) ?? 0) + us);
    const seen = new Set();
    for (let at = sample; at !== undefined; at = parent.get(at)) {
      const key = name(byId.get(at));
      if (seen.has(key)) continue;
      seen.add(key);
      inclusive.set(key, (inclusive.get(key) ?? 0) + us);
    }
  });
  const top = (/** @type {Map<string, number>} */ map, n) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([k, v]) => `  ${(v / 1000).toFixed(0).padStart(7)} ms  ${k}`)
      .join("\n");
  console.log(
    `\n${title}: ${(busy / 1000).toFixed(0)} ms busy${file ? ` (profile: ${file})` : ""}\n self:\n${top(self, 25)}\n inclusive:\n${top(inclusive, 50)}`,
  );
}
