import { OffersPaused } from "~/components/offers-paused";
import { data, Form } from "react-router";
import { useTranslation } from "react-i18next";
import { claimReferralWeek, referralPage, type WeekView } from "@workers/services/promotions";
import { HistoryTable } from "~/components/money";
import { RewardTurnover } from "~/components/reward-turnover";
import { getAgency, getBindings, requirePlayer } from "~/lib/context.server";
import { formatDateTime, formatDay, formatMoney } from "~/lib/format";
import { translate } from "~/lib/i18n.server";
import { ReferralClaimSchema } from "~/lib/schemas/referral";
import { redirectWithSuccess } from "~/lib/toast.server";
import type { Route } from "./+types/referral";
import { loadAsDocument, type ScriptsHandle } from "~/lib/page-scripts";
import type { I18nHandle } from "~/lib/i18n";
import { COPIED, COPY, hookProps } from "~/lib/lite/hooks";

/**
 * The player's referral page (decision 030): link and code, who joined (counting or not, and
 * why), the share of each complete week, its claim to a provider, and the claims made. Plain
 * forms: everything works with JavaScript off; the copy button is extra (the link is text).
 */
export const handle = {
  scripts: "lite",
  lite: ["copy"],
  i18n: ["referral", "offers", "reward.turnoverProgress", "reward.turnoverMet", "history", "status"],
} satisfies ScriptsHandle & I18nHandle;
/** No React in the browser (decision 034): a link from a page that hydrates loads it as a document. */
export const clientLoader = loadAsDocument;

export async function loader({ request, context }: Route.LoaderArgs) {
  const player = requirePlayer(context);
  const page = await referralPage(getBindings(context), getAgency(context), player);
  return { ...page, link: new URL(page.linkPath, request.url).href };
}

export async function action({ request, context }: Route.ActionArgs) {
  const player = requirePlayer(context);
  const parsed = ReferralClaimSchema.safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success) return data({ error: translate(context, "referral.validation.provider"), week: null }, { status: 400 });
  const claimed = await claimReferralWeek(getBindings(context), getAgency(context), player, parsed.data);
  if (!claimed.ok) return data({ error: translate(context, `referral.errors.${claimed.error}`), week: parsed.data.week }, { status: 409 });
  return redirectWithSuccess(
    { request, context },
    "/player/referral",
    translate(context, claimed.pending ? "referral.claimedPending" : "referral.claimed", {
      amount: formatMoney(claimed.amount, "THB"),
      provider: translate(context, `providers.${claimed.provider}`),
      turnover: formatMoney(claimed.turnover, "THB"),
    }),
  );
}

export default function ReferralPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { code, link, settings, referred, counting, notCounting, weeks, history, providers, paused } = loaderData;
  return (
    <section className="page narrow" data-testid="referral-page">
      <title>{t("referral.title")}</title>
      <h1>{t("referral.title")}</h1>
      {!settings.enabled && (
        <p className="notice" data-testid="referral-off">
          {t("referral.off")}
        </p>
      )}
      <div className="card stack">
        <p className="card-title">{t("referral.yourLink")}</p>
        {/* Plain text: selectable and copyable by hand without JavaScript. */}
        <p className="referral-link" data-testid="referral-link" style={{ overflowWrap: "anywhere", userSelect: "all" }}>
          {link}
        </p>
        <CopyButton text={link} />
        <p>
          {t("referral.yourCode")}: <strong data-testid="referral-code">{code}</strong>
        </p>
      </div>
      {/* offers paused (decision 091): the share's rules and the weeks' amounts are not shown */}
      {paused && <OffersPaused pause={paused} />}
      {settings.enabled && !paused && (
        <p className="muted" data-testid="referral-rules">
          {t(`referral.rules.${settings.mode}`, { percent: settings.percent })}{" "}
          {settings.weeklyCap ? t("referral.rules.cap", { cap: formatMoney(settings.weeklyCap, "THB") }) : ""}{" "}
          {t("referral.rules.claim", { times: settings.turnoverMultiplier })}
        </p>
      )}

      <h2>{t("referral.referredTitle")}</h2>
      <p data-testid="referral-counts">{t("referral.counts", { counting, notCounting })}</p>
      {referred.length > 0 && (
        <ul className="card-list" role="list" data-testid="referral-referred">
          {referred.map((r, i) => (
            <li key={i} className="card" data-counts={r.counts ? "yes" : "no"}>
              <strong>{r.username}</strong> <span className="muted">{formatDateTime(r.createdAt)}</span>
              <br />
              {r.counts ? t("referral.counting") : t(`referral.notCountingReason.${r.reason ?? "same_device"}`)}
            </li>
          ))}
        </ul>
      )}

      <h2>{t("referral.weeksTitle")}</h2>
      {actionData?.error && (
        <p className="form-alert" role="alert" data-testid="referral-error">
          {actionData.error}
        </p>
      )}
      {paused ? null : weeks.length === 0 ? (
        <p className="empty" data-testid="referral-no-weeks">
          {t("referral.noWeeks")}
        </p>
      ) : (
        <ul className="card-list" role="list" data-testid="referral-weeks">
          {weeks.map((w) => (
            <WeekCard key={w.week} week={w} providers={providers} enabled={settings.enabled} />
          ))}
        </ul>
      )}

      <h2>{t("referral.historyTitle")}</h2>
      {history.length === 0 ? (
        <p className="empty" data-testid="referral-history-empty">
          {t("referral.historyEmpty")}
        </p>
      ) : (
        <HistoryTable
          testId="referral-history"
          rows={history.map((c) => ({ ...c, code: c.week }))}
          columns={[
            { label: t("referral.week"), cell: (c) => t("referral.weekRange", { from: formatDay(c.week), to: formatDay(c.weekEnd) }) },
            { label: t("history.provider"), cell: (c) => t(`providers.${c.provider}`) },
            { label: t("referral.amount"), cell: (c) => formatMoney(c.amount, "THB") },
            { label: t("referral.turnover"), cell: (c) => <RewardTurnover target={c.turnover} done={c.turnoverDone} met={c.turnoverMet} /> },
            { label: t("history.status"), cell: (c) => t(`referral.status.${c.status}`) },
            { label: t("history.dateTime"), cell: (c) => formatDateTime(c.createdAt) },
          ]}
        />
      )}
    </section>
  );
}

