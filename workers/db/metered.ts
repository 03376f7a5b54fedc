/**
 * A D1Database that measures what one request asks of D1, so the round trips a page costs can
 * be read in every local answer (the `X-D1-Metrics` header of workers/app.ts) and held by a test
 * (decision 076). In production D1's primary sits in one region: every query that waits for
 * another is one more network round trip before the page can render.
 *
 * - depth: the critical path of round trips, not a count. A query's level is one more than the
 *   deepest query that had completed when it started; statements of one `batch`, and queries
 *   started together (Promise.all), share a level. The request's depth is the deepest level.
 * - queries: statements sent (each statement of a batch counts).
 * - rows read and written: D1's own `meta.rows_read` / `meta.rows_written`, summed.
 *
 * The wrapper keeps D1's behaviour: statements prepared here are D1's own underneath and are
 * unwrapped before a batch (D1 refuses statements of another database object), sessions
 * (`withSession`) are measured the same way, and `first()` is D1's `all()` read the way D1's
 * `first()` reads it (the row, or one column of it), so its rows are counted too.
 */

export type D1Metrics = { depth: number; queries: number; rowsRead: number; rowsWritten: number };

/** The header line the local bench and the tests read: `depth=3; queries=5; rows_read=12; rows_written=1`. */
export function d1MetricsHeader(metrics: D1Metrics): string {
  return `depth=${metrics.depth}; queries=${metrics.queries}; rows_read=${metrics.rowsRead}; rows_written=${metrics.rowsWritten}`;
}

/** The header's line read back (null when it is not one). */
export function parseD1MetricsHeader(line: string | null): D1Metrics | null {
  const match = /^depth=(\d+); queries=(\d+); rows_read=(\d+); rows_written=(\d+)$/.exec(line ?? "");
  if (!match) return null;
  return { depth: Number(match[1]), queries: Number(match[2]), rowsRead: Number(match[3]), rowsWritten: Number(match[4]) };
}

class Meter {
  readonly metrics: D1Metrics = { depth: 0, queries: 0, rowsRead: 0, rowsWritten: 0 };
  /** Each round trip's level and the start of its SQL ("0" off the path), in the order sent: what a test prints when a page goes over its budget. */
  readonly trail: string[] = [];
  /** The deepest level among the queries that have completed. */
  private completed = 0;

  /**
   * One round trip: `statements` sent at once. Work off the answer's path (`offThePath`) counts
   * its queries and rows but takes no level: nothing the answer waits for follows it.
   */
  async trip<T>(
    statements: number,
    offPath: boolean,
    send: () => Promise<T>,
    metas: (result: T) => readonly (D1Meta | undefined)[],
    sql: readonly string[] = [],
  ): Promise<T> {
    const level = offPath ? 0 : this.completed + 1;
    this.trail.push(`${level} ${sql.map((q) => q.replace(/\s+/g, " ").trim().slice(0, 60)).join(" | ")}`);
    this.metrics.queries += statements;
    this.metrics.depth = Math.max(this.metrics.depth, level);
    try {
      const result = await send();
      for (const meta of metas(result)) this.count(meta);
      return result;
    } finally {
      this.completed = Math.max(this.completed, level);
    }
  }

  private count(meta: D1Meta | undefined): void {
    this.metrics.rowsRead += meta?.rows_read ?? 0;
    this.metrics.rowsWritten += meta?.rows_written ?? 0;
  }
}

const none = () => [];
const metaOf = (result: D1Result) => [result.meta];

class MeteredStatement implements D1PreparedStatement {
  constructor(
    readonly inner: D1PreparedStatement,
    private readonly meter: Meter,
    private readonly offPath: boolean,
    readonly sql: string,
  ) {}

  bind(...values: unknown[]): D1PreparedStatement {
    return new MeteredStatement(this.inner.bind(...values), this.meter, this.offPath, this.sql);
  }

  first<T = unknown>(colName: string): Promise<T | null>;
  first<T = Record<string, unknown>>(): Promise<T | null>;
  async first<T>(colName?: string): Promise<T | null> {
    const { results } = await this.all<Record<string, T>>();
    const row = results[0];
    if (colName === undefined) return (row as T | undefined) ?? null;
    // as D1's first(colName): a row without that column is a mistake in the query
    if (row !== undefined && !(colName in row)) throw new Error(`D1_COLUMN_NOTFOUND: Column not found (${colName})`);
    return row?.[colName] ?? null;
  }

  run<T = Record<string, unknown>>(): Promise<D1Result<T>> {
    return this.meter.trip(1, this.offPath, () => this.inner.run<T>(), metaOf, [this.sql]);
  }

