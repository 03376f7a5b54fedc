import { Link } from "react-router";
import { useTranslation } from "react-i18next";
import { sharedFingerprints } from "@workers/services/players";
import { AdminListCount, AdminListPager } from "~/components/admin";
import { AdminTable } from "~/components/data-table";
import { blocklistAddHref } from "~/components/admin-blocklist";
import { getBindings } from "~/lib/context.server";
import { formatDateTime } from "~/lib/format";
import { listAskOf } from "@workers/core/keyset";
import { requireStaff } from "~/lib/staff.server";
import type { Route } from "./+types/fingerprints";

const PAGE_SIZE = 20;

/** Devices seen on two or more players of this agency: the multi-account signal. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const staff = await requireStaff(request, context);
  const list = await sharedFingerprints(getBindings(context).DB, staff.agencyId, listAskOf(new URL(request.url).searchParams, PAGE_SIZE));
  return { ...list, isOwner: staff.role === "owner" };
}

export default function AdminFingerprints({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation("admin");
  const { items, total, next, previous } = loaderData;
  return (
    <section>
      <title>{t("fingerprints.title")}</title>
      <h1>{t("fingerprints.title")}</h1>
      <p>{t("fingerprints.intro")}</p>
      <AdminListCount total={total} exact={t("fingerprints.count", { count: total.count })} />
      {items.length === 0 ? (
        <p data-testid="fingerprints-empty">{t("fingerprints.empty")}</p>
      ) : (
        <ul className="card-list" data-testid="fingerprints-list">
          {items.map((f) => (
            <li key={f.fingerprint} className="admin-card" data-fingerprint={f.fingerprint}>
              <h2>
                {t("fingerprints.device")} <code>{f.fingerprint.slice(0, 16)}</code> · {t("fingerprints.players", { count: f.players })}
              </h2>
              <p>
                {t("fingerprints.firstSeen")}: {formatDateTime(f.firstSeenAt)} · {t("fingerprints.lastSeen")}: {formatDateTime(f.lastSeenAt)}
              </p>
              {loaderData.isOwner && (
                <p>
                  <a href={blocklistAddHref("device", f.fingerprint)}>{t("blocklist.listDevice", { value: f.fingerprint.slice(0, 16) })}</a>
                </p>
              )}
              <AdminTable
                label={`${t("fingerprints.device")} ${f.fingerprint.slice(0, 16)}`}
                rows={f.accounts}
                rowKey={(a) => a.playerId}
                columns={[
                  { header: t("players.username"), cell: (a) => <Link to={`/admin/players/${a.playerId}`}>{a.username}</Link> },
                  { header: t("players.displayName"), cell: (a) => a.displayName },
                  { header: t("players.status"), cell: (a) => t(`players.statuses.${a.status}`) },
                  { header: t("fingerprints.firstSeen"), cell: (a) => formatDateTime(a.firstSeenAt) },
                  { header: t("fingerprints.lastSeen"), cell: (a) => formatDateTime(a.lastSeenAt) },
                  { header: t("fingerprints.seenCount"), cell: (a) => a.seenCount },
                ]}
              />
            </li>
          ))}
        </ul>
      )}
      <AdminListPager next={next} previous={previous} basePath="/admin/fingerprints" />
    </section>
  );
}
