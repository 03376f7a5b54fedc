import { normalizeHost } from "../../core/host";
import {
  adaptersOffered,
  checkProviderUrl,
  isLocalEnvironment,
  NO_PUBLIC_API,
  providerCredentialsAad,
  providerCspSources,
  setupProblem,
  type ProviderAdapterKind,
  type ProviderSetup,
} from "../../core/provider-setup";
import { isProvider, PROVIDERS, type Provider } from "../../core/providers";
import { sealSecret } from "../../core/secret-box";
import { listCredentialDates, upsertCredentialsStatement } from "../../db/agencies";
import { auditStatement, type AuditActor } from "../../db/audit";
import { forgetProviderMembersStatement } from "../../db/provider-members";
import { findProviderSetup, listProviderSetups, listProviderSetupsByHost, upsertProviderSetupStatement } from "../../db/provider-settings";
import { readProviderCredentials } from "../agency";
import { forgetProviderSetup } from "../../wallet/provider-port";

/**
 * The owner's provider setup (admin/settings/providers, decision 017): per provider, which
 * adapter reaches it, its base URL, product or brand code, lobby and image hosts, and
 * write-only credentials sealed with CREDENTIALS_KEY in provider_credentials, and for
 * Betflix the optional member prefix (decision 048). A new base URL (or a new adapter) asks
 * for the credentials again in the same change: credentials meant for one host are never
 * sent to another. Another account at the provider (new base URL, adapter or agent) forgets
 * the member names kept at the old one: they name nobody there. Every change is one D1 batch with its
 * audit row (never a secret). Role checks are the route's (owner only).
 */

export type ProviderSetupInput = {
  provider: string;
  adapter: string;
  baseUrl: string | null;
  productCode: string | null;
  lobbyUrl: string | null;
  imageUrl: string | null;
  /** Betflix: the agent prefix before member names (optional; decision 048). */
  memberPrefix?: string | null;
  /** Write-only: empty keeps the stored credentials (unless the base URL changes). */
  agent: string | null;
  secret: string | null;
};

type ProviderSetupRow = {
  provider: Provider;
  /** "default": nothing stored (the sandbox locally, else not configured). */
  adapter: ProviderAdapterKind | "default";
  baseUrl: string | null;
  productCode: string | null;
  lobbyUrl: string | null;
  imageUrl: string | null;
  memberPrefix: string | null;
  credentialsSetAt: string | null;
  /** gclub, gclub_live, alphabet: no public API, reached through AMB or Betflix by product code. */
  noPublicApi: boolean;
};

export type ProviderSetupScreen = { local: boolean; adapters: ProviderAdapterKind[]; providers: ProviderSetupRow[] };

export async function providerSetupScreen(env: Env, agencyId: string): Promise<ProviderSetupScreen> {
  const local = isLocalEnvironment(env.ENVIRONMENT);
  const [setups, dates] = await Promise.all([listProviderSetups(env.DB, agencyId), listCredentialDates(env.DB, agencyId)]);
  const byProvider = new Map(setups.map((s) => [s.provider, s]));
  const setAt = new Map(dates.map((d) => [d.provider, d.setAt]));
  return {
    local,
    adapters: adaptersOffered(local),
    providers: PROVIDERS.map((provider) => {
      const s = byProvider.get(provider);
      return {
        provider,
        adapter: s?.adapter ?? "default",
        baseUrl: s?.baseUrl ?? null,
        productCode: s?.productCode ?? null,
        lobbyUrl: s?.lobbyUrl ?? null,
        imageUrl: s?.imageUrl ?? null,
        memberPrefix: s?.memberPrefix ?? null,
        credentialsSetAt: setAt.get(provider) ?? null,
        noPublicApi: NO_PUBLIC_API.includes(provider),
      };
    }),
  };
}

export type ProviderSetupResult = { ok: true } | { ok: false; code: string; field?: string };

function maskAgent(agent: string): string {
  return agent.length <= 2 ? "*".repeat(agent.length) : `${agent.slice(0, 2)}${"*".repeat(Math.min(agent.length - 2, 8))}`;
}

const MIN_SECRET_LENGTH = 8;

