import { useTranslation } from "react-i18next";
import { chipFigure, chipTime, type KnownCredit } from "@workers/core/credit-chip";
import { formatMoney } from "~/lib/format";
import { CHIP_AMOUNT, CHIP_UNKNOWN, CREDIT_CHIP, hookProps } from "~/lib/lite/hooks";

/**
 * Where a tap on the credit goes: the withdraw page, whose first block lists each provider's
 * credit on every visit (the deposit page shows its QR first while an order is open).
 */
const CREDIT_LIST_LINK = "/player/withdraw#credits-title";

export type HeaderCredits = {
  /** The last credits known (root loader, no provider asked). */
  known: KnownCredit[];
  /** The agency's enabled providers: the total is over these, and the lite script asks them live. */
  providers: readonly string[];
  /** The server's clock when the page was made: "today" for the time shown. */
  now: number;
};

/**
 * The player's credit in the header (decision 081): on a provider's lobby (`provider`) that
 * provider's, elsewhere the total. Without JavaScript it is the last credit the portal knows
 * and the time it was read ("—" before any); the lite `creditChip` part (lib/lite/credit-chip.ts)
 * puts the live figure in the same markup.
 */
export function CreditChip({ credits, provider }: { credits: HeaderCredits; provider: string | null }) {
  const { t } = useTranslation();
  const figure = chipFigure(credits.known, credits.providers, provider);
  const when = figure && chipTime(figure.seenAt, credits.now);
  return (
    <a href={CREDIT_LIST_LINK} className="credit-chip" data-testid="credit-chip" data-provider={provider ?? undefined} {...hookProps(CREDIT_CHIP)}>
      <span className="sr-only">{provider ? t("creditChip.at", { provider: t(`providers.${provider}`) }) : t("creditChip.total")}: </span>
      <span className="credit-chip-amount" {...hookProps(CHIP_AMOUNT)} data-testid="credit-chip-amount">
        {figure ? formatMoney(figure.amount, figure.currency) : "—"}
      </span>{" "}
      {/* the time is read as it is shown (HH:mm today, else the date); its title has it in full */}
      {/* (nothing known yet: the live figure, when it comes, shows the first and removes the second) */}
      <span className="sr-only" hidden={!when}>
        {t("creditChip.asOf")}{" "}
      </span>
      {!when && (
        <span className="sr-only" {...hookProps(CHIP_UNKNOWN)}>
          {t("creditChip.unknown")}
        </span>
      )}
      <time className="credit-chip-time" dateTime={figure ? new Date(figure.seenAt).toISOString() : undefined} title={when?.full}>
        {when?.short}
      </time>
    </a>
  );
}
