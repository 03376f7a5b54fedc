/**
 * A read: one statement and how its rows become a value. Sent alone (`readOne`), or with the
 * other reads a page needs in one D1 batch (`readTogether`): one round trip to D1's primary
 * instead of one each, and one consistent snapshot (decision 076).
 */
export type Read<T> = { statement: D1PreparedStatement; read: (result: D1Result) => T };

type Values<R extends readonly Read<unknown>[]> = { -readonly [K in keyof R]: R[K] extends Read<infer T> ? T : never };

export async function readOne<T>({ statement, read }: Read<T>): Promise<T> {
  return read(await statement.all());
}

/** The reads in one batch, their values in the same order. */
export async function readTogether<const R extends readonly Read<unknown>[]>(db: D1Database, reads: R): Promise<Values<R>> {
  const results = await db.batch(reads.map((r) => r.statement));
  return reads.map((r, i) => r.read(results[i]!)) as Values<R>;
}

/** The rows of a result, typed as the statement selects them. */
export const rowsOf = <T>(result: D1Result): T[] => result.results as T[];
