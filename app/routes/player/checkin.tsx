import { Form } from "react-router";
import { useTranslation } from "react-i18next";
import { checkIn, checkinPage, claimStreak } from "@workers/services/promotions";
import { OffersPaused } from "~/components/offers-paused";
import { RewardHistory } from "~/components/reward-history";
import { getAgency, getBindings, requirePlayer } from "~/lib/context.server";
import { formatDay, formatMoney } from "~/lib/format";
import { translate } from "~/lib/i18n.server";
import { loadAsDocument, type ScriptsHandle } from "~/lib/page-scripts";
import type { I18nHandle } from "~/lib/i18n";
import { CheckinClaimSchema } from "~/lib/schemas/checkin";
import { redirectWithError, redirectWithSuccess } from "~/lib/toast.server";
import type { Route } from "./+types/checkin";

/**
 * Daily check-in and the deposit streak (decision 095): check in once a Vientiane day at a
 * provider of the player's choice; the streak's days so far and, once reached, its claim; the
 * rewards credited so far with their turnover progress. Plain POST forms (no JavaScript
 * needed); a lite page (decision 034). While offers are paused only why (decision 091).
 */
export const handle = { scripts: "lite", i18n: ["checkin", "offers", "reward", "history", "status"] } satisfies ScriptsHandle & I18nHandle;
export const clientLoader = loadAsDocument;

export async function loader({ context }: Route.LoaderArgs) {
  const page = await checkinPage(getBindings(context), getAgency(context), requirePlayer(context));
  return { ...page, history: page.history.map((r) => ({ ...r, createdAt: new Date(r.createdAt).toISOString() })) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const player = requirePlayer(context);
  const form = await request.formData();
  const back = "/player/checkin";
  const parsed = CheckinClaimSchema.safeParse({ provider: form.get("provider") });
  if (!parsed.success) return redirectWithError({ request, context }, back, translate(context, "checkin.errors.PROVIDER_REQUIRED"));
  const claim = form.get("intent") === "streak" ? claimStreak : checkIn;
  const result = await claim(getBindings(context), getAgency(context), player, parsed.data);
  if (!result.ok) {
    const key = result.error === "OFFERS_PAUSED" ? "offers.errors.OFFERS_PAUSED" : `checkin.errors.${result.error}`;
    return redirectWithError({ request, context }, back, translate(context, key));
  }
  const done = result.reward.status === "SUCCESS" ? "credited" : "pending";
  return redirectWithSuccess({ request, context }, back, translate(context, `checkin.${done}`, { amount: formatMoney(result.reward.amount, "THB") }));
}

export default function Checkin({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { offer, paused, history } = loaderData;
  return (
    <section className="page" data-testid="checkin">
      <title>{t("checkin.title")}</title>
      <h1>{t("checkin.title")}</h1>
      {/* offers paused (decision 091): no check-in, no streak, not even its progress; only why */}
      {paused ? <OffersPaused pause={paused} /> : offer && <Offer offer={offer} />}
      <RewardHistory history={history} detail={{ label: t("checkin.col.kind"), cell: (r) => <span data-kind={r.kind}>{t(`checkin.kind.${r.kind}`)}</span> }} />
    </section>
  );
}

type OfferView = NonNullable<Route.ComponentProps["loaderData"]["offer"]>;

function Offer({ offer }: { offer: OfferView }) {
  const { t } = useTranslation();
  const { settings, checkin, streak, providers, today } = offer;
  return (
    <div className="stack">
      <div className="card stack" data-testid="checkin-today">
        <p className="card-title">{t("checkin.today", { day: formatDay(today) })}</p>
        {settings.checkinEnabled && (
          <p className="muted" data-testid="checkin-rules">
            {t(settings.checkinMultiple === "0" ? "checkin.rulesNoTurnover" : "checkin.rules", {
              amount: formatMoney(settings.checkinAmount, "THB"),
              multiple: settings.checkinMultiple,
            })}
          </p>
        )}
        {checkin.refusal === null ? (
          <ClaimForm intent="checkin" providers={providers} label={t("checkin.checkIn", { amount: formatMoney(settings.checkinAmount, "THB") })} />
        ) : (
          <p className="notice" role="note" data-testid="checkin-refusal" data-refusal={checkin.refusal}>
            {checkin.claimed
              ? t(checkin.claimed.status === "PENDING" ? "checkin.checkedInPending" : "checkin.checkedIn", {
                  amount: formatMoney(checkin.claimed.amount, "THB"),
                  provider: t(`providers.${checkin.claimed.provider}`),
                })
              : t(`checkin.errors.${checkin.refusal}`)}
          </p>
        )}
      </div>
      <div className="card stack" data-testid="streak" data-days={streak.progress.days} data-of={streak.progress.of}>
        <p className="card-title">{t("checkin.streakTitle")}</p>
        {settings.streakEnabled ? (
          <>
            <p className="muted" data-testid="streak-rules">
              {t(settings.streakMultiple === "0" ? "checkin.streakRulesNoTurnover" : "checkin.streakRules", {
                days: settings.streakDays,
                amount: formatMoney(settings.streakAmount, "THB"),
                multiple: settings.streakMultiple,
              })}
            </p>
            <p>
              <progress max={streak.progress.of} value={streak.progress.days} aria-hidden="true" />{" "}
              <strong data-testid="streak-progress">{t("checkin.streakProgress", { days: streak.progress.days, of: streak.progress.of })}</strong>
            </p>
            {streak.refusal === null ? (
              <ClaimForm intent="streak" providers={providers} label={t("checkin.streakClaim", { amount: formatMoney(settings.streakAmount, "THB") })} />
            ) : (
              <p className="notice" role="note" data-testid="streak-refusal" data-refusal={streak.refusal}>
                {streak.claimed
                  ? t("checkin.streakClaimed", { amount: formatMoney(streak.claimed.amount, "THB"), provider: t(`providers.${streak.claimed.provider}`) })
                  : t(`checkin.errors.${streak.refusal}`)}
              </p>
            )}
          </>
        ) : (
          <p className="notice" role="note" data-testid="streak-refusal" data-refusal="STREAK_DISABLED">
            {t("checkin.errors.STREAK_DISABLED")}
          </p>
        )}
      </div>
    </div>
  );
}

/** One claim: the provider the credit lands at, then the button (a plain POST). */
function ClaimForm({ intent, providers, label }: { intent: "checkin" | "streak"; providers: readonly string[]; label: string }) {
  const { t } = useTranslation();
  return (
    <Form method="post" className="stack" data-testid={`${intent}-form`}>
      <input type="hidden" name="intent" value={intent} />
      <div className="field">
        <label htmlFor={`${intent}-provider`}>{t("checkin.provider")}</label>
        <select id={`${intent}-provider`} name="provider" defaultValue={providers[0] ?? ""}>
          {providers.map((p) => (
            <option key={p} value={p}>
              {t(`providers.${p}`)}
            </option>
          ))}
        </select>
      </div>
      <button type="submit" className="button button-primary button-block" data-testid={`${intent}-submit`}>
        {label}
      </button>
    </Form>
  );
}
