import { Link } from "react-router";
import { useTranslation } from "react-i18next";
import { sharedFingerprints } from "../../../workers/services/admin-fingerprints";
import { AdminPager } from "~/components/admin";
import { TableWrap } from "~/components/table-wrap";
import { getBindings } from "~/lib/context.server";
import { formatDateTime } from "~/lib/format";
import { readPaging } from "~/lib/paging";
import { requireStaff } from "~/lib/staff.server";
import type { Route } from "./+types/fingerprints";

/** Devices seen on two or more players of this agency: the multi-account signal. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const staff = await requireStaff(request, context);
  const { page } = readPaging(new URL(request.url));
  const pageSize = 20;
  return { ...(await sharedFingerprints(getBindings(context).DB, staff.agencyId, { page, pageSize })), page, pageSize };
}

export default function AdminFingerprints({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation("admin");
  const { items, total, page, pageSize } = loaderData;
  return (
    <section>
      <title>{t("fingerprints.title")}</title>
      <h1>{t("fingerprints.title")}</h1>
      <p>{t("fingerprints.intro")}</p>
      <p>{t("fingerprints.count", { count: total })}</p>
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
              <TableWrap label={`${t("fingerprints.device")} ${f.fingerprint.slice(0, 16)}`}>
                <table className="admin-table">
                  <thead>
                    <tr>
                      <th scope="col">{t("players.username")}</th>
                      <th scope="col">{t("players.displayName")}</th>
                      <th scope="col">{t("players.status")}</th>
                      <th scope="col">{t("fingerprints.firstSeen")}</th>
                      <th scope="col">{t("fingerprints.lastSeen")}</th>
                      <th scope="col">{t("fingerprints.seenCount")}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {f.accounts.map((a) => (
                      <tr key={a.playerId}>
                        <td>
                          <Link to={`/admin/players/${a.playerId}`}>{a.username}</Link>
                        </td>
                        <td>{a.displayName}</td>
                        <td>{t(`players.statuses.${a.status}`)}</td>
                        <td>{formatDateTime(a.firstSeenAt)}</td>
                        <td>{formatDateTime(a.lastSeenAt)}</td>
                        <td>{a.seenCount}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </TableWrap>
            </li>
          ))}
        </ul>
      )}
      <AdminPager page={page} pageSize={pageSize} total={total} basePath="/admin/fingerprints" />
    </section>
  );
}
