import { Link } from "react-router";
import { useTranslation } from "react-i18next";
import type { OfferPause } from "@workers/core/responsible-gaming";
import { formatDateTime } from "~/lib/format";

/**
 * Why no offer is shown (decision 091): the player's break or limit and when offers resume,
 * with the way to the limits page. Pages that render it list the "offers" key group.
 */
export function OffersPaused({ pause, link = true }: { pause: OfferPause; link?: boolean }) {
  const { t } = useTranslation();
  return (
    <p className="notice" role="status" data-testid="offers-paused" data-reason={pause.reason}>
      {t(`offers.paused.${pause.reason}`, { until: formatDateTime(new Date(pause.until)) })}
      {link && (
        <>
          {" "}
          <Link to="/player/limits">{t("offers.limitsLink")}</Link>
        </>
      )}
    </p>
  );
}
