import type { RouterContextProvider } from "react-router";
import { getInstance } from "~/middleware/i18next.server";

/** "in 2 minutes" / "in 40 seconds", in the player's language. */
export function waitText(context: Readonly<RouterContextProvider>, seconds: number): string {
  const t = getInstance(context).t;
  return seconds >= 60 ? t("time.minutes", { count: Math.ceil(seconds / 60) }) : t("time.seconds", { count: seconds });
}

export function translate(context: Readonly<RouterContextProvider>, key: string, values?: Record<string, unknown>): string {
  return getInstance(context).t(key, values ?? {});
}
