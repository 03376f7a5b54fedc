import type { HTMLAttributes, Key, ReactNode, TdHTMLAttributes, ThHTMLAttributes } from "react";
import { TableWrap } from "./table-wrap";

type DataAttributes = { [name: `data-${string}`]: string | number | undefined };
/** Attributes of a body cell: data-testid, data-status, className, colSpan... */
type CellAttributes = TdHTMLAttributes<HTMLTableCellElement> & DataAttributes;
/** Attributes of a body row: the data-* the tests select a row by (data-code, data-kind...), data-testid. */
type RowAttributes = HTMLAttributes<HTMLTableRowElement> & DataAttributes;

/** One column of a table: its header, written once, and how a row fills its cell. */
type Column<Row> = {
  /** The header cell's text (<th scope="col">), and each cell's data-label where the rows become cards. */
  header: string;
  cell: (row: Row) => ReactNode;
  /** The row's own header: its cells are <th scope="row"> (a report's period, a provider's name). */
  rowHeader?: boolean;
  /**
   * What a phone's card shows first, side by side at its top (decision 088): the amount and the
   * status, which a cashier reads before the code or the time. The desktop table keeps the
   * columns' order.
   */
  lead?: boolean;
  /** Attributes of the header cell (a numeric column's className "num"). */
  th?: ThHTMLAttributes<HTMLTableCellElement>;
  /**
   * Attributes of each body cell, fixed or from its row. A cell with colSpan n stands for this
   * column and the n - 1 after it (a statement's skipped row: one cell across the row).
   */
  td?: CellAttributes | ((row: Row) => CellAttributes);
};

type TableProps<Row> = {
  rows: readonly Row[];
  columns: readonly Column<Row>[];
  /** React's key of a row (never rendered). */
  rowKey: (row: Row, index: number) => Key;
  rowProps?: (row: Row, index: number) => RowAttributes;
  testId?: string;
};

/**
 * A table from its columns: the head, then a row per item and a cell per column. With `labels`,
 * each body cell carries its column's header as data-label, which the phone layouts show above
 * the cell (the player's history cards, the back office's queue cards: decision 056).
 */
export function DataTable<Row>({
  rows,
  columns,
  rowKey,
  rowProps,
  testId,
  className,
  caption,
  labels = false,
}: TableProps<Row> & { className: string; caption?: ReactNode; labels?: boolean }) {
  return (
    <table className={className} data-testid={testId}>
      {caption}
      <thead>
        <tr>
          {columns.map((c, i) => (
            <th key={i} scope="col" {...c.th}>
              {c.header}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row, index) => (
          <tr key={rowKey(row, index)} {...rowProps?.(row, index)}>
            {cells(row, columns, labels)}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function cells<Row>(row: Row, columns: readonly Column<Row>[], labels: boolean): ReactNode[] {
  const out: ReactNode[] = [];
  for (let i = 0; i < columns.length; ) {
    const c = columns[i];
    const attributes = typeof c.td === "function" ? c.td(row) : c.td;
    const label = labels ? c.header : undefined;
    const lead = c.lead ? "" : undefined;
    out.push(
      c.rowHeader ? (
        <th key={i} scope="row" data-label={label} {...attributes}>
          {c.cell(row)}
        </th>
      ) : (
        <td key={i} data-label={label} data-lead={lead} {...attributes}>
          {c.cell(row)}
        </td>
      ),
    );
    i += Math.max(1, attributes?.colSpan ?? 1);
  }
  return out;
}

/**
 * The back office's table, each header written once in its column. On a phone every row is a
 * card (decision 088, amending 056 which did it for the queues only): the `lead` cells (amount,
 * status) first, then each cell under its column's name (`data-label`), so no staff page
 * scrolls sideways at 360 px. `figures` lays a card's cells two to a line (a report's hour:
 * fifteen short figures). From 577 px it is a table in a named scrolling region (TableWrap),
 * which a wide report may still need on a desktop. `caption` repeats the region's label as the
 * table's caption, shown or for screen readers only. With `empty`, a list without rows shows
 * it instead of the table; without, the table is drawn empty.
 */
export function AdminTable<Row>({
  label,
  figures = false,
  caption,
  empty,
  ...table
}: TableProps<Row> & { label: string; figures?: boolean; caption?: "shown" | "sr-only"; empty?: ReactNode }) {
  if (empty !== undefined && table.rows.length === 0) return empty;
  return (
    <TableWrap label={label}>
      <DataTable
        {...table}
        className={figures ? "admin-table admin-table-cards admin-table-figures" : "admin-table admin-table-cards"}
        caption={caption && <caption className={caption === "sr-only" ? "sr-only" : undefined}>{label}</caption>}
        labels
      />
    </TableWrap>
  );
}
