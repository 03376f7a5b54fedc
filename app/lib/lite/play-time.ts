import type { LiteContext } from "./context";

/**
 * "Time played today" counts on each minute (decision 025; the React version is
 * components/play-time.tsx): the server renders the exact figure and its inputs
 * (`data-played-ms`, `data-limit-minutes`); the same words come from the page's inlined
 * `limits` groups (the root declares them).
 */
export function playTimePart({ d, t }: LiteContext): void {
  const line = d.querySelector<HTMLElement>('[data-testid="time-played"][data-played-ms]');
  if (!line) return;
  const played = Number(line.dataset.playedMs);
  const limit = line.dataset.limitMinutes ? Number(line.dataset.limitMinutes) : null;
  const start = Date.now();
  const hm = (minutes: number) => t("limits.hm", { h: String(Math.floor(minutes / 60)), m: String(minutes % 60).padStart(2, "0") });
  setInterval(() => {
    const time = hm(Math.floor((played + Date.now() - start) / 60_000));
    line.textContent = limit === null ? t("limits.playedLine", { time }) : t("limits.playedLineOf", { time, limit: hm(limit) });
  }, 60_000);
}
