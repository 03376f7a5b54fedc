import { Form } from "react-router";
import { useTranslation } from "react-i18next";
import { formatDateTime } from "~/lib/format";
import { AdminTable } from "./data-table";

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
    <AdminTable
      label={t("payments.witnesses.title")}
      caption="shown"
      testId="bank-witnesses"
      rows={witnesses}
      rowKey={(w) => `${w.source}:${w.witnessId}`}
      rowProps={(w) => ({ "data-source": w.source, "data-link": w.link })}
      columns={[
        { header: t("payments.witnesses.source"), cell: (w) => t(`openDeposits.sources.${w.source}`) },
        { header: t("payments.witnesses.id"), td: { className: "break-all" }, cell: (w) => w.witnessId },
        { header: t("payments.witnesses.bankTime"), cell: (w) => formatDateTime(new Date(w.bankTime)) },
        {
          header: t("payments.witnesses.link"),
          cell: (w) => (
            <>
              {t(`payments.witnesses.links.${w.link}`)}
              {w.splitReason ? ` · ${w.splitReason}` : ""}
            </>
          ),
        },
        { header: t("payments.witnesses.raw"), cell: (w) => (w.raw ? <pre className="raw-text">{w.raw}</pre> : t("common.none")) },
        ...(splitAction ? [{ header: t("common.actions"), cell: (w: WitnessView) => <SplitForm witness={w} action={splitAction} /> }] : []),
      ]}
    />
  );
}

/** The owner's split of a witness linked by amount/time or by the order it names. */
function SplitForm({ witness: w, action }: { witness: WitnessView; action: string }) {
  const { t } = useTranslation("admin");
  if (w.link !== "window" && w.link !== "order") return null;
  return (
    <Form method="post" action={action} className="stack" data-testid="witness-split">
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
  );
}
