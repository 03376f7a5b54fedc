import { Link } from "react-router";
import { useTranslation } from "react-i18next";
import { AdminTable } from "~/components/data-table";
import { formatDateTime, formatMoney } from "~/lib/format";

/** A held claim as the staff pages show it (services/holds HoldView): what, how much, for whom and why, and what staff decided. */
type Hold = {
  id: string;
  kind: string;
  amount: string | null;
  status: "HELD" | "RELEASED" | "REFUSED";
  heldFor: { playerId: string; username: string; reasons: string[] }[];
  decisionReason: string | null;
  decidedBy: string | null;
  decidedAt: string | null;
  createdAt: string;
};

/** The players a claim was held for, each linking to their page, with the reasons they share (decision 093's strong ones). */
export function HeldFor({ hold }: { hold: Pick<Hold, "heldFor"> }) {
  const { t } = useTranslation("admin");
  return (
    <ul className="plain" data-testid="hold-links">
      {hold.heldFor.map((p) => (
        <li key={p.playerId} data-player={p.username}>
          <Link to={`/admin/players/${encodeURIComponent(p.playerId)}`}>{p.username}</Link>: {p.reasons.map((r) => t(`linked.reasons.${r}`)).join(", ")}
        </li>
      ))}
    </ul>
  );
}

export function HoldStatus({ status }: { status: Hold["status"] }) {
  const { t } = useTranslation("admin");
  return (
    <span className={`status ${status === "HELD" ? "status-yellow" : status === "RELEASED" ? "status-green" : "status-red"}`}>
      {t(`holds.statuses.${status}`)}
    </span>
  );
}

/**
 * The staff player page's held claims (decision 094): each claim, its amount and status, the
 * linked players it was held for and why, and a decision's reason; staff decide on the holds
 * page, which the heading links to. Nothing when the player never had a claim held.
 */
export function PlayerHolds({ holds }: { holds: Hold[] }) {
  const { t } = useTranslation("admin");
  if (holds.length === 0) return null;
  return (
    <div data-testid="player-holds">
      <h2>{t("holds.ofPlayer")}</h2>
      <p>
        <Link to="/admin/holds">{t("holds.decideThere")} →</Link>
      </p>
      <AdminTable
        label={t("holds.ofPlayer")}
        rows={holds}
        rowKey={(h) => h.id}
        rowProps={(h) => ({ "data-status": h.status, "data-kind": h.kind })}
        columns={[
          { header: t("holds.what"), lead: true, cell: (h) => `${t(`holds.kinds.${h.kind}`)}${h.amount ? ` · ${formatMoney(h.amount, "THB")}` : ""}` },
          { header: t("holds.status"), lead: true, cell: (h) => <HoldStatus status={h.status} /> },
          { header: t("holds.heldFor"), cell: (h) => <HeldFor hold={h} /> },
          { header: t("holds.at"), cell: (h) => formatDateTime(h.createdAt) },
          {
            header: t("holds.decision"),
            cell: (h) => (h.decidedBy ? `${h.decidedBy} · ${h.decidedAt ? formatDateTime(h.decidedAt) : ""}: ${h.decisionReason ?? ""}` : "—"),
          },
        ]}
      />
    </div>
  );
}
