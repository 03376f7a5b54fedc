/**
 * A D1 that counts what is asked of it: statements run (each statement of a batch counts),
 * round trips (a batch is one), the statements that write (INSERT, UPDATE, DELETE, REPLACE)
 * and the rows D1 says were read and written (`meta.rows_read`, `meta.rows_written`). The
 * scheduled jobs' tests hand it to a job in place of `env.DB`, so a job that creeps back to a
 * statement per item, or to a write that changes nothing, fails its test.
 */
export type D1Count = { statements: number; roundTrips: number; writeStatements: number; rowsRead: number; rowsWritten: number; sql: string[] };

const WRITE = /^\s*(?:WITH\b[\s\S]*?\)\s*)?(INSERT|UPDATE|DELETE|REPLACE)\b/i;

function note(count: D1Count, sql: string, meta: Partial<D1Meta> | undefined): void {
  count.statements++;
  count.sql.push(sql.replace(/\s+/g, " ").trim());
  if (WRITE.test(sql)) count.writeStatements++;
  count.rowsRead += meta?.rows_read ?? 0;
  count.rowsWritten += meta?.rows_written ?? 0;
}

class CountedStatement {
  constructor(
    readonly inner: D1PreparedStatement,
    readonly sql: string,
    private readonly count: D1Count,
  ) {}

  bind(...values: unknown[]): CountedStatement {
    return new CountedStatement(this.inner.bind(...values), this.sql, this.count);
  }

  async run<T = Record<string, unknown>>(): Promise<D1Result<T>> {
    const result = await this.inner.run<T>();
    this.count.roundTrips++;
    note(this.count, this.sql, result.meta);
    return result;
  }

  async all<T = Record<string, unknown>>(): Promise<D1Result<T>> {
    const result = await this.inner.all<T>();
    this.count.roundTrips++;
    note(this.count, this.sql, result.meta);
    return result;
  }

  /** Read through all(), so its rows read are counted too. */
  async first<T = Record<string, unknown>>(column?: string): Promise<T | null> {
    const { results } = await this.all<Record<string, unknown>>();
    const row = results[0];
    if (row === undefined) return null;
    return (column === undefined ? row : (row[column] ?? null)) as T | null;
  }

  async raw<T = unknown[]>(options?: { columnNames?: boolean }): Promise<T[]> {
    this.count.roundTrips++;
    note(this.count, this.sql, undefined);
    if (options?.columnNames) return (await this.inner.raw({ columnNames: true })) as T[];
    return this.inner.raw<T>();
  }
}

/** `db` wrapped, and the counts it keeps (reset them with `reset()`). */
export function countingD1(db: D1Database): { db: D1Database; count: D1Count; reset: () => void } {
  const count: D1Count = { statements: 0, roundTrips: 0, writeStatements: 0, rowsRead: 0, rowsWritten: 0, sql: [] };
  const counted = {
    prepare: (sql: string) => new CountedStatement(db.prepare(sql), sql, count),
    batch: async <T = unknown>(statements: CountedStatement[]): Promise<D1Result<T>[]> => {
      const results = await db.batch<T>(statements.map((s) => s.inner));
      count.roundTrips++;
      for (const [i, s] of statements.entries()) note(count, s.sql, results[i]?.meta);
      return results;
    },
    exec: (sql: string) => db.exec(sql),
    withSession: () => {
      throw new Error("countingD1: sessions are not counted");
    },
    dump: () => db.dump(),
  };
  const reset = () => Object.assign(count, { statements: 0, roundTrips: 0, writeStatements: 0, rowsRead: 0, rowsWritten: 0, sql: [] });
  return { db: counted as unknown as D1Database, count, reset };
}
