import { HISTOGRAM_CAP, recentClosedDays } from "../../core/report-days";
import { utcBounds } from "../../core/report-range";
import { listActiveAgencyIds, rollUpDayStatements, sealedDays } from "../../db/report-days";

/**
 * Days rolled up by one run, all agencies together: one D1 batch (a transaction) each, 50-140 ms
 * for a day of 7,000 deposits (decision 078), so D1's writer is held for a day at a time, a run
 * is one or two seconds of D1, and the 92 days of a new agency's history (or of a deploy of
 * migration 0042) are rolled up within 30 minutes.
 */
const DAYS_PER_RUN = 16;

/**
 * The scheduled roll-up of the reports' closed days (decision 078): for each active agency, the
 * closed days of the last HISTOGRAM_CAP days (any range a report can ask for that reaches back
 * from today) that have no rollup, newest first, at most `daysPerRun` a run. A day whose rollup a
 * late write dropped is rolled up again at the next run; what a run leaves, the next one does,
 * and a report reads such a day live meanwhile. Called by the Worker's scheduled handler.
 */
export async function rollUpReportDays(env: Env, now: number = Date.now(), daysPerRun: number = DAYS_PER_RUN): Promise<{ agencies: number; days: number }> {
  const db = env.DB;
  const recent = recentClosedDays(now, HISTOGRAM_CAP);
  const agencies = await listActiveAgencyIds(db);
  let days = 0;
  for (const agencyId of agencies) {
    if (days >= daysPerRun) break;
    const sealed = await sealedDays(db, agencyId, recent);
    for (const day of recent) {
      if (days >= daysPerRun) break;
      if (sealed.has(day)) continue;
      await db.batch(rollUpDayStatements(db, agencyId, day, utcBounds({ from: day, to: day, grouping: "day" })));
      days++;
    }
  }
  if (days > 0) console.log(JSON.stringify({ event: "reports.roll-up", agencies: agencies.length, days }));
  return { agencies: agencies.length, days };
}
