/** The game providers of the product; each holds its own credit wallet per player. */
export const PROVIDERS = ["askmebet", "betflix", "gclub", "gclub_live", "alphabet"] as const;
export type Provider = (typeof PROVIDERS)[number];

export function isProvider(value: unknown): value is Provider {
  return typeof value === "string" && (PROVIDERS as readonly string[]).includes(value);
}
