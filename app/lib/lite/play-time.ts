import type { LiteContext } from "./context";
import { LIMIT_MINUTES, PLAYED_MS, TIME_PLAYED } from "./hooks";

/**
 * "Time played today" counts on each minute (decision 025; the React version is
 * components/play-time.tsx): the server renders the exact figure and its inputs
 * (`data-played-ms`, `data-limit-minutes`); the same words come from the page's inlined
 * `limits` groups (the root declares them).
 */
export function playTimePart({ d, t }: LiteContext): void {
  const line = d.querySelector<HTMLElement>(`${TIME_PLAYED.selector}${PLAYED_MS.selector}`);
  if (!line) return;
  const played = Number(line.getAttribute(PLAYED_MS.attribute));
  const limit = line.getAttribute(LIMIT_MINUTES.attribute) ? Number(line.getAttribute(LIMIT_MINUTES.attribute)) : null;
  const start = Date.now();
  const hm = (minutes: number) => t("limits.hm", { h: String(Math.floor(minutes / 60)), m: String(minutes % 60).padStart(2, "0") });
  setInterval(() => {
    const time = hm(Math.floor((played + Date.now() - start) / 60_000));
    line.textContent = limit === null ? t("limits.playedLine", { time }) : t("limits.playedLineOf", { time, limit: hm(limit) });
  }, 60_000);
}
