import type { ReactNode } from "react";
import { Link } from "react-router";
import { useTranslation } from "react-i18next";
import { displayStatus } from "@workers/core/orders";
import type { OrderStatus } from "@workers/core/orders";
import { statusColour } from "~/lib/format";
import { DataTable } from "./data-table";

/** docs/product.md §4 status with its colour; REJECTED is shown as cancelled. */
export function StatusBadge({ status }: { status: OrderStatus }) {
  const { t } = useTranslation();
  const shown = displayStatus(status);
  return (
    <span className={`status status-${statusColour(status)}`} data-status={status}>
      {t(`status.${shown}`)}
    </span>
  );
}

/** Page links that work without JavaScript. */
export function Pagination({ page, pageSize, total, basePath }: { page: number; pageSize: number; total: number; basePath: string }) {
  const { t } = useTranslation();
  const pages = Math.max(1, Math.ceil(total / pageSize));
  if (pages <= 1) return null;
  const href = (p: number) => `${basePath}?page=${p}&pageSize=${pageSize}`;
  return (
    <nav className="pagination" aria-label={t("history.pages")}>
      {page > 1 ? (
        <Link to={href(page - 1)} rel="prev">
          {t("history.previous")}
        </Link>
      ) : (
        <span aria-hidden="true" />
      )}
      <span>{t("history.pageOf", { page, pages })}</span>
      {page < pages ? (
        <Link to={href(page + 1)} rel="next">
          {t("history.next")}
        </Link>
      ) : (
        <span aria-hidden="true" />
      )}
    </nav>
  );
}

export type HistoryColumn<T> = { label: string; cell: (row: T) => ReactNode; testId?: string };

/** An order history table; on phones each row becomes a labelled card (CSS, data-label). */
export function HistoryTable<T extends { code: string }>({ rows, columns, testId }: { rows: T[]; columns: HistoryColumn<T>[]; testId: string }) {
  return (
    <div className="table-wrap">
      <DataTable
        className="history"
        testId={testId}
        rows={rows}
        rowKey={(row) => row.code}
        rowProps={(row) => ({ "data-code": row.code })}
        columns={columns.map((c) => ({ header: c.label, cell: c.cell, td: { "data-testid": c.testId } }))}
        labels
      />
    </div>
  );
}
