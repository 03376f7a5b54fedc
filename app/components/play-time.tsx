import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { LIMIT_MINUTES, PLAYED_MS, TIME_PLAYED, hookProps } from "~/lib/lite/hooks";

/**
 * "Time played today" on every page of a logged-in player (decision 025): games open on the
 * provider's own page, so the portal shows the clock instead of an in-game overlay. The
 * server's figure is exact at render; with JavaScript it counts on each minute (on a lite page,
 * lib/lite/play-time.ts from the data attributes).
 */
export function PlayTime({ playedMs, limitMinutes }: { playedMs: number; limitMinutes: number | null }) {
  const { t } = useTranslation();
  const [extra, setExtra] = useState(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies(playedMs): a new figure from the server starts the count again
  useEffect(() => {
    const start = Date.now();
    setExtra(0);
    const timer = setInterval(() => setExtra(Date.now() - start), 60_000);
    return () => clearInterval(timer);
  }, [playedMs]);
  const hm = (minutes: number) => t("limits.hm", { h: Math.floor(minutes / 60), m: String(minutes % 60).padStart(2, "0") });
  const time = hm(Math.floor((playedMs + extra) / 60_000));
  return (
    <p
      className="page-notice muted"
      {...hookProps(TIME_PLAYED)}
      {...hookProps(PLAYED_MS, playedMs)}
      {...(limitMinutes ? hookProps(LIMIT_MINUTES, limitMinutes) : {})}
    >
      {limitMinutes === null ? t("limits.playedLine", { time }) : t("limits.playedLineOf", { time, limit: hm(limitMinutes) })}
    </p>
  );
}
