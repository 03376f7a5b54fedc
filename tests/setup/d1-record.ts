/**
 * A D1 that runs every statement on the real one and records what it sent: the tests that hold
 * a page's or a job's rows read to its own size (decisions 077, 078).
 */

/** One statement as D1 ran it: its SQL, bindings, and the rows D1 says it read. */
export type Recorded = { name: string; sql: string; params: unknown[]; rowsRead: number };

/**
 * A D1 that runs every statement on the real one and records its SQL, bindings and rows read
 * (D1's meta.rows_read), under the name `name()` gives at the time.
 */
export function recordingDb(db: D1Database, name: () => string, log: Recorded[]): D1Database {
  const known = new WeakMap<object, { real: D1PreparedStatement; sql: string; params: unknown[] }>();
  const note = (entry: { sql: string; params: unknown[] }, result: D1Result) =>
    log.push({ name: name(), sql: entry.sql, params: entry.params, rowsRead: Number(result.meta?.rows_read ?? 0) });
  const statement = (real: D1PreparedStatement, sql: string, params: unknown[]): D1PreparedStatement => {
    const wrapped = {
      bind: (...values: unknown[]) => statement(real.bind(...values), sql, values),
      async all() {
        const result = await real.all();
        note({ sql, params }, result);
        return result;
      },
      async first(column?: string) {
        const result = await real.all<Record<string, unknown>>();
        note({ sql, params }, result);
        const row = result.results[0] ?? null;
        return column ? (row?.[column] ?? null) : row;
      },
      async run() {
        const result = await real.run();
        note({ sql, params }, result);
        return result;
      },
      raw: (options?: { columnNames?: boolean }) => real.raw(options as { columnNames: true }),
    } as unknown as D1PreparedStatement;
    known.set(wrapped, { real, sql, params });
    return wrapped;
  };
  return {
    prepare: (sql: string) => statement(db.prepare(sql), sql, []),
    async batch(statements: D1PreparedStatement[]) {
      const entries = statements.map((s) => known.get(s)!);
      const results = await db.batch(entries.map((e) => e.real));
      for (const [i, result] of results.entries()) note(entries[i]!, result);
      return results;
    },
    exec: (sql: string) => db.exec(sql),
    dump: () => db.dump(),
    withSession: () => db.withSession(),
  } as unknown as D1Database;
}
