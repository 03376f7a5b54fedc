import { Suspense, useEffect, useRef } from "react";
import { Await, useRevalidator } from "react-router";
import { useTranslation } from "react-i18next";
import { formatMoney } from "~/lib/format";
import { CREDIT_REFRESH } from "~/lib/offline";
import type { Credit } from "../../workers/services/credits";

/**
 * Each provider's credit, streamed: the page does not wait for the slowest provider.
 * Browsers without JavaScript get the whole document once every credit has answered
 * (entry.server waits for them), so they see the same list.
 */
export function CreditsPanel({ credits }: { credits: Record<string, Promise<Credit>> }) {
  const { t } = useTranslation();
  const revalidator = useRevalidator();
  useLiveCredits(revalidator);
  return (
    <section className="credits" aria-labelledby="credits-title" data-testid="credits">
      <div className="credits-head">
        <h2 id="credits-title">{t("credits.title")}</h2>
        {/* Without JavaScript the link reloads the page, which fetches every credit again. */}
        <a
          href="?refresh=1"
          className="button button-ghost button-small"
          data-testid="credits-refresh"
          onClick={(event) => {
            event.preventDefault();
            void revalidator.revalidate();
          }}
        >
          {t("credits.refresh")}
        </a>
      </div>
      <ul className="credit-list" role="list" aria-busy={revalidator.state === "loading"}>
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

/**
 * Live credit refresh (DESIGN §8, decision 028): the page's loaders run again (every credit is
 * asked anew) when the player comes back to the tab or the window, when the browser is back
 * online, and every 60 s while the page is visible; never more than once in 15 s, never while
 * hidden, offline or already loading. A settled deposit refreshes them too (the QR step's
 * polling revalidates the page).
 */
function useLiveCredits(revalidator: ReturnType<typeof useRevalidator>) {
  const current = useRef(revalidator);
  current.current = revalidator;
  useEffect(() => {
    let last = Date.now();
    const refresh = () => {
      if (document.hidden || !navigator.onLine || current.current.state !== "idle" || Date.now() - last < CREDIT_REFRESH.minGapMs) return;
      last = Date.now();
      void current.current.revalidate();
    };
    const timer = setInterval(refresh, CREDIT_REFRESH.everyMs);
    window.addEventListener("focus", refresh);
    window.addEventListener("online", refresh);
    document.addEventListener("visibilitychange", refresh);
    return () => {
      clearInterval(timer);
      window.removeEventListener("focus", refresh);
      window.removeEventListener("online", refresh);
      document.removeEventListener("visibilitychange", refresh);
    };
  }, []);
}

function CreditUnavailable() {
  const { t } = useTranslation();
  return (
    <span className="credit-unavailable">
      {t("credits.unavailable")} <a href="?refresh=1">{t("credits.retry")}</a>
    </span>
  );
}
