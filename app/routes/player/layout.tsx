import { Outlet, redirect } from "react-router";
import { useTranslation } from "react-i18next";
import type { Route } from "./+types/layout";
import { getAgency, getBindings, playerContext } from "~/lib/context.server";
import { takeOrderNotices } from "@workers/services/wallets";
import { formatMoney } from "~/lib/format";
import { DEPOSIT_SUCCESS, WITHDRAW_NOTICE, hookProps } from "~/lib/lite/hooks";
import { GAME_LINKS } from "~/lib/menu";

/** A provider's lobby: the menu's link (with its opening tab) where it has one. */
function lobbyLink(provider: string): string {
  return GAME_LINKS[provider as keyof typeof GAME_LINKS] ?? `/player/game/${encodeURIComponent(provider)}`;
}

/**
 * Guard for everything under /player (docs/product.md §4): a visitor without a valid session goes
 * to /login?redirectTo=<the page they wanted>.
 */
/** The translation key groups this page renders (decision 032). */
export const handle = { i18n: ["deposit.successful", "withdraw.successful", "withdraw.rejected", "providers"] };

export async function loader({ request, context }: Route.LoaderArgs) {
  const player = context.get(playerContext);
  if (!player) {
    const url = new URL(request.url);
    throw redirect(`/login?redirectTo=${encodeURIComponent(url.pathname + url.search)}`);
  }
  // Staff reset the password: nothing else until the player has chosen a new one.
  // (Client navigations ask for `<path>.data`: the same page.)
  if (player.mustChangePassword && new URL(request.url).pathname.replace(/\.data$/, "").replace(/\/$/, "") !== "/player/password")
    throw redirect("/player/password");
  // Deposits that settled since the player last looked are announced once, on whatever
  // player page comes next (docs/product.md §8 "deposit successful" with the value).
  return takeOrderNotices(getBindings(context), getAgency(context).id, player.id);
}

export default function PlayerLayout({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  return (
    <>
      {loaderData.notices.map((n) => (
        <p key={n.code} className="notice notice-success page-notice" role="status" {...hookProps(DEPOSIT_SUCCESS)}>
          {t("deposit.successful", { credit: formatMoney(n.credit, "THB"), provider: t(`providers.${n.provider}`) })}{" "}
          {/* the credit just landed there: one tap to play with it */}
          <a href={lobbyLink(n.provider)} className="button button-primary notice-action" data-testid="deposit-play-now">
            {t("creditChip.playNow")}
          </a>
        </p>
      ))}
      {loaderData.withdrawals.map((w) => (
        <p key={w.code} className={`notice page-notice ${w.status === "SUCCESS" ? "notice-success" : ""}`} role="status" {...hookProps(WITHDRAW_NOTICE)}>
          {w.status === "SUCCESS" ? t("withdraw.successful", { received: formatMoney(w.received, "LAK") }) : t("withdraw.rejected")}
        </p>
      ))}
      <Outlet />
    </>
  );
}
