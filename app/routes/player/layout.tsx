import { Outlet, redirect } from "react-router";
import type { Route } from "./+types/layout";
import { playerContext } from "~/lib/context.server";

/**
 * Guard for everything under /player (SPEC §4): a visitor without a valid session goes
 * to /login?redirectTo=<the page they wanted>.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const player = context.get(playerContext);
  if (!player) {
    const url = new URL(request.url);
    throw redirect(`/login?redirectTo=${encodeURIComponent(url.pathname + url.search)}`);
  }
  return { player };
}

export default function PlayerLayout() {
  return <Outlet />;
}
