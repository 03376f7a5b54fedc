import { useTranslation } from "react-i18next";
import { formatDateTime } from "~/lib/format";

type Flag = { entryId: string; kind: string; shown: string; note: string; checkpoint: string; createdAt: string };

/** The blocklist's add form filled with one value (decision 090): the owner chooses refuse or flag and writes the note there. */
export function blocklistAddHref(kind: "bank" | "holder" | "phone" | "device", value: string, bankCode?: string): string {
  return `/admin/blocklist?${new URLSearchParams({ kind, value, ...(bankCode ? { bankCode } : {}) }).toString()}#blocklist-add`;
}

/**
 * The staff player page's blocklist part (decision 090): the owner's "flag" entries the player
 * matched, where and when (every staff member sees them), and for the owner the links that put
 * the player's phone, bank account, holder name or a device on the list.
 */
export function PlayerBlocklist({
  flags,
  canEdit,
  phone,
  bankAccounts,
  fingerprints,
}: {
  flags: Flag[];
  canEdit: boolean;
  phone: string;
  bankAccounts: { bankCode: string; accountNumber: string; accountName: string }[];
  fingerprints: { fingerprint: string }[];
}) {
  const { t } = useTranslation("admin");
  if (flags.length === 0 && !canEdit) return null;
  return (
    <div data-testid="player-blocklist">
      {flags.length > 0 && (
        <div className="notice" role="note" data-testid="player-blocklist-flags">
          <h2>{t("blocklist.flagsTitle")}</h2>
          <ul>
            {flags.map((f) => (
              <li key={`${f.entryId}-${f.checkpoint}-${f.createdAt}`}>
                {t(`blocklist.kinds.${f.kind}`)} <code>{f.shown}</code> · {t(`blocklist.checkpoints.${f.checkpoint}`)} · {formatDateTime(f.createdAt)}
                {f.note ? ` · ${f.note}` : ""}
              </li>
            ))}
          </ul>
        </div>
      )}
      {canEdit && (
        <details className="admin-card">
          <summary>{t("blocklist.fromPlayer")}</summary>
          <ul className="stack">
            <li>
              <a href={blocklistAddHref("phone", phone)}>{t("blocklist.listPhone", { value: phone })}</a>
            </li>
            {bankAccounts.map((b) => (
              <li key={`${b.bankCode}${b.accountNumber}`}>
                <a href={blocklistAddHref("bank", b.accountNumber, b.bankCode)}>{t("blocklist.listBank", { value: `${b.bankCode} ${b.accountNumber}` })}</a> ·{" "}
                <a href={blocklistAddHref("holder", b.accountName)}>{t("blocklist.listHolder", { value: b.accountName })}</a>
              </li>
            ))}
            {fingerprints.map((f) => (
              <li key={f.fingerprint}>
                <a href={blocklistAddHref("device", f.fingerprint)}>{t("blocklist.listDevice", { value: f.fingerprint.slice(0, 16) })}</a>
              </li>
            ))}
          </ul>
        </details>
      )}
    </div>
  );
}
