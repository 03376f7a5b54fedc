import type { Provider } from "../core/providers";
import { PROVIDER_USERNAME_RULES, providerUsernameFor, type UsernameRule } from "../core/provider-username";
import type { ProviderSetup } from "../core/provider-setup";
import { vientianeDate } from "../core/vientiane";
import {
  sandboxPort,
  UnconfiguredProviderAdapter,
  type GameProviderPort,
  type LaunchGame,
  type PeriodSummary,
  type SummaryInput,
  type TransferInput,
  type TransferOutcome,
} from "./provider";
import { AmbSuperApiAdapter } from "./providers/amb";
import { BetflixAdapter } from "./providers/betflix";
import type { MemberBook } from "./providers/betflix-members";
import type { FetchLike, OwnerLookup } from "./providers/http";

/** What the port factory needs beyond the stored setup (decision 017). */
export type PortWiring = {
  /** The agency's credentials for this provider, opened; null when none are set. */
  credentials: { agent: string; secret: string } | null;
  /** Whose transfer a reference is (player's legacy provider name + direction + time). */
  ownerOf: OwnerLookup;
  /** The player id behind a legacy provider name `agencyId_username` (derived names digest it). */
  playerIdOf: (legacyName: string) => Promise<string | null>;
  /**
   * The member names a provider answered, per player (decision 048: Betflix prefixes the
   * name we register). `find`/`findAll` throw when they cannot be read; `keep` answers false
   * when the name was not kept (another player holds it, or the store is down).
   */
  members: {
    find(playerId: string): Promise<string | null>;
    findAll(): Promise<Map<string, string>>;
    keep(playerId: string, username: string, member: string): Promise<boolean>;
  };
  /** Tests inject a fake here; production uses the global fetch. */
  fetch?: FetchLike;
};

/**
 * The port of one provider for one agency, from its stored setup:
 * - no stored setup: the sandbox where its binding exists (npm start, every test), else
 *   not configured;
 * - "sandbox": the same (the settings screen offers it only in a local environment);
 * - "disabled": not configured (nothing is sent anywhere);
 * - "amb" / "betflix": the real adapter, with the agency's credentials (none: not
 *   configured), reached under the provider username that fits its rule; Betflix's
 *   member names are the ones it answered, kept per player (decision 048).
 */
export function buildProviderPort(env: Env, provider: Provider, setup: ProviderSetup | null, wiring: PortWiring): GameProviderPort {
  if (setup === null || setup.adapter === "sandbox") return sandboxPort(env, provider);
  if (setup.adapter === "disabled" || !setup.baseUrl || !wiring.credentials) return new UnconfiguredProviderAdapter();
  const { agent, secret } = wiring.credentials;
  // The username rule is the API's: a provider reached through AMB follows AMB's rule.
  const rule = setup.adapter === "amb" ? PROVIDER_USERNAME_RULES.askmebet : PROVIDER_USERNAME_RULES.betflix;
  const names = new ProviderNames(rule, wiring.playerIdOf);
  const ownerOf: OwnerLookup = async (reference) => {
    const owner = await wiring.ownerOf(reference);
    if (!owner) return null;
    const name = await names.of(owner.username);
    return name ? { ...owner, username: name } : null;
  };
  const adapter: GameProviderPort =
    setup.adapter === "amb"
      ? new AmbSuperApiAdapter({ baseUrl: setup.baseUrl, agent, key: secret, productId: setup.productCode ?? "", fetch: wiring.fetch, ownerOf })
      : new BetflixAdapter({
          baseUrl: setup.baseUrl,
          apiCat: agent,
          apiKey: secret,
          entrance: setup.lobbyUrl ?? setup.baseUrl,
          imageBase: setup.imageUrl ?? undefined,
          brands: setup.productCode ? setup.productCode.split(",") : undefined,
          upline: setup.memberPrefix ?? undefined,
          members: memberBook(names, wiring.members),
          // The growing counter starts the day the setup was stored (Bangkok dates).
          turnoverSince: vientianeDate(Date.parse(setup.createdAt)),
          fetch: wiring.fetch,
          ownerOf,
        });
  return new RenamingPort(adapter, names);
}

