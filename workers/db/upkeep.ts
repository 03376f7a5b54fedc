/**
 * The database's own upkeep (decision 075). `PRAGMA optimize` runs ANALYZE where SQLite
 * judges the statistics stale or missing (since SQLite 3.46 with a built-in limit on the rows
 * it samples, so it stays quick on a large database). D1 accepts it as a statement and
 * recommends it after an index is created (developers.cloudflare.com/d1/best-practices/use-indexes/).
 */
export async function optimizeQueryPlanner(db: D1Database): Promise<void> {
  await db.prepare(`PRAGMA optimize`).run();
}
