import { DurableObject } from "cloudflare:workers";

type ProviderEnv = { PROVIDER: DurableObjectNamespace<SandboxProvider>; AGENT_USERNAME: string; AGENT_SECRET: string };

export class SandboxProvider extends DurableObject<ProviderEnv> {
  async health(): Promise<string> {
    return "ok";
  }
}

export default {
  async fetch(request: Request, env: ProviderEnv): Promise<Response> {
    const url = new URL(request.url);
    if (url.pathname === "/health") {
      const stub = env.PROVIDER.get(env.PROVIDER.idFromName("health"));
      return Response.json({ status: await stub.health() });
    }
    return Response.json({ error: "NOT_FOUND" }, { status: 404 });
  },
} satisfies ExportedHandler<ProviderEnv>;
