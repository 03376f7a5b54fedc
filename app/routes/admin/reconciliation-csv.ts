import { parseBankDay, reconciliationCsv } from "@workers/services/bank-in";
import { getBindings } from "~/lib/context.server";
import { translate } from "~/lib/i18n.server";
import { auditContext, requireStaff } from "~/lib/staff.server";
import type { Route } from "./+types/reconciliation-csv";

/**
 * `/admin/reconciliation/<day>.csv`: the day's lines as on the page's pages, every one of them
 * (every staff member may read them), written like the reports' exports (UTF-8 with BOM,
 * formulas neutralised, workers/core/csv.ts), headers and values in the staff member's
 * language; audited (`reconciliation.export`) before the file is sent, then streamed a chunk of
 * lines at a time (decision 074).
 */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const staff = await requireStaff(request, context);
  const day = parseBankDay(/^(\d{4}-\d{2}-\d{2})\.csv$/.exec(params.file)?.[1] ?? "-");
  if (!day) throw new Response("Not Found", { status: 404 });
  const body = await reconciliationCsv(getBindings(context).DB, auditContext(request, staff), day, (key) => translate(context, `admin:reconciliation.${key}`));
  return new Response(body, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="reconciliation_${day}.csv"`,
      "X-Content-Type-Options": "nosniff",
    },
  });
}
