import { useTranslation } from "react-i18next";
import { levelPage } from "@workers/services/promotions";
import { OffersPaused } from "~/components/offers-paused";
import { getAgency, getBindings, requirePlayer } from "~/lib/context.server";
import { formatMoney } from "~/lib/format";
import type { Route } from "./+types/level";
import { loadAsDocument, type ScriptsHandle } from "~/lib/page-scripts";
import type { I18nHandle } from "~/lib/i18n";

/**
 * The player's VIP level (decision 091): the level their deposits of the period reach, what it
 * brings, and what is still to deposit for the next. While offers are paused only why.
 * A lite page (decision 034): no React in the browser.
 */
export const handle = { scripts: "lite", i18n: ["levels", "offers"] } satisfies ScriptsHandle & I18nHandle;
export const clientLoader = loadAsDocument;

export async function loader({ context }: Route.LoaderArgs) {
  const player = requirePlayer(context);
  return levelPage(getBindings(context), getAgency(context).id, player.id);
}

export default function LevelPage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  return (
    <section className="page narrow" data-testid="player-level">
      <title>{t("levels.title")}</title>
      <h1>{t("levels.title")}</h1>
      {loaderData.paused ? (
        <OffersPaused pause={loaderData.paused} />
      ) : !loaderData.configured ? (
        <p className="empty" data-testid="levels-none">
          {t("levels.none")}
        </p>
      ) : (
        <Standing page={loaderData} />
      )}
    </section>
  );
}

function Standing({ page }: { page: Extract<Route.ComponentProps["loaderData"], { paused: null }> }) {
  const { t } = useTranslation();
  const { level, next, deposited, periodDays, levels } = page;
  return (
    <>
      <div className="card stack" data-testid="level-current" data-level={level?.name ?? ""}>
        <p className="card-title">{level ? t("levels.yourLevel", { name: level.name }) : t("levels.noLevelYet")}</p>
        <p>{t("levels.deposited", { amount: formatMoney(deposited, "LAK"), days: periodDays })}</p>
        {level && (
          <p>
            {cashbackLine(t, level)} {level.withdrawDay !== null && t("levels.withdrawDay", { amount: formatMoney(level.withdrawDay, "THB") })}
          </p>
        )}
      </div>
      {next ? (
        <p className="notice" data-testid="level-next">
          {t("levels.next", { name: next.level.name, amount: formatMoney(next.remaining, "LAK"), days: periodDays })}
        </p>
      ) : (
        <p data-testid="level-top">{t("levels.top")}</p>
      )}
      <h2>{t("levels.allTitle")}</h2>
      <ul className="card-list" role="list" data-testid="levels-all">
        {levels.map((l) => (
          <li key={l.name} className="card" data-current={level?.name === l.name ? "" : undefined}>
            <strong>{l.name}</strong> · {t("levels.from", { amount: formatMoney(l.threshold, "LAK") })} · {cashbackLine(t, l)}
          </li>
        ))}
      </ul>
    </>
  );
}

/** A level's cashback terms; a cap of 0 means none. */
function cashbackLine(t: (key: string, options?: Record<string, unknown>) => string, l: { cashbackPercent: string; cashbackCap: string }) {
  return Number(l.cashbackCap) === 0
    ? t("levels.cashbackUncapped", { percent: l.cashbackPercent })
    : t("levels.cashback", { percent: l.cashbackPercent, cap: formatMoney(l.cashbackCap, "THB") });
}
