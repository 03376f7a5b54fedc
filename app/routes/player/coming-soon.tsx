import { useLocation } from "react-router";
import { useTranslation } from "react-i18next";
import { pathOf } from "~/lib/menu";

/**
 * Player screens whose issue has not landed yet (promotions): the route, its guard and its title exist; the screen says it opens soon.
 */
const TITLES: Record<string, string> = {
  "/player/promotion": "menu.promotion",
  "/player/promotion/history": "menu.promotionHistory",
};

export default function ComingSoon() {
  const { t } = useTranslation();
  const path = pathOf(useLocation().pathname);
  const key = TITLES[path] ?? "menu.promotion";
  return (
    <section className="page narrow">
      <title>{t(key)}</title>
      <h1>{t(key)}</h1>
      <p>{t("comingSoon")}</p>
    </section>
  );
}
