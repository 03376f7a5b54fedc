import type { OfferPause } from "@workers/core/responsible-gaming";
import { OffersPaused } from "~/components/offers-paused";
import { data, Form, Link } from "react-router";
import { useTranslation } from "react-i18next";
import { claimPromotion, promotionDetailPage } from "@workers/services/promotions";
import { CurrentPromotion, PromotionRuleList } from "~/components/promotion";
import { translate } from "~/lib/i18n.server";
import { getAgency, getBindings, requirePlayer } from "~/lib/context.server";
import { cancelClaimAction, promotionErrorMessage } from "~/lib/promotion.server";
import { redirectWithSuccess } from "~/lib/toast.server";
import { getLocale } from "~/middleware/i18next.server";
import type { Route } from "./+types/promotion-detail";
import { loadAsDocument, type ScriptsHandle } from "~/lib/page-scripts";
import type { I18nHandle } from "~/lib/i18n";

/** The translation key groups this page renders (decision 032). */
export const handle = { scripts: "lite", i18n: ["promotion", "offers", "errors.code.PROMOTION_BANK_ACCOUNT_REQUIRED"] } satisfies ScriptsHandle & I18nHandle;
/** No React in the browser (decision 034): a link from a page that hydrates loads it as a document. */
export const clientLoader = loadAsDocument;

export async function loader({ params, context }: Route.LoaderArgs) {
  const player = requirePlayer(context);
  const page = await promotionDetailPage(getBindings(context), getAgency(context), player, params.promotionId, getLocale(context));
  if (!page) throw data(null, { status: 404 });
  return page;
}

type ActionData = { confirmCancel: boolean; confirmClaim: string | null; error: string | null };

/**
 * Claim is two posts — choose the provider, then confirm — so a player never claims by a
 * stray tap, with or without JavaScript. The rules are judged at the second post.
 */
export async function action({ request, params, context }: Route.ActionArgs) {
  const player = requirePlayer(context);
  const agency = getAgency(context);
  const form = await request.formData();
  const intent = form.get("intent");
  const here = `/player/promotion/${params.promotionId}`;
  const provider = String(form.get("provider") ?? "");
  if (intent === "cancel-request") return data<ActionData>({ confirmCancel: true, confirmClaim: null, error: null });
  if (intent === "cancel") return cancelClaimAction({ request, context }, agency, player, String(form.get("usageId") ?? ""), here);
  if (intent === "claim-request") {
    if (!provider)
      return data<ActionData>({ confirmCancel: false, confirmClaim: null, error: translate(context, "promotion.chooseProvider") }, { status: 400 });
    return data<ActionData>({ confirmCancel: false, confirmClaim: provider, error: null });
  }
  if (intent === "claim") {
    const claimed = await claimPromotion(getBindings(context), agency, player, { promotionId: params.promotionId, provider });
    if (!claimed.ok) {
      const message =
        claimed.error === "OFFERS_PAUSED"
          ? translate(context, "offers.errors.OFFERS_PAUSED")
          : claimed.error === "REWARD_REFUSED"
            ? translate(context, "reward.errors.REWARD_REFUSED")
            : claimed.error === "PROVIDER_UNAVAILABLE"
              ? translate(context, "errors.code.PROVIDER_UNAVAILABLE")
              : promotionErrorMessage(context, claimed.error, { threshold: claimed.creditThreshold });
      return data<ActionData>({ confirmCancel: false, confirmClaim: null, error: message }, { status: 409 });
    }
    // Next step is the deposit that carries the promotion.
    return redirectWithSuccess({ request, context }, "/player/deposit", translate(context, "promotion.claimed"));
  }
  return data<ActionData>({ confirmCancel: false, confirmClaim: null, error: null }, { status: 400 });
}

export default function PromotionDetail({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  // offers paused (decision 091): the promotion itself is not shown, only why
  if (loaderData.promotion === null) return <PausedPromotion pause={loaderData.paused} />;
  const { promotion, providers, current, hasBank, paused } = loaderData;
  const here = `/player/promotion/${promotion.id}`;
  const confirmClaim = actionData?.confirmClaim ?? null;
  return (
    <section className="page narrow">
      <title>{promotion.title}</title>
      <p>
        <Link to="/player/promotion">{t("promotion.allPromotions")}</Link>
      </p>
      <h1>{promotion.title}</h1>
      {current && <CurrentPromotion current={current} confirmCancel={actionData?.confirmCancel ?? false} action={here} />}
      {promotion.imageUrl && <img src={promotion.imageUrl} alt="" width={640} height={240} decoding="async" className="promotion-image" />}
      <p data-testid="promotion-description">{promotion.description}</p>
      <h2>{t("promotion.rulesTitle")}</h2>
      <PromotionRuleList rules={promotion.rules} />
      {actionData?.error && (
        <p className="form-alert" role="alert" data-testid="promotion-error">
          {actionData.error}
        </p>
      )}
      {paused ? (
        <OffersPaused pause={paused} />
      ) : promotion.status !== "ACTIVE" ? (
        <p className="notice" data-testid="promotion-inactive">
          {t("promotion.inactive")}
        </p>
      ) : current ? (
        current.promotionId !== promotion.id && <p className="notice">{t("promotion.inUseElsewhere")}</p>
      ) : !hasBank ? (
        <p className="notice" data-testid="promotion-bank-required">
          {t("errors.code.PROMOTION_BANK_ACCOUNT_REQUIRED")} <Link to="/player/bank">{t("menu.bankAccount")}</Link>
        </p>
      ) : confirmClaim ? (
        <Form method="post" className="confirm" data-testid="claim-confirm">
          <p>{t("promotion.claimConfirm", { title: promotion.title, provider: t(`providers.${confirmClaim}`) })}</p>
          <input type="hidden" name="provider" value={confirmClaim} />
          <div className="form-actions">
            <Link to={here} className="button button-ghost">
              {t("promotion.back")}
            </Link>
            <button type="submit" name="intent" value="claim" className="button button-primary">
              {t("promotion.claimYes")}
            </button>
          </div>
        </Form>
      ) : (
        <Form method="post" className="stack" data-testid="claim-form">
          <div className="field">
            <label htmlFor="claim-provider">{t("promotion.provider")}</label>
            <select id="claim-provider" name="provider" defaultValue={providers[0] ?? ""}>
              {providers.map((p) => (
                <option key={p} value={p}>
                  {t(`providers.${p}`)}
                </option>
              ))}
            </select>
          </div>
          <button type="submit" name="intent" value="claim-request" className="button button-primary button-block">
            {t("promotion.claim")}
          </button>
        </Form>
      )}
    </section>
  );
}

function PausedPromotion({ pause }: { pause: OfferPause }) {
  const { t } = useTranslation();
  return (
    <section className="page narrow">
      <title>{t("menu.promotion")}</title>
      <p>
        <Link to="/player/promotion">{t("promotion.allPromotions")}</Link>
      </p>
      <h1>{t("menu.promotion")}</h1>
      <OffersPaused pause={pause} />
    </section>
  );
}
