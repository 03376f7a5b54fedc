import { OffersPaused } from "~/components/offers-paused";
import { Form } from "react-router";
import { useTranslation } from "react-i18next";
import { cashbackPage, claimCashback } from "@workers/services/promotions";
import { RewardHistory } from "~/components/reward-history";
import { translate } from "~/lib/i18n.server";
import { getAgency, getBindings, requirePlayer } from "~/lib/context.server";
import { formatDay, formatMoney } from "~/lib/format";
import { sharedRefusal, type CashbackRefusal } from "@workers/core/cashback";
import { redirectWithError, redirectWithSuccess } from "~/lib/toast.server";
import type { Route } from "./+types/cashback";
import { loadAsDocument, type ScriptsHandle } from "~/lib/page-scripts";
import type { I18nHandle } from "~/lib/i18n";

/**
 * Weekly cashback (decision 029): last complete week's net loss per provider,
 * what each pays, one claim button per provider (plain POST: works without JavaScript),
 * and the rewards credited so far with their turnover progress. Why a line cannot be claimed
 * is said on the line.
 */
export const handle = { scripts: "lite", i18n: ["cashback", "cashbackAll", "offers", "reward", "history", "status"] } satisfies ScriptsHandle & I18nHandle;
/** No React in the browser (decision 034): a link from a page that hydrates loads it as a document. */
export const clientLoader = loadAsDocument;

export async function loader({ context }: Route.LoaderArgs) {
  const player = requirePlayer(context);
  const page = await cashbackPage(getBindings(context), getAgency(context), player);
  return { ...page, history: page.history.map((r) => ({ ...r, createdAt: new Date(r.createdAt).toISOString() })) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const player = requirePlayer(context);
  const form = await request.formData();
  const claimed = await claimCashback(getBindings(context), getAgency(context), player, { provider: String(form.get("provider") ?? "") });
  if (!claimed.ok) return redirectWithError({ request, context }, "/player/cashback", translate(context, `cashback.errors.${claimed.error}`));
  const message = translate(context, claimed.reward.status === "SUCCESS" ? "cashback.claimed" : "cashback.claimPending", { amount: claimed.reward.amount });
  return redirectWithSuccess({ request, context }, "/player/cashback", message);
}

/** Reasons worded for one provider ("at this provider"): said for all of them in words of their own (the rules paragraph already says the disabled one). */
const SAID_FOR_ALL: ReadonlySet<string> = new Set<CashbackRefusal>(["CASHBACK_NOTHING_LOST", "CASHBACK_ALREADY_CLAIMED"]);

export default function Cashback({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { week, settings, lines, history, paused } = loaderData;
  return (
    <section className="page" data-testid="cashback">
      <title>{t("cashback.title")}</title>
      <h1>{t("cashback.title")}</h1>
      {/* offers paused (decision 091): neither the rules nor the week's amounts, only why */}
      {paused ? <OffersPaused pause={paused} /> : <CashbackOffer week={week} settings={settings} lines={lines} />}
      <RewardHistory history={history} detail={{ label: t("reward.col.period"), cell: (r) => r.period }} />
    </section>
  );
}

/** The week's cashback on offer: the rules, and per provider what a claim pays or why it cannot. */
function CashbackOffer({ week, settings, lines }: Pick<Route.ComponentProps["loaderData"], "week" | "settings" | "lines">) {
  const { t } = useTranslation();
  // the same reason at every provider: said once, above the list, not on each card
  const shared = sharedRefusal(lines);
  return (
    <>
      <p className="muted" data-testid="cashback-rules">
        {settings.enabled
          ? t("cashback.rules", {
              percent: settings.percent,
              cap: formatMoney(settings.cap, "THB"),
              min: formatMoney(settings.min, "THB"),
              multiple: settings.turnoverMultiple,
            })
          : t("cashback.errors.CASHBACK_DISABLED")}
      </p>
      <h2>{t("cashback.week", { from: formatDay(week.from), to: formatDay(week.to) })}</h2>
      {shared && shared !== "CASHBACK_DISABLED" && (
        <p className="notice" role="note" data-testid="refusal" data-refusal={shared}>
          {t(SAID_FOR_ALL.has(shared) ? `cashbackAll.${shared}` : `cashback.errors.${shared}`)}
        </p>
      )}
      <ul className="card-list" role="list" data-testid="cashback-lines">
        {lines.map((line) => (
          <li key={line.provider} className="card" data-provider={line.provider} data-testid={`cashback-${line.provider}`}>
            <p className="card-title">{t(`providers.${line.provider}`)}</p>
            <p>
              {t("cashback.netLoss")}: <span data-testid="net-loss">{formatMoney(line.netLoss, "THB")}</span> · {t("cashback.amount")}:{" "}
              <strong data-testid="cashback-amount">{formatMoney(line.cashback, "THB")}</strong>
            </p>
            {line.claimable ? (
              <Form method="post">
                <input type="hidden" name="provider" value={line.provider} />
                <button type="submit" className="button button-primary" data-testid="claim">
                  {t("cashback.claim")}
                </button>
              </Form>
            ) : (
              !shared && (
                <p className="notice" role="note" data-testid="refusal" data-refusal={line.refusal ?? undefined}>
                  {t(`cashback.errors.${line.refusal}`)}
                </p>
              )
            )}
          </li>
        ))}
      </ul>
    </>
  );
}
