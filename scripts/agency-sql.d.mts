// Types of scripts/agency-sql.mjs for the TypeScript tests that import it.
export type AgencyOptions = {
  env: string;
  id: string;
  name: string;
  domains: string[];
  owner: string;
  rate: { buy: string; sell: string } | null;
  remote: boolean;
  persistTo: string | undefined;
};
export const ENROL_TTL_MS: number;
export class Refusal extends Error {}
export function fail(message: string): never;
export function parse(argv: string[]): AgencyOptions;
export function unusablePasswordHash(): string;
export const q: (value: unknown) => string;
export function enrolToken(): { token: string; hash: string };
export function buildSql(opts: AgencyOptions, staffId: string, tokenHash: string, expiresAt: number): string;
