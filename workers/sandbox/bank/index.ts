import { DurableObject } from "cloudflare:workers";

type BankEnv = { BANK: DurableObjectNamespace<SandboxBank>; PORTAL?: Fetcher; DELIVERY_MODE?: string; MERCHANT_ID: string; MERCHANT_SECRET: string; WEBHOOK_SECRET: string };

export class SandboxBank extends DurableObject<BankEnv> {
  async health(): Promise<string> {
    return "ok";
  }
}

export default {
  async fetch(request: Request, env: BankEnv): Promise<Response> {
    const url = new URL(request.url);
    if (url.pathname === "/health") {
      const stub = env.BANK.get(env.BANK.idFromName("health"));
      return Response.json({ status: await stub.health() });
    }
    return Response.json({ error: "NOT_FOUND" }, { status: 404 });
  },
} satisfies ExportedHandler<BankEnv>;
