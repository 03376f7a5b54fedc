import { EXISTS, MEMBER_NAME, type Read } from "./betflix-api";
import { isRecord } from "./http";

/**
 * Betflix's member names (decision 048), as betflix.ts's header explains them: the name
 * Betflix answers at registration is the member, kept per player (`MemberBook`, the wallet's
 * D1 table provider_members) and used by every later call; a name that exists is adopted;
 * a player with no kept name is addressed as prefix + name. Sources in brackets: betflix.ts.
 */

/**
 * The member names kept per player, keyed by the name we register (our provider username).
 * `find` and `findMany` throw when the store cannot be read; `keep` answers false when the
 * name could not be kept (store down, or another player already holds that member).
 */
export type MemberBook = {
  find(username: string): Promise<string | null>;
  findMany(usernames: readonly string[]): Promise<Map<string, string>>;
  keep(username: string, member: string): Promise<boolean>;
};

/** The member to address, and whether it is a kept name (else prefix + name, a guess). */
type MemberName = { member: string; kept: boolean };

type Registered = { kind: "ok"; member: string } | { kind: "failed"; reason: string };

export class BetflixMembers {
  constructor(
    private readonly config: { upline?: string; members?: MemberBook },
    /** One form POST to the Betflix API, its answer read (the adapter's transport). */
    private readonly post: (path: string, fields: Record<string, string>) => Promise<Read>,
  ) {}

  /** Betflix's name for a player with no kept name: prefix + our provider username ([OAK]). */
  private prefixed(username: string): string {
    return `${this.config.upline ?? ""}${username}`;
  }

  /** The kept name, else prefix + name; null when the book cannot be read. */
  async nameOf(username: string): Promise<MemberName | null> {
    if (!this.config.members) return { member: this.prefixed(username), kept: false };
    try {
      const kept = await this.config.members.find(username);
      return kept ? { member: kept, kept: true } : { member: this.prefixed(username), kept: false };
    } catch {
      return null;
    }
  }

  /** The kept names of many players (the period report); throws when the book cannot be read. */
  async namesOf(usernames: readonly string[]): Promise<(username: string) => string> {
    const kept = this.config.members ? await this.config.members.findMany(usernames) : new Map<string, string>();
    return (username) => kept.get(username) ?? this.prefixed(username);
  }

  /**
   * The member of a player about to receive credit or open a game: the kept name, else
   * register (or adopt) and keep it. Nothing has moved yet, so any failure here is a
   * refusal. A name that could not be kept is not used: every transfer goes to a kept name.
   */
  async ensure(username: string): Promise<Registered> {
    const known = await this.nameOf(username);
    if (known === null) return { kind: "failed", reason: "member names unreadable" };
    if (known.kept) return { kind: "ok", member: known.member };
    const reg = await this.register(username);
    if (reg.kind === "failed") {
      // Another call for the same player (a launch beside a deposit) may have registered
      // and kept the member meanwhile: Betflix then says "exists" to this one.
      const again = this.config.members ? await this.nameOf(username) : null;
      return again?.kept ? { kind: "ok", member: again.member } : reg;
    }
    if (!this.config.members) return reg;
    const kept = await this.config.members.keep(username, reg.member).catch(() => false);
    return kept ? reg : { kind: "failed", reason: `member ${reg.member} could not be kept` };
  }

  /**
   * [OAK] POST /v4/user/register `username, password, name, tel, note` with our bare name ->
   * [BFP]/[EXP] `data.username`, the name Betflix gave the member (its prefix + ours): that
   * name is the member. Without `data.username`, prefix + name ([BFP] falls back to the
   * name it sent). "exist/already/duplicate" ([BFP]) = the member exists: adopted.
   * Players enter games through login tokens, so the password is random and not kept.
   */
  private async register(username: string): Promise<Registered> {
    const r = await this.post("/v4/user/register", { username, password: randomPassword(), name: username, tel: "", note: "" });
    if (r.kind === "unknown") return { kind: "failed", reason: r.reason };
    if (r.kind === "unauthorized") return { kind: "failed", reason: "unauthorized" };
    if (!r.env.ok) return EXISTS.test(r.env.msg) ? this.adopt(username) : { kind: "failed", reason: r.env.msg || "register refused" };
    const returned = isRecord(r.env.data) && typeof r.env.data.username === "string" ? r.env.data.username.trim() : "";
    if (returned === "") return { kind: "ok", member: this.prefixed(username) };
    if (!MEMBER_NAME.test(returned)) return { kind: "failed", reason: "register answered an unreadable username" };
    return { kind: "ok", member: returned };
  }

  /**
   * Betflix says the name exists but not under which member name: prefix + name, then the
   * bare name (a member registered where Betflix added nothing), each asked by a balance
   * call. Without the prefix a prefixed member cannot be found: failed (staff set the prefix).
   */
  private async adopt(username: string): Promise<Registered> {
    for (const candidate of new Set([this.prefixed(username), username])) {
      const state = await this.memberState(candidate);
      if (state === "exists") return { kind: "ok", member: candidate };
      if (state === "unknown") return { kind: "failed", reason: "existing member: balance check unavailable" };
    }
    return { kind: "failed", reason: "the member exists under a name we do not know (set the prefix in the provider settings)" };
  }

  /** Exists (balance answers), missing (balance says error), or cannot tell. [OAK]/[TSA] POST /v4/user/balance. */
  private async memberState(member: string): Promise<"exists" | "missing" | "unknown"> {
    const r = await this.post("/v4/user/balance", { username: member });
    if (r.kind !== "envelope") return "unknown";
    return r.env.ok ? "exists" : "missing";
  }
}

function randomPassword(): string {
  const alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789";
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  let out = "";
  for (const b of bytes) out += alphabet[b % alphabet.length];
  return out;
}
