/**
 * Cookie-signing secrets come from the environment as a comma-separated list (newest
 * first) so they can be rotated. There is no default: a missing or weak secret stops the
 * request instead of signing with a public string (remix-toast's default is "s3Cr3t").
 */
/** Secrets live outside wrangler.toml (`wrangler secret put`, .dev.vars), so `Env` may not list them. */
export type SecretEnv = { SESSION_SECRET?: string } & Partial<Env>;

export function cookieSecrets(env: SecretEnv): string[] {
  const secrets = (env.SESSION_SECRET ?? "")
    .split(",")
    .map((s: string) => s.trim())
    .filter(Boolean);
  if (secrets.length === 0 || secrets.some((s: string) => s.length < 32)) {
    throw new Error("SESSION_SECRET must be set to one or more comma-separated secrets of at least 32 characters");
  }
  return secrets;
}

/** Cookies carry Secure except on plain-HTTP local development (http://localhost). */
export function isSecureRequest(request: Request): boolean {
  return new URL(request.url).protocol === "https:";
}
