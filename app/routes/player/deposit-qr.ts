import { depositQrPicture } from "@workers/services/deposits";
import { getAgency, getBindings, requirePlayer } from "~/lib/context.server";
import type { Route } from "./+types/deposit-qr";

/** Never kept by a browser or a proxy: the picture is a payment request of one player, valid minutes. */
const PRIVATE = { "Cache-Control": "private, no-store" };

/**
 * `/player/deposit/qr/<code>.png`: "Save QR" (decision 080), the logged-in player's own open
 * order's QR as a PNG to open from a bank app's "scan from gallery". A plain link with a file
 * name, so it works without JavaScript; with it, lib/lite/save-qr.ts shares the same file.
 */
export async function loader({ params, context }: Route.LoaderArgs) {
  const player = requirePlayer(context);
  const code = /^([A-Z0-9]{1,25})\.png$/.exec(params.file)?.[1];
  const picture = code ? await depositQrPicture(getBindings(context), getAgency(context).id, player.id, code) : null;
  if (!picture) return new Response("Not Found", { status: 404, headers: { ...PRIVATE, "Content-Type": "text/plain; charset=utf-8" } });
  return new Response(picture.png, {
    headers: {
      ...PRIVATE,
      "Content-Type": "image/png",
      "Content-Disposition": `attachment; filename="${picture.fileName}"`,
      "X-Content-Type-Options": "nosniff",
    },
  });
}
