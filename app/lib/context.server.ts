import { createContext, type RouterContextProvider } from "react-router";
import type { Agency } from "@workers/services/agency";
import type { CurrentPlayer } from "@workers/core/session";

/**
 * What the Worker entry hands to every loader, action and middleware. Created here, under
 * app/, so routes and workers/app.ts share one copy of the key (React Router 8 refuses a
 * second copy with "Invalid context").
 */
export type CloudflareContext = {
  env: Env;
  ctx: ExecutionContext;
  nonce: string;
  /** The agency of the Host, already being read by the Worker's entry beside the CSP sources (one round trip for both, decision 076). */
  agency?: Promise<Agency | null>;
};
export const cloudflareContext = createContext<CloudflareContext>();

/** The agency of this request's host, or null for an unknown or disabled host. */
export const agencyContext = createContext<Agency | null>(null);

type Ctx = Readonly<RouterContextProvider>;

export function getBindings(context: Ctx): Env {
  return context.get(cloudflareContext).env;
}

/** Keeps work alive after the answer is sent (a late provider answer filling a cache). */
export function getWaitUntil(context: Ctx): (promise: Promise<unknown>) => void {
  const { ctx } = context.get(cloudflareContext);
  return (promise) => ctx?.waitUntil(promise);
}

export function getNonce(context: Ctx): string {
  return context.get(cloudflareContext).nonce;
}

/** The current agency; only call where the root middleware has already refused unknown hosts. */
export function getAgency(context: Ctx): Agency {
  const agency = context.get(agencyContext);
  if (!agency) throw new Response("Unknown agency", { status: 404 });
  return agency;
}

/** The logged-in player of this request (set by the session middleware), or null. */
export type { CurrentPlayer };
export const playerContext = createContext<CurrentPlayer | null>(null);
/** SHA-256 of the current session id (to mark "this device" and end the others). */
export const sessionHashContext = createContext<string | null>(null);

export function getPlayer(context: Ctx): CurrentPlayer | null {
  return context.get(playerContext);
}

/** For routes behind the /player guard: the player is known there. */
export function requirePlayer(context: Ctx): CurrentPlayer {
  const player = context.get(playerContext);
  if (!player) throw new Response("Unauthorized", { status: 401 });
  return player;
}
