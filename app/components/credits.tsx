import { Suspense } from "react";
import { Await } from "react-router";
import { useTranslation } from "react-i18next";
import { formatMoney } from "~/lib/format";
import type { Credit } from "@workers/services/providers";
import { CREDITS, hookProps } from "~/lib/lite/hooks";

/**
 * Each provider's credit, streamed: the page does not wait for the slowest provider.
 * Browsers without JavaScript get the whole document once every credit has answered
 * (entry.server waits for them), so they see the same list. Rendered on lite pages only
 * (deposit, withdraw: they never hydrate), so it has no browser behaviour of its own: the
 * lite `credits` part refreshes it (lib/lite/credits.ts, decisions 028, 034).
 */
export function CreditsPanel({ credits }: { credits: Record<string, Promise<Credit>> }) {
  const { t } = useTranslation();
  return (
    <section className="credits" aria-labelledby="credits-title" {...hookProps(CREDITS)}>
      <div className="credits-head">
        <h2 id="credits-title">{t("credits.title")}</h2>
        {/* Without JavaScript the link reloads the page, which fetches every credit again. */}
        <a href="?refresh=1" className="button button-ghost button-small" data-testid="credits-refresh">
          {t("credits.refresh")}
        </a>
      </div>
      <ul className="credit-list" role="list" aria-busy="false">
        {Object.entries(credits).map(([provider, credit]) => (
          <li key={provider} className="credit" data-provider={provider}>
            <span className="credit-provider">{t(`providers.${provider}`)}</span>
            <Suspense
              fallback={
                <span className="credit-loading" role="status">
                  {t("credits.loading")}
                </span>
              }
            >
              <Await resolve={credit} errorElement={<CreditUnavailable />}>
                {(value) =>
                  value.credit ? (
                    <span className="credit-amount" data-testid={`credit-${provider}`}>
                      {formatMoney(value.credit.amount, value.credit.currency)}
                    </span>
                  ) : (
                    <CreditUnavailable />
                  )
                }
              </Await>
            </Suspense>
          </li>
        ))}
      </ul>
    </section>
  );
}

function CreditUnavailable() {
  const { t } = useTranslation();
  return (
    <span className="credit-unavailable">
      {t("credits.unavailable")} <a href="?refresh=1">{t("credits.retry")}</a>
    </span>
  );
}
