import { Form, Link } from "react-router";
import { useTranslation } from "react-i18next";
import { listAskOf } from "@workers/core/keyset";
import { searchPlayers } from "@workers/services/players";
import { AdminListCount, AdminListPager } from "~/components/admin";
import { AdminTable } from "~/components/data-table";
import { getBindings } from "~/lib/context.server";
import { formatDateTime } from "~/lib/format";
import { requireStaff } from "~/lib/staff.server";
import type { Route } from "./+types/players";

const PAGE_SIZE = 25;

/** One search box: username, display name, phone or bank account number (GET form). */
export async function loader({ request, context }: Route.LoaderArgs) {
  const staff = await requireStaff(request, context);
  const url = new URL(request.url);
  const q = url.searchParams.get("q") ?? "";
  const list = await searchPlayers(getBindings(context).DB, staff.agencyId, q, listAskOf(url.searchParams, PAGE_SIZE));
  return { ...list, q };
}

export default function AdminPlayers({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation("admin");
  const { items, total, next, previous, q } = loaderData;
  return (
    <section>
      <title>{t("players.title")}</title>
      <h1>{t("players.title")}</h1>
      <Form method="get" className="admin-filter" role="search" data-testid="player-search">
        <div className="field">
          <label htmlFor="player-q">{t("players.search")}</label>
          <input id="player-q" name="q" type="search" defaultValue={q} autoCapitalize="none" spellCheck={false} />
        </div>
        <button type="submit" className="button button-primary">
          {t("players.searchButton")}
        </button>
      </Form>
      <AdminListCount total={total} exact={t("players.count", { count: total.count })} />
      <AdminTable
        label={t("players.title")}
        testId="players-table"
        empty={<p data-testid="players-empty">{t("players.empty")}</p>}
        rows={items}
        rowKey={(p) => p.id}
        rowProps={(p) => ({ "data-username": p.username })}
        columns={[
          {
            header: t("players.username"),
            cell: (p) => (
              <>
                <Link to={`/admin/players/${p.id}`}>{p.username}</Link>
                {p.blocklistFlagged && (
                  <>
                    {" "}
                    <span className="status status-yellow" data-testid="blocklist-flagged">
                      {t("blocklist.flaggedMark")}
                    </span>
                  </>
                )}
              </>
            ),
          },
          { header: t("players.displayName"), cell: (p) => p.displayName },
          { header: t("players.phone"), cell: (p) => p.phone },
          { header: t("players.bankAccount"), cell: (p) => p.bankAccountNumber ?? t("common.none") },
          { header: t("players.status"), cell: (p) => t(`players.statuses.${p.status}`) },
          { header: t("players.lastLogin"), cell: (p) => (p.lastLoginAt ? formatDateTime(p.lastLoginAt) : t("common.none")) },
        ]}
      />
      <AdminListPager next={next} previous={previous} basePath="/admin/players" query={q ? { q } : {}} />
    </section>
  );
}