  all<T = Record<string, unknown>>(): Promise<D1Result<T>> {
    return this.meter.trip(1, this.offPath, () => this.inner.all<T>(), metaOf, [this.sql]);
  }

  raw<T = unknown[]>(options: { columnNames: true }): Promise<[string[], ...T[]]>;
  raw<T = unknown[]>(options?: { columnNames?: false }): Promise<T[]>;
  raw<T>(options?: { columnNames?: boolean }): Promise<T[] | [string[], ...T[]]> {
    // D1 answers raw() without its meta: the round trip is counted, its rows are not.
    const inner = this.inner as unknown as { raw(options?: { columnNames?: boolean }): Promise<T[] | [string[], ...T[]]> };
    return this.meter.trip(1, this.offPath, () => inner.raw(options), none, [this.sql]);
  }
}

/** D1's own statements, for its batch: statements prepared here are unwrapped, others passed as they are. */
const unwrapped = (statements: D1PreparedStatement[]) => statements.map((s) => (s instanceof MeteredStatement ? s.inner : s));

function meteredBatch<T>(
  target: { batch<R>(s: D1PreparedStatement[]): Promise<D1Result<R>[]> },
  meter: Meter,
  offPath: boolean,
  statements: D1PreparedStatement[],
) {
  return meter.trip(
    statements.length,
    offPath,
    () => target.batch<T>(unwrapped(statements)),
    (results) => results.map((r) => r.meta),
    statements.map((s) => (s instanceof MeteredStatement ? s.sql : "?")),
  );
}

class MeteredSession implements D1DatabaseSession {
  constructor(
    private readonly inner: D1DatabaseSession,
    private readonly meter: Meter,
    private readonly offPath: boolean,
  ) {}

  prepare(query: string): D1PreparedStatement {
    return new MeteredStatement(this.inner.prepare(query), this.meter, this.offPath, query);
  }

  batch<T = unknown>(statements: D1PreparedStatement[]): Promise<D1Result<T>[]> {
    return meteredBatch<T>(this.inner, this.meter, this.offPath, statements);
  }

  getBookmark(): D1SessionBookmark | null {
    return this.inner.getBookmark();
  }
}

class MeteredD1 implements D1Database {
  constructor(
    readonly inner: D1Database,
    readonly meter: Meter,
    private readonly offPath: boolean,
  ) {}

  prepare(query: string): D1PreparedStatement {
    return new MeteredStatement(this.inner.prepare(query), this.meter, this.offPath, query);
  }

  batch<T = unknown>(statements: D1PreparedStatement[]): Promise<D1Result<T>[]> {
    return meteredBatch<T>(this.inner, this.meter, this.offPath, statements);
  }

  exec(query: string): Promise<D1ExecResult> {
    return this.meter.trip(1, this.offPath, () => this.inner.exec(query), none);
  }

  withSession(constraintOrBookmark?: D1SessionBookmark | D1SessionConstraint): D1DatabaseSession {
    return new MeteredSession(this.inner.withSession(constraintOrBookmark), this.meter, this.offPath);
  }

  dump(): Promise<ArrayBuffer> {
    return this.meter.trip(1, this.offPath, () => this.inner.dump(), none);
  }
}

/** A measured view of `db` for one request, and what it has measured so far. */
export function meteredD1(db: D1Database): { db: D1Database; metrics: () => D1Metrics; trail: () => string[] } {
  const meter = new Meter();
  return { db: new MeteredD1(db, meter, false), metrics: () => ({ ...meter.metrics }), trail: () => [...meter.trail] };
}

/**
 * The same database for work the answer does not wait for (`ctx.waitUntil`: a session's
 * last-seen write): its queries and rows are still counted, but it takes no place on the
 * request's critical path, so what the answer does wait for is not measured behind it. An
 * unmeasured database (production) is returned as it is.
 */
export function offThePath(db: D1Database): D1Database {
  return db instanceof MeteredD1 ? new MeteredD1(db.inner, db.meter, true) : db;
}

/**
 * A write the answer need not wait for (a session's last-seen): handed to `waitUntil` and sent
 * off the measured path, or awaited where no caller keeps it alive (direct calls in tests).
 */
export async function writeAfterAnswer(
  db: D1Database,
  waitUntil: ((promise: Promise<unknown>) => void) | undefined,
  write: (db: D1Database) => Promise<unknown>,
): Promise<void> {
  if (!waitUntil) {
    await write(db);
    return;
  }
  waitUntil(write(offThePath(db)).catch((error: unknown) => console.error("a write after the answer failed", error)));
}
