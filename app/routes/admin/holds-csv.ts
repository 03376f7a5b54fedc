import { toCsv } from "@workers/core/csv";
import { holdStatusOf, holdsExport } from "@workers/services/holds";
import { getBindings } from "~/lib/context.server";
import { formatDateTime } from "~/lib/format";
import { translate } from "~/lib/i18n.server";
import { auditContext, requireStaff } from "~/lib/staff.server";
import type { Route } from "./+types/holds-csv";

/**
 * `/admin/holds/export.csv?status=`: the holds of one status (or `all`), newest first (decision
 * 094), headers in the staff member's language, written like the reports' exports (core/csv.ts:
 * a BOM, formulas defused); every export audited (`holds.export`).
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const staff = await requireStaff(request, context);
  const asked = new URL(request.url).searchParams.get("status");
  const status = asked === "all" ? null : (holdStatusOf(asked) ?? "HELD");
  const holds = await holdsExport(getBindings(context), auditContext(request, staff), status);
  const t = (key: string) => translate(context, `admin:holds.${key}`);
  const reason = (r: string) => translate(context, `admin:linked.reasons.${r}`);
  const csv = toCsv([
    [t("player"), t("what"), t("csvReward"), t("csvAmount"), t("heldFor"), t("at"), t("status"), t("csvDecidedBy"), t("csvDecidedAt"), t("reason")],
    ...holds.map((h) => [
      h.username,
      t(`kinds.${h.kind}`),
      h.rewardKey,
      h.amount ?? "",
      h.heldFor.map((p) => `${p.username} (${p.reasons.map(reason).join(", ")})`).join("; "),
      formatDateTime(h.createdAt),
      t(`statuses.${h.status}`),
      h.decidedBy ?? "",
      h.decidedAt ? formatDateTime(h.decidedAt) : "",
      h.decisionReason ?? "",
    ]),
  ]);
  return new Response(csv, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="holds.csv"`,
      "X-Content-Type-Options": "nosniff",
    },
  });
}
