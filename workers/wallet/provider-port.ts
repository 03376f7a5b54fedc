import { providerCredentialsAad, referenceOrder, type ProviderSetup } from "../core/provider-setup";
import type { Provider } from "../core/providers";
import { openSecret } from "../core/secret-box";
import { readCredentialsCiphertext } from "../db/agencies";
import { findPlayerByUsername } from "../db/players";
import { findProviderMember, keepProviderMember, listProviderMembers } from "../db/provider-members";
import { findOrderPlayer, findProviderSetup } from "../db/provider-settings";
import type { GameProviderPort, LaunchGame, PeriodSummary, SummaryInput, TransferInput, TransferOutcome, TransferStatus } from "../ports/provider";
import { buildProviderPort } from "../ports/provider-factory";
import type { TransferOwner } from "../ports/providers/http";

/**
 * The game provider port of one agency (decision 017): built from the agency's stored
 * provider setup (provider_settings) and its sealed credentials, not from environment
 * variables. It lives beside the wallet because the wallet is the lowest layer allowed to
 * read D1 and call ports; services use it from here too.
 *
 * The port is returned at once and resolved on its first call (the setup and credentials,
 * read from D1 at most once per PROVIDER_SETUP_TTL_MS per isolate, below), so call sites
 * stay `providerPortFor(env, agencyId, provider).transfer(...)`.
 * Without a stored setup the sandbox stays the default where its binding exists.
 */
export function providerPortFor(env: Env, agencyId: string, provider: Provider): GameProviderPort {
  return new LazyPort(() => resolvePort(env, agencyId, provider));
}

/**
 * How long an isolate keeps a provider setup it read (decision 033). Every settlement, bonus,
 * withdrawal and credit read used to read provider_settings (and for AMB/Betflix the sealed
 * credentials) again: under a crowd each read queued behind every other statement at the one
 * D1 database, on the path between "paid" and "credited" (200 players at once: 200 reads
 * waiting about 1.3 s each). A setup saved here is forgotten at once (forgetProviderSetup);
 * one saved through another isolate reaches this one at most this much later.
 */
const PROVIDER_SETUP_TTL_MS = 30_000;

type StoredSetup = { setup: ProviderSetup | null; credentials: { agent: string; secret: string } | null };
/** Plain values only, never a pending promise: a promise of one request is not awaited by another. */
const storedSetups = new Map<string, { value: StoredSetup; until: number }>();

/** After the owner saves a provider's setup or credentials: the next call reads them again. */
export function forgetProviderSetup(agencyId: string, provider: string): void {
  storedSetups.delete(`${agencyId}:${provider}`);
  const prefix = `${agencyId}:${provider}:`;
  for (const key of keptMembers.keys()) if (key.startsWith(prefix)) keptMembers.delete(key);
}

/**
 * Member names a provider answered (decision 048), kept by the isolate for the same time as
 * setups and for the same reason: a crowd of Betflix settlements would otherwise read
 * provider_members once each. A kept name never changes; it is only forgotten when the agency
 * moves to another account (saved here: at once; through another isolate: at most this late).
 * Names found missing are not kept: the next call may register the player.
 */
const keptMembers = new Map<string, { member: string; until: number }>();
const KEPT_MEMBERS_MAX = 10_000;

function rememberMember(key: string, member: string): void {
  if (keptMembers.size >= KEPT_MEMBERS_MAX) keptMembers.delete(keptMembers.keys().next().value!);
  keptMembers.set(key, { member, until: Date.now() + PROVIDER_SETUP_TTL_MS });
}

async function readSetup(env: Env, agencyId: string, provider: Provider): Promise<StoredSetup> {
  const key = `${agencyId}:${provider}`;
  const kept = storedSetups.get(key);
  if (kept && kept.until > Date.now()) return kept.value;
  const setup = await findProviderSetup(env.DB, agencyId, provider);
  let credentials: { agent: string; secret: string } | null = null;
  if (setup && (setup.adapter === "amb" || setup.adapter === "betflix")) {
    const sealed = await readCredentialsCiphertext(env.DB, agencyId, provider);
    const plain = sealed ? await openSecret(env.CREDENTIALS_KEY, sealed, providerCredentialsAad(agencyId, provider)).catch(() => null) : null;
    credentials = plain ? (JSON.parse(plain) as { agent: string; secret: string }) : null;
  }
  const value = { setup, credentials };
  storedSetups.set(key, { value, until: Date.now() + PROVIDER_SETUP_TTL_MS });
  return value;
}

