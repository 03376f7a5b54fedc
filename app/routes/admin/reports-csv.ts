import { parseRange } from "@workers/core/report-range";
import { toCsv } from "@workers/core/csv";
import { isReportTable, mayExport, reportExport } from "@workers/services/reports";
import { getBindings } from "~/lib/context.server";
import { translate } from "~/lib/i18n.server";
import { getLocale } from "~/middleware/i18next.server";
import { csvRows, exportTable } from "~/lib/report-tables";
import { auditContext, requireStaff } from "~/lib/staff.server";
import type { Route } from "./+types/reports-csv";

/**
 * `/admin/reports/<table>.csv?from=&to=&grouping=` (or ?preset=): one report table as a CSV
 * file, the same rows and figures as the page (app/lib/report-tables.ts draws both), headers
 * in the staff member's language. The role is enforced here, not only by hiding links: a
 * cashier asking for an owner's table (players, promotions, providers) gets 403. Every export
 * is audited (`report.export`) before the file is sent.
 */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const staff = await requireStaff(request, context);
  const match = /^([a-z-]+)\.csv$/.exec(params.file);
  const table = match?.[1];
  if (!isReportTable(table)) throw new Response("Not Found", { status: 404 });
  if (!mayExport(staff.role, table)) throw new Response("Forbidden", { status: 403 });
  const query = new URL(request.url).searchParams;
  const range = parseRange({ preset: query.get("preset"), from: query.get("from"), to: query.get("to"), grouping: query.get("grouping") }, new Date());
  if ("error" in range) {
    return new Response(translate(context, `admin:reports.errors.${range.error}`), { status: 400, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  }
  const data = await reportExport(getBindings(context).DB, auditContext(request, staff), staff.role, table, range);
  const t = (key: string, options?: Record<string, unknown>) => translate(context, key.includes(":") ? key : `admin:${key}`, options);
  const csv = toCsv(csvRows(exportTable(data, getLocale(context)), t));
  const name = `${table}_${range.from}_${range.to}${range.grouping === "hour" ? "_hourly" : ""}.csv`;
  return new Response(csv, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${name}"`,
      "X-Content-Type-Options": "nosniff",
    },
  });
}