export async function saveProviderSetup(env: Env, actor: AuditActor, input: ProviderSetupInput): Promise<ProviderSetupResult> {
  if (!isProvider(input.provider)) return { ok: false, code: "PROVIDER_UNKNOWN", field: "provider" };
  const provider = input.provider;
  const local = isLocalEnvironment(env.ENVIRONMENT);
  const real = input.adapter === "amb" || input.adapter === "betflix";
  const norm = (value: string | null) => {
    if (!value) return null;
    const checked = checkProviderUrl(value, local);
    return checked.ok ? checked.url : value;
  };
  const fields = {
    adapter: input.adapter,
    baseUrl: real ? norm(input.baseUrl) : null,
    productCode: real ? input.productCode?.trim() || null : null,
    lobbyUrl: real ? norm(input.lobbyUrl) : null,
    imageUrl: real ? norm(input.imageUrl) : null,
    memberPrefix: input.adapter === "betflix" ? input.memberPrefix?.trim() || null : null,
  };
  const problem = setupProblem(fields, local);
  if (problem) return { ok: false, code: problem.code, field: problem.field };
  const adapter = fields.adapter as ProviderAdapterKind;
  const before = await findProviderSetup(env.DB, actor.agencyId, provider);
  const dates = await listCredentialDates(env.DB, actor.agencyId);
  const credentialsSet = dates.some((d) => d.provider === provider);
  const agent = input.agent?.trim() ?? "";
  const secret = input.secret ?? "";
  const given = agent !== "" || secret !== "";
  if (given && (agent === "" || agent.length > 100)) return { ok: false, code: "PROVIDER_CREDENTIALS_INVALID", field: "agent" };
  if (given && (secret.length < MIN_SECRET_LENGTH || secret.length > 500)) return { ok: false, code: "PROVIDER_CREDENTIALS_INVALID", field: "secret" };
  // Credentials belong to one host of one adapter: a new base URL or adapter asks for them again.
  const hostChanged = real && (before?.adapter !== adapter || before?.baseUrl !== fields.baseUrl);
  if (real && !given && (hostChanged || !credentialsSet)) return { ok: false, code: "PROVIDER_CREDENTIALS_REQUIRED", field: "agent" };
  const next: Omit<ProviderSetup, "createdAt"> = {
    provider,
    adapter,
    baseUrl: fields.baseUrl,
    productCode: fields.productCode,
    lobbyUrl: fields.lobbyUrl,
    imageUrl: fields.imageUrl,
    memberPrefix: fields.memberPrefix,
  };
  const statements = [upsertProviderSetupStatement(env.DB, actor.agencyId, next)];
  // Member names belong to one account at the provider: another agent, or another real
  // adapter, is another account. A new secret for the same agent is not, nor a new base URL
  // (a mirror host) or a pause as "disabled". Unreadable old credentials count as another
  // account: names are found again (adopted) rather than sent to a stranger.
  const storedAgent =
    given && credentialsSet ? ((await readProviderCredentials(env.DB, env.CREDENTIALS_KEY, actor.agencyId, provider).catch(() => null))?.agent ?? null) : null;
  const beforeReal = before?.adapter === "amb" || before?.adapter === "betflix";
  const accountChanged = real && ((beforeReal && before?.adapter !== adapter) || (given && storedAgent !== agent));
  if (accountChanged) statements.push(forgetProviderMembersStatement(env.DB, actor.agencyId, provider));
  if (given) {
    const sealed = await sealSecret(env.CREDENTIALS_KEY, JSON.stringify({ agent, secret }), providerCredentialsAad(actor.agencyId, provider));
    statements.push(upsertCredentialsStatement(env.DB, actor.agencyId, provider, maskAgent(agent), sealed));
  }
  const shown = (s: Omit<ProviderSetup, "createdAt"> | null) =>
    s ? { adapter: s.adapter, baseUrl: s.baseUrl, productCode: s.productCode, lobbyUrl: s.lobbyUrl, imageUrl: s.imageUrl, memberPrefix: s.memberPrefix } : null;
  statements.push(
    auditStatement(env.DB, actor, {
      action: "settings.provider-setup",
      target: provider,
      before: { ...shown(before), credentialsSet },
      after: { ...shown(next), credentialsSet: credentialsSet || given, credentialsChanged: given, ...(accountChanged ? { membersForgotten: true } : {}) },
    }),
  );
  await env.DB.batch(statements);
  forgetProviderSetup(actor.agencyId, provider);
  forgetProviderCsp();
  return { ok: true };
}

/**
 * The sources each host's Content-Security-Policy adds, kept by the isolate as long as a
 * provider setup (decision 033): every page needs them after it has rendered, and a read
 * then was one more round trip to D1 at the end of every page (decision 076). Saving a
 * setup here forgets them at once; another isolate's save reaches this one at most 30 s later.
 */
const PROVIDER_CSP_KEPT_MS = 30_000;
type CspSources = { img: string[]; launch: string[] };
const keptCsp = new Map<string, { sources: CspSources; until: number }>();
/** Bumped by every forgetProviderCsp: a read that began before a save must not keep what it read. */
let cspChanges = 0;

/** After a provider setup is saved: every host's sources are read again (a host does not say its agency). */
export function forgetProviderCsp(): void {
  cspChanges += 1;
  keptCsp.clear();
}

/**
 * The sources the Content-Security-Policy adds for the agency serving a host: its
 * configured providers' image hosts and launch hosts (core/provider-setup.ts
 * providerCspSources). Nothing for an unknown host or a failed read (the strict policy).
 */
export async function providerCspForHost(env: Env, hostHeader: string | null, now: number = Date.now()): Promise<CspSources> {
  const host = normalizeHost(hostHeader);
  if (!host) return { img: [], launch: [] };
  const kept = keptCsp.get(host);
  if (kept && kept.until > now) return kept.sources;
  const changesBefore = cspChanges;
  try {
    const sources = providerCspSources(await listProviderSetupsByHost(env.DB, host));
    if (changesBefore === cspChanges) keptCsp.set(host, { sources, until: now + PROVIDER_CSP_KEPT_MS });
    return sources;
  } catch (error) {
    console.error("provider CSP sources unreadable", error);
    return { img: [], launch: [] };
  }
}
