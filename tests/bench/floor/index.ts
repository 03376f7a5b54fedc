import { DurableObject } from "cloudflare:workers";

/**
 * The floor of the settlement benchmark (scripts/bench-settlement.mjs, decision 024): the
 * least a Worker can do per request that touches a Durable Object, one SQLite write in the
 * object named by `?player=` (one object per player, like PlayerWallet). Settlement
 * throughput is reported as a share of this on the same machine, in the same run.
 */
type FloorEnv = { FLOOR: DurableObjectNamespace<FloorObject> };

export class FloorObject extends DurableObject<FloorEnv> {
  constructor(ctx: DurableObjectState, env: FloorEnv) {
    super(ctx, env);
    ctx.storage.sql.exec("CREATE TABLE IF NOT EXISTS writes (seq INTEGER PRIMARY KEY AUTOINCREMENT, at INTEGER NOT NULL)");
  }

  write(at: number): number {
    return this.ctx.storage.sql.exec("INSERT INTO writes (at) VALUES (?)", at).rowsWritten;
  }
}

export default {
  async fetch(request: Request, env: FloorEnv): Promise<Response> {
    const player = new URL(request.url).searchParams.get("player") ?? "0";
    const written = await env.FLOOR.get(env.FLOOR.idFromName(player)).write(Date.now());
    return new Response(String(written));
  },
} satisfies ExportedHandler<FloorEnv>;