async function resolvePort(env: Env, agencyId: string, provider: Provider): Promise<GameProviderPort> {
  const { setup, credentials } = await readSetup(env, agencyId, provider);
  return buildProviderPort(env, provider, setup, {
    credentials,
    ownerOf: (reference) => ownerOfReference(env.DB, agencyId, reference),
    playerIdOf: async (legacyName) => {
      const prefix = `${agencyId}_`;
      if (!legacyName.startsWith(prefix)) return null;
      return (await findPlayerByUsername(env.DB, agencyId, legacyName.slice(prefix.length)))?.id ?? null;
    },
    members: {
      find: async (playerId) => {
        const key = `${agencyId}:${provider}:${playerId}`;
        const known = keptMembers.get(key);
        if (known && known.until > Date.now()) return known.member;
        const member = await findProviderMember(env.DB, agencyId, provider, playerId);
        if (member) rememberMember(key, member);
        return member;
      },
      findAll: () => listProviderMembers(env.DB, agencyId, provider),
      keep: async (playerId, username, member) => {
        const kept = await keepProviderMember(env.DB, { agencyId, provider, playerId, username, member }).catch((error: unknown) => {
          console.error("provider member not kept", error);
          return false;
        });
        if (kept) rememberMember(`${agencyId}:${provider}:${playerId}`, member);
        return kept;
      },
    },
  });
}

/**
 * Whose transfer a reference is, from our own orders: the order code inside it
 * (core/provider-setup.ts referenceOrder) -> deposit_refs / withdraw_refs -> the player
 * of THIS agency. The name returned is the legacy one; the factory maps it to the
 * provider's. An unknown reference is null (the adapter then answers unknown, never a guess).
 */
async function ownerOfReference(db: D1Database, agencyId: string, reference: string): Promise<TransferOwner | null> {
  const order = referenceOrder(reference);
  if (!order) return null;
  const player = await findOrderPlayer(db, order.kind, order.code);
  if (!player || player.agencyId !== agencyId) return null;
  // The code's day at noon (UTC): Betflix's history is searched a day either side of it.
  return { username: `${agencyId}_${player.username}`, direction: order.direction, at: order.day + 12 * 3600_000 };
}

class LazyPort implements GameProviderPort {
  private port: Promise<GameProviderPort> | null = null;
  constructor(private readonly resolve: () => Promise<GameProviderPort>) {}
  /** The port, or null when the setup could not be read (D1 unavailable): asked again next call. */
  private async get(): Promise<GameProviderPort | null> {
    this.port ??= this.resolve();
    try {
      return await this.port;
    } catch (error) {
      console.error("provider setup unreadable", error);
      this.port = null;
      return null;
    }
  }
  private readonly noSetup = "provider setup unreadable";
  async games(tab: string | null) {
    const port = await this.get();
    return port ? port.games(tab) : { kind: "unavailable" as const, reason: this.noSetup };
  }
  async launchUrl(username: string, lang: string, game?: LaunchGame | null, returnUrl?: string | null) {
    const port = await this.get();
    return port ? port.launchUrl(username, lang, game, returnUrl) : { kind: "unavailable" as const, reason: this.noSetup };
  }
  async balance(username: string) {
    const port = await this.get();
    return port ? port.balance(username) : { kind: "unavailable" as const, reason: this.noSetup };
  }
  async turnover(username: string, since?: number) {
    const port = await this.get();
    return port ? port.turnover(username, since) : { kind: "unavailable" as const, reason: this.noSetup };
  }
  /** Nothing is sent without a setup, but "unknown" (not "refused") keeps the order for the status query. */
  async transfer(input: TransferInput): Promise<TransferOutcome> {
    const port = await this.get();
    return port ? port.transfer(input) : { kind: "unknown", reason: this.noSetup };
  }
  async transferStatus(reference: string): Promise<TransferStatus> {
    const port = await this.get();
    return port ? port.transferStatus(reference) : { kind: "unknown", reason: this.noSetup };
  }
  async periodSummary(input: SummaryInput): Promise<PeriodSummary> {
    const port = await this.get();
    return port ? port.periodSummary(input) : { kind: "unavailable", reason: this.noSetup };
  }
}
