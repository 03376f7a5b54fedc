import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { SANDBOX_TELEGRAM_TOKEN } from "../../workers/ports/alert-channel-factory";
import { saveAlertSettings, sweepAlerts } from "../../workers/services/alerts";
import { insertUnmatchedPayment } from "../../workers/db/payments";
import { recordAudit } from "../../workers/db/audit";
import { countingD1 } from "../setup/d1-count";
import { newSandboxChat } from "../setup/sandbox-telegram";
import { seedDemo } from "../setup/seed";

/**
 * The scheduled jobs at the size of a large agency (decision 075): each job's statements
 * counted through a D1 that counts them (tests/setup/d1-count.ts), its rows read compared at
 * two sizes, its query plans read for scans of the big tables.
 */

const owner = { agencyId: "demo", staffId: null, staffUsername: "jobs-owner", ip: "local", userAgent: null };
const MINUTE = 60_000;

beforeAll(async () => {
  await seedDemo();
});

/** `n` withdrawals waiting for staff (the manual queue), created `minutesAgo` ago, each with its player. */
async function waitingWithdrawals(n: number, minutesAgo: number): Promise<void> {
  const at = new Date(Date.now() - minutesAgo * MINUTE).toISOString();
  const statements = Array.from({ length: n }, (_, i) => {
    const id = `jobs-w-${minutesAgo}-${i}`;
    return [
      env.DB.prepare(
        `INSERT INTO players (id, agency_id, username, display_name, phone, password_hash) VALUES (?1, 'demo', ?1, 'Jobs Player', '02011111111', 'x')`,
      ).bind(id),
      env.DB.prepare(
        `INSERT INTO withdraw_orders_view (code, agency_id, player_id, provider, credit, received, status, review, created_at, updated_at, projection_version)
         VALUES (?1, 'demo', ?2, 'askmebet', '6000.00', '3480000.00', 'OPEN', 'MANUAL', ?3, ?3, 1)`,
      ).bind(`W${id}`, id, at),
    ];
  });
  await env.DB.batch(statements.flat());
}

describe("the staff alerts' sweep, every minute", () => {
  it("writes only what is new, in one batch: a sweep that finds nothing new writes nothing, and its statements do not grow with what waits", async () => {
    const chat = await newSandboxChat();
    await saveAlertSettings(env, owner, {
      token: SANDBOX_TELEGRAM_TOKEN,
      chatIds: [chat],
      language: "lo",
      quietStart: null,
      quietEnd: null,
      topics: ["withdrawals", "payments", "providers", "forwarder", "security", "summary"],
      withdrawalReminderMinutes: 15,
      depositWaitMinutes: 10,
      summaryHour: null,
      primaryHost: "localhost",
    });
    await waitingWithdrawals(10, 20);
    for (let i = 0; i < 5; i++) {
      await insertUnmatchedPayment(env.DB, {
        agencyId: "demo",
        kind: "UNKNOWN_REFERENCE",
        reference: `JOBSREF${i}`,
        transactionId: `JOBSTX${i}`,
        amount: "250000.00",
        orderPlayerId: null,
      });
    }
    await recordAudit(env.DB, { ...owner, staffUsername: "cashier-new-phone" }, { action: "auth.login", target: "staff:x", after: { newDevice: true } });
    const now = Date.now();

    const first = countingD1(env.DB);
    await sweepAlerts({ ...env, DB: first.db }, now);
    const raised = 10 + 10 + 5 + 1; // waiting + reminders + payments + new device
    expect((await env.DB.prepare(`SELECT COUNT(*) AS n FROM alert_events WHERE agency_id = 'demo'`).first<{ n: number }>())?.n).toBe(raised);

    const quiet = countingD1(env.DB);
    await sweepAlerts({ ...env, DB: quiet.db }, now + 30_000);
    console.log("alerts sweep, first:", JSON.stringify({ ...first.count, sql: undefined }), "nothing new:", JSON.stringify({ ...quiet.count, sql: undefined }));
    // every event found was raised the minute before: read, nothing written
    expect(quiet.count.writeStatements).toBe(0);
    expect(quiet.count.rowsWritten).toBe(0);
    // the first sweep's only difference: its new events, recorded in one batch
    expect(first.count.writeStatements).toBe(raised);
    expect(first.count.roundTrips).toBe(quiet.count.roundTrips + 1);
    // the sweep's reads: settings, what to send again, the manual queue (count and page), unmatched
    // payments (count and page), held credits, the audit log, waiting deposits, provider
    // failures, provider episodes, silent forwarders, and which events are known
    expect(quiet.count.statements).toBeLessThanOrEqual(13);

    // thirty more waiting: thirty more events in the same one batch, and then again nothing
    await waitingWithdrawals(30, 1);
    const more = countingD1(env.DB);
    await sweepAlerts({ ...env, DB: more.db }, now + 60_000);
    expect(more.count.writeStatements).toBe(30);
    expect(more.count.roundTrips).toBe(quiet.count.roundTrips + 1);
    const still = countingD1(env.DB);
    await sweepAlerts({ ...env, DB: still.db }, now + 90_000);
    expect(still.count.statements).toBe(quiet.count.statements);
    expect(still.count.writeStatements).toBe(0);
  });
});
