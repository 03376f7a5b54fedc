import { chipTime } from "@workers/core/credit-chip";
import { isProvider } from "@workers/core/providers";
import { liveChipFigure } from "@workers/services/providers";
import { getAgency, getBindings, getWaitUntil, requirePlayer } from "~/lib/context.server";
import { formatMoney } from "~/lib/format";
import type { Route } from "./+types/credit-chip";

/** Each answer is of one moment and one player. */
const PRIVATE = { "Cache-Control": "private, no-store", "Content-Type": "application/json; charset=utf-8" };

/**
 * `/player/credit-chip[?provider=]`: the header chip's live figure (decision 081), formatted
 * here as the page formats it, so the lite part (lib/lite/credit-chip.ts) carries no money
 * formatting, sums or dates: `{ amount, short, full, at }`, or `null` while a provider is not
 * answering (the chip keeps the figure it shows: an expected state, not an error the browser
 * logs).
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const player = requirePlayer(context);
  const agency = getAgency(context);
  const asked = new URL(request.url).searchParams.get("provider");
  const provider = asked && isProvider(asked) && agency.enabledProviders.includes(asked) ? asked : null;
  if (asked && !provider) return new Response("null", { status: 404, headers: PRIVATE });
  const figure = await liveChipFigure(getBindings(context), agency, player, provider, getWaitUntil(context));
  if (!figure) return new Response("null", { headers: PRIVATE });
  const when = chipTime(figure.seenAt, figure.seenAt);
  const body = { amount: formatMoney(figure.amount, figure.currency), short: when.short, full: when.full, at: new Date(figure.seenAt).toISOString() };
  return new Response(JSON.stringify(body), { headers: PRIVATE });
}
