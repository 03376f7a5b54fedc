import type { SandboxProvider } from "./object";

/** The sandbox's own bindings (see wrangler.toml); not part of the portal's Env. */
export type ProviderEnv = {
  PROVIDER: DurableObjectNamespace<SandboxProvider>;
  AGENT_USERNAME: string;
  AGENT_SECRET: string;
};