/**
 * Callers name a player by the legacy `agencyId_username` (what every player has at the
 * sandbox); a real provider's rule refuses "_", so there the player is the derived name
 * of core/provider-username.ts (agency prefix + digest of the player id), resolved once.
 */
class ProviderNames {
  private readonly cache = new Map<string, Promise<string | null>>();
  /** provider name -> player id, for every name handed to the adapter (they all pass here). */
  private readonly players = new Map<string, string>();
  constructor(
    private readonly rule: UsernameRule,
    private readonly playerIdOf: (legacyName: string) => Promise<string | null>,
  ) {}

  of(legacyName: string): Promise<string | null> {
    let found = this.cache.get(legacyName);
    if (!found) {
      found = this.resolve(legacyName);
      this.cache.set(legacyName, found);
    }
    return found;
  }

  private async resolve(legacyName: string): Promise<string | null> {
    const playerId = await this.playerIdOf(legacyName);
    return playerId ? this.withId(legacyName, playerId) : null;
  }

  /** The provider's name when the caller knows the player id (no lookup). */
  withId(legacyName: string, playerId: string): string | null {
    const cut = legacyName.indexOf("_");
    if (cut <= 0) return null;
    const name = providerUsernameFor(this.rule, { agencyId: legacyName.slice(0, cut), username: legacyName.slice(cut + 1), playerId }).name;
    this.players.set(name, playerId);
    return name;
  }

  /** The player behind a provider name this port resolved (null for a name it never saw). */
  playerOf(name: string): string | null {
    return this.players.get(name) ?? null;
  }
}

/**
 * The adapter's book of member names, keyed by the provider name it is given, stored by
 * player id: every name reaching the adapter went through ProviderNames, which knows whose
 * it is. A name it never saw has no kept member and cannot be kept.
 */
function memberBook(names: ProviderNames, members: PortWiring["members"]): MemberBook {
  return {
    async find(username) {
      const playerId = names.playerOf(username);
      return playerId ? members.find(playerId) : null;
    },
    async findMany(usernames) {
      const byPlayer = await members.findAll();
      const out = new Map<string, string>();
      for (const username of usernames) {
        const member = byPlayer.get(names.playerOf(username) ?? "");
        if (member) out.set(username, member);
      }
      return out;
    },
    async keep(username, member) {
      const playerId = names.playerOf(username);
      return playerId ? members.keep(playerId, username, member) : false;
    },
  };
}

class RenamingPort implements GameProviderPort {
  constructor(
    private readonly inner: GameProviderPort,
    private readonly names: ProviderNames,
  ) {}
  private readonly unknownPlayer = "player unknown to this agency";
  games(tab: string | null) {
    return this.inner.games(tab);
  }
  async launchUrl(username: string, lang: string, game?: LaunchGame | null, returnUrl?: string | null) {
    const name = await this.names.of(username);
    return name ? this.inner.launchUrl(name, lang, game, returnUrl) : { kind: "unavailable" as const, reason: this.unknownPlayer };
  }
  async balance(username: string) {
    const name = await this.names.of(username);
    return name ? this.inner.balance(name) : { kind: "unavailable" as const, reason: this.unknownPlayer };
  }
  async turnover(username: string, since?: number) {
    const name = await this.names.of(username);
    return name ? this.inner.turnover(name, since) : { kind: "unavailable" as const, reason: this.unknownPlayer };
  }
  async transfer(input: TransferInput): Promise<TransferOutcome> {
    const name = await this.names.of(input.username);
    // Nothing was sent: a refusal, the credit did not move.
    return name ? this.inner.transfer({ ...input, username: name }) : { kind: "refused", code: "PLAYER_UNKNOWN" };
  }
  transferStatus(reference: string) {
    return this.inner.transferStatus(reference);
  }
  /** The players under the provider's names (derived from the ids, nothing looked up). */
  periodSummary(input: SummaryInput): Promise<PeriodSummary> {
    const players: SummaryInput["players"][number][] = [];
    for (const p of input.players) {
      const name = this.names.withId(p.username, p.playerId);
      if (name === null) return Promise.resolve({ kind: "unavailable", reason: `player name unreadable: ${p.username}` });
      players.push({ username: name, playerId: p.playerId });
    }
    return this.inner.periodSummary({ ...input, players });
  }
}
