import { toCsv } from "@workers/core/csv";
import { blocklistExport } from "@workers/services/players";
import { getBindings } from "~/lib/context.server";
import { formatDateTime } from "~/lib/format";
import { translate } from "~/lib/i18n.server";
import { auditContext, requireStaff } from "~/lib/staff.server";
import type { Route } from "./+types/blocklist-csv";

/**
 * `/admin/blocklist/export.csv`: every blocklist entry (decision 090), newest first, headers in
 * the owner's language, written like the reports' exports (core/csv.ts: a BOM, formulas
 * defused). Owner only, as the page; every export is audited (`blocklist.export`).
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const owner = await requireStaff(request, context, { role: "owner" });
  const entries = await blocklistExport(getBindings(context).DB, auditContext(request, owner));
  const t = (key: string) => translate(context, `admin:blocklist.${key}`);
  const csv = toCsv([
    [t("kind"), t("value"), t("bank"), t("action"), t("note"), t("csvAddedBy"), t("csvAddedAt")],
    ...entries.map((e) => [t(`kinds.${e.kind}`), e.shown, e.bankCode ?? "", t(`actionShort.${e.action}`), e.note, e.addedBy, formatDateTime(e.createdAt)]),
  ]);
  return new Response(csv, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="blocklist.csv"`,
      "X-Content-Type-Options": "nosniff",
    },
  });
}
