// Types of scripts/agency-sql.mjs for the TypeScript tests that import it.
export type AgencyOptions = {
  env: string;
  id: string;
  name: string;
  domains: string[];
  owner: string;
  rate: { buy: string; sell: string } | null;
  /** --brand-color: the primary colour (checked with the brand rules by create-agency.mjs). */
  brandColor?: string | null;
  /** --logo: a file path. */
  logo?: string | null;
  /** What the brand starts with (set by create-agency.mjs after checking), for the audit row. */
  brand?: { colors: Record<string, string> | null; logo: string | null };
  remote: boolean;
  persistTo: string | undefined;
  /** --port: the port a local server answers on. */
  port?: string | null;
};
export const ENROL_TTL_MS: number;
export class Refusal extends Error {}
export function fail(message: string): never;
export function parse(argv: string[]): AgencyOptions;
/** The origin the printed enrolment link starts with (tests/scripts/enrol-link.test.ts). */
export function linkOrigin(opts: AgencyOptions): string;
export function unusablePasswordHash(): string;
export const q: (value: unknown) => string;
export function enrolToken(): { token: string; hash: string };
export function buildSql(opts: AgencyOptions, staffId: string, tokenHash: string, expiresAt: number): string;
