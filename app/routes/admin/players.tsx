import { Form, Link } from "react-router";
import { useTranslation } from "react-i18next";
import { searchPlayers } from "@workers/services/players";
import { AdminPager } from "~/components/admin";
import { AdminTable } from "~/components/data-table";
import { getBindings } from "~/lib/context.server";
import { formatDateTime } from "~/lib/format";
import { readPaging } from "~/lib/paging";
import { requireStaff } from "~/lib/staff.server";
import type { Route } from "./+types/players";

/** One search box: username, display name, phone or bank account number (GET form). */
export async function loader({ request, context }: Route.LoaderArgs) {
  const staff = await requireStaff(request, context);
  const url = new URL(request.url);
  const { page } = readPaging(url);
  const pageSize = 25;
  const q = url.searchParams.get("q") ?? "";
  const list = await searchPlayers(getBindings(context).DB, staff.agencyId, q, { page, pageSize });
  return { ...list, page, pageSize, q };
}

export default function AdminPlayers({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation("admin");
  const { items, total, page, pageSize, q } = loaderData;
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
      <p>{t("players.count", { count: total })}</p>
      <AdminTable
        label={t("players.title")}
        testId="players-table"
        empty={<p data-testid="players-empty">{t("players.empty")}</p>}
        rows={items}
        rowKey={(p) => p.id}
        rowProps={(p) => ({ "data-username": p.username })}
        columns={[
          { header: t("players.username"), cell: (p) => <Link to={`/admin/players/${p.id}`}>{p.username}</Link> },
          { header: t("players.displayName"), cell: (p) => p.displayName },
          { header: t("players.phone"), cell: (p) => p.phone },
          { header: t("players.bankAccount"), cell: (p) => p.bankAccountNumber ?? t("common.none") },
          { header: t("players.status"), cell: (p) => t(`players.statuses.${p.status}`) },
          { header: t("players.lastLogin"), cell: (p) => (p.lastLoginAt ? formatDateTime(p.lastLoginAt) : t("common.none")) },
        ]}
      />
      <AdminPager page={page} pageSize={pageSize} total={total} basePath="/admin/players" query={q ? { q } : {}} />
    </section>
  );
}
