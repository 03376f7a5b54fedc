/**
 * Production configuration guard. A deployed agency (ENVIRONMENT not local/development/
 * test) must have every secret set to a real value: until it does, the Worker answers
 * 500 "misconfigured" to every request and logs which secret is wrong (never its value).
 * Local `npm start`, `npm run dev`, vitest and the e2e server run with ENVIRONMENT =
 * "local" (wrangler.toml top level) and are not checked.
 *
 * The list of secrets is the "Secrets" table of docs/deploy-and-go-live.md; keep both in step.
 */

/** Environments where sandboxes and generated/demo secrets are expected. */
const LOCAL_ENVIRONMENTS = ["local", "development", "test"] as const;

/**
 * Values that are public (committed to the repository) and so must never protect a real
 * agency: wrangler.toml's sandbox vars, vitest.config.ts's test secrets, the library
 * default of remix-toast. scripts/dev-vars.mjs writes random values, never a fixed one.
 */
export const DEMO_SECRET_VALUES: ReadonlySet<string> = new Set([
  "sandbox-provider-secret-demo-0001",
  "sandbox-bank-secret-demo-0001",
  "sandbox-webhook-secret-demo-0001",
  "test-secret-0123456789abcdef0123456789abcdef",
  "dGVzdC1jcmVkZW50aWFscy1rZXktMDEyMzQ1Njc4OWE=",
  "s3Cr3t",
]);

/** The secrets a deployed agency needs, and GATEWAY_WEBHOOK_SECRET, checked when set. (Operator API tokens are per agency, in D1: /admin/api-tokens.) */
export type ConfigEnv = {
  ENVIRONMENT?: string;
  SESSION_SECRET?: string;
  CREDENTIALS_KEY?: string;
  GATEWAY_WEBHOOK_SECRET?: string;
};

export type ConfigProblem = { name: string; problem: "missing" | "demo value" | "too short" | "invalid" | "sandbox in production" };

function isLocalEnvironment(env: { ENVIRONMENT?: string }): boolean {
  return (LOCAL_ENVIRONMENTS as readonly string[]).includes(env.ENVIRONMENT ?? "");
}

const MIN_SECRET_LENGTH = 32;

function checkSecret(name: string, value: unknown, { required }: { required: boolean }): ConfigProblem | null {
  if (typeof value !== "string" || value.trim() === "") return required ? { name, problem: "missing" } : null;
  const parts =
    name === "SESSION_SECRET"
      ? value
          .split(",")
          .map((s) => s.trim())
          .filter(Boolean)
      : [value];
  if (parts.length === 0) return { name, problem: "missing" };
  if (parts.some((p) => DEMO_SECRET_VALUES.has(p))) return { name, problem: "demo value" };
  if (parts.some((p) => p.length < MIN_SECRET_LENGTH)) return { name, problem: "too short" };
  return null;
}

/** A base64 AES-256 key: exactly 32 bytes once decoded. */
export function isCredentialsKey(value: string): boolean {
  try {
    return atob(value.trim()).length === 32;
  } catch {
    return false;
  }
}

/**
 * Every problem of a non-local environment's configuration (empty for local ones).
 * Pure: tested in tests/integration/config.test.ts.
 */
export function configProblems(env: ConfigEnv): ConfigProblem[] {
  if (isLocalEnvironment(env)) return [];
  const problems: ConfigProblem[] = [];
  const push = (p: ConfigProblem | null) => p && problems.push(p);
  push(checkSecret("SESSION_SECRET", env.SESSION_SECRET, { required: true }));
  // Only an agency paid through a payment gateway has a value for it: without it the
  // webhook refuses every delivery and no gateway channel can be saved (services/agency/admin-settings.ts).
  push(checkSecret("GATEWAY_WEBHOOK_SECRET", env.GATEWAY_WEBHOOK_SECRET, { required: false }));
  const key = env.CREDENTIALS_KEY;
  if (typeof key !== "string" || key.trim() === "") push({ name: "CREDENTIALS_KEY", problem: "missing" });
  else if (DEMO_SECRET_VALUES.has(key.trim())) push({ name: "CREDENTIALS_KEY", problem: "demo value" });
  else if (!isCredentialsKey(key)) push({ name: "CREDENTIALS_KEY", problem: "invalid" });
  // Any other binding still holding a public demo value (e.g. sandbox vars copied over).
  const all = env as Record<string, unknown>;
  for (const [name, value] of Object.entries(all)) {
    if (problems.some((p) => p.name === name)) continue;
    if (typeof value === "string" && DEMO_SECRET_VALUES.has(value)) push({ name, problem: "demo value" });
  }
  // The sandboxes are local/test Workers with public credentials, never a real agency's.
  for (const name of ["SANDBOX_PROVIDER", "SANDBOX_BANK", "SANDBOX_TELEGRAM"]) {
    if (all[name] !== undefined) push({ name, problem: "sandbox in production" });
  }
  return problems;
}

let logged = false;

/**
 * The response every request gets while the configuration is wrong, or null when it is
 * fine. Logs the problems once per isolate (names and reasons only, never values).
 */
export function misconfiguredResponse(env: ConfigEnv): Response | null {
  const problems = configProblems(env);
  if (problems.length === 0) return null;
  if (!logged) {
    logged = true;
    console.error(
      `misconfigured ${env.ENVIRONMENT ?? "(no ENVIRONMENT)"} environment: ${problems.map((p) => `${p.name} ${p.problem}`).join("; ")}. ` +
        'See docs/deploy-and-go-live.md "Secrets"; set them with `wrangler secret put <NAME> --env <agency>`.',
    );
  }
  return new Response("misconfigured", { status: 500, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });
}