function WeekCard({ week, providers, enabled }: { week: WeekView; providers: string[]; enabled: boolean }) {
  const { t } = useTranslation();
  const claimable = enabled && !week.claim && Number(week.amount) > 0;
  // held for review (decision 094): said instead of the claim button, which would only be held again
  const pending = week.claim?.status === "PENDING" && week.held === null;
  return (
    <li className="card stack" data-week={week.week} data-testid="referral-week">
      <p className="card-title">{t("referral.weekRange", { from: formatDay(week.week), to: formatDay(week.weekEnd) })}</p>
      <p>
        {t("referral.weekLine", { counted: week.counted, basis: formatMoney(week.basis, "THB"), amount: formatMoney(week.amount, "THB") })}
        {week.capped && <span className="muted"> {t("referral.capped")}</span>}
      </p>
      {week.claim && week.claim.status !== "PENDING" && (
        <p data-testid="referral-week-claimed">
          {t("referral.claimedAt", { provider: t(`providers.${week.claim.provider}`), at: formatDateTime(week.claim.createdAt) })}
        </p>
      )}
      {week.held && (
        <p className="notice" role="note" data-testid="referral-week-held" data-held={week.held}>
          {t(week.held === "HELD" ? "referral.errors.REWARD_HELD" : "referral.errors.REWARD_REFUSED")}
        </p>
      )}
      {(claimable || pending) && (
        <Form method="post" className="stack" data-testid="referral-claim-form">
          <input type="hidden" name="week" value={week.week} />
          <div className="field">
            <label htmlFor={`provider-${week.week}`}>{t("referral.provider")}</label>
            <select id={`provider-${week.week}`} name="provider" defaultValue={week.claim?.provider ?? providers[0] ?? ""}>
              {providers.map((p) => (
                <option key={p} value={p}>
                  {t(`providers.${p}`)}
                </option>
              ))}
            </select>
          </div>
          {pending && <p className="muted">{t("referral.pending")}</p>}
          <button type="submit" className="button button-primary button-block" data-testid="referral-claim">
            {t("referral.claim", { amount: formatMoney(week.amount, "THB") })}
          </button>
        </Form>
      )}
    </li>
  );
}

/**
 * Shown only with JavaScript (the class hides it otherwise): the link above stays selectable
 * text. The page never hydrates: the lite `copy` part (lib/lite/copy.ts) copies and says so.
 */
function CopyButton({ text }: { text: string }) {
  const { t } = useTranslation();
  return (
    <button type="button" className="button js-only" data-testid="referral-copy" {...hookProps(COPY, text)} {...hookProps(COPIED, t("referral.copied"))}>
      {t("referral.copy")}
    </button>
  );
}
