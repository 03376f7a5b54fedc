import { data, Link } from "react-router";
import { useTranslation } from "react-i18next";
import { promotionListPage } from "@workers/services/promotions";
import { OffersPaused } from "~/components/offers-paused";
import { CurrentPromotion, PromotionRuleList } from "~/components/promotion";
import { getAgency, getBindings, requirePlayer } from "~/lib/context.server";
import { cancelClaimAction } from "~/lib/promotion.server";
import { getLocale } from "~/middleware/i18next.server";
import type { Route } from "./+types/promotion";
import { loadAsDocument, type ScriptsHandle } from "~/lib/page-scripts";
import type { I18nHandle } from "~/lib/i18n";

/** The translation key groups this page renders (decision 032). */
export const handle = { scripts: "lite", i18n: ["promotion", "offers"] } satisfies ScriptsHandle & I18nHandle;
/** No React in the browser (decision 034): a link from a page that hydrates loads it as a document. */
export const clientLoader = loadAsDocument;

export async function loader({ context }: Route.LoaderArgs) {
  const player = requirePlayer(context);
  return promotionListPage(getBindings(context), getAgency(context), player, getLocale(context));
}

export async function action({ request, context }: Route.ActionArgs) {
  const player = requirePlayer(context);
  const agency = getAgency(context);
  const form = await request.formData();
  const intent = form.get("intent");
  if (intent === "cancel-request") return data({ confirmCancel: true });
  if (intent === "cancel") return cancelClaimAction({ request, context }, agency, player, String(form.get("usageId") ?? ""), "/player/promotion");
  return data({ confirmCancel: false }, { status: 400 });
}

export default function PromotionList({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { current, promotions, paused } = loaderData;
  return (
    <section className="page">
      <title>{t("menu.promotion")}</title>
      <h1>{t("menu.promotion")}</h1>
      {current && <CurrentPromotion current={current} confirmCancel={actionData?.confirmCancel ?? false} action="/player/promotion" />}
      {paused ? (
        <OffersPaused pause={paused} />
      ) : promotions.length === 0 ? (
        <div className="empty" data-testid="promotions-empty">
          <p>{t("promotion.empty")}</p>
        </div>
      ) : (
        <ul className="card-list promotions" data-testid="promotion-list">
          {promotions.map((p) => (
            <li key={p.id} className="card promotion-card" data-promotion-id={p.id} data-current={current?.promotionId === p.id ? "" : undefined}>
              {p.imageUrl && <img src={p.imageUrl} alt="" width={640} height={240} loading="lazy" decoding="async" />}
              <h2 className="card-title">{p.title}</h2>
              <p>{p.description}</p>
              <PromotionRuleList rules={p.rules} />
              <Link to={`/player/promotion/${p.id}`} className="button button-primary" aria-label={`${t("promotion.details")}: ${p.title}`}>
                {t("promotion.details")}
              </Link>
            </li>
          ))}
        </ul>
      )}
      <p>
        <Link to="/player/promotion/history">{t("menu.promotionHistory")}</Link>
      </p>
    </section>
  );
}
