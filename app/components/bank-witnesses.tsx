import { Form } from "react-router";
import { useTranslation } from "react-i18next";
import { formatDateTime } from "~/lib/format";
import { TableWrap } from "./table-wrap";

/** A report of a bank transfer: a statement row, a forwarded message or a cashier's "mark paid" (decision 046). */
export type WitnessView = {
  channelCode: string;
  source: string;
  witnessId: string;
  transferId: string;
  bankTime: number;
  raw: string | null;
  link: string;
  splitReason: string | null;
};

/**
 * Every witness of one bank transfer (source, id, bank time, how it was linked, raw text).
 * With `splitAction`, the owner may split a witness linked by amount/time or by the order it
 * names off the transfer (two transfers really happened): a plain form with a reason, so it
 * works without JavaScript.
 */
export function BankWitnesses({ witnesses, splitAction }: { witnesses: WitnessView[]; splitAction?: string }) {
  const { t } = useTranslation("admin");
  return (
    <TableWrap label={t("payments.witnesses.title")}>
      <table className="admin-table" data-testid="bank-witnesses">
        <caption>{t("payments.witnesses.title")}</caption>
        <thead>
          <tr>
            <th scope="col">{t("payments.witnesses.source")}</th>
            <th scope="col">{t("payments.witnesses.id")}</th>
            <th scope="col">{t("payments.witnesses.bankTime")}</th>
            <th scope="col">{t("payments.witnesses.link")}</th>
            <th scope="col">{t("payments.witnesses.raw")}</th>
            {splitAction && <th scope="col">{t("common.actions")}</th>}
          </tr>
        </thead>
        <tbody>
          {witnesses.map((w) => (
            <tr key={`${w.source}:${w.witnessId}`} data-source={w.source} data-link={w.link}>
              <td>{t(`openDeposits.sources.${w.source}`)}</td>
              <td className="break-all">{w.witnessId}</td>
              <td>{formatDateTime(new Date(w.bankTime))}</td>
              <td>
                {t(`payments.witnesses.links.${w.link}`)}
                {w.splitReason ? ` · ${w.splitReason}` : ""}
              </td>
              <td>{w.raw ? <pre className="raw-text">{w.raw}</pre> : t("common.none")}</td>
              {splitAction && (
                <td>
                  {(w.link === "window" || w.link === "order") && (
                    <Form method="post" action={splitAction} className="stack" data-testid="witness-split">
                      <input type="hidden" name="intent" value="split" />
                      <input type="hidden" name="channelCode" value={w.channelCode} />
                      <input type="hidden" name="source" value={w.source} />
                      <input type="hidden" name="witnessId" value={w.witnessId} />
                      <div className="field">
                        <label htmlFor={`split-${w.source}-${w.witnessId}`}>{t("payments.witnesses.splitReason")}</label>
                        <textarea id={`split-${w.source}-${w.witnessId}`} name="reason" required minLength={3} maxLength={500} rows={2} />
                      </div>
                      <button type="submit" className="button button-danger">
                        {t("payments.witnesses.split")}
                      </button>
                    </Form>
                  )}
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </TableWrap>
  );
}
