import type { z } from "zod";
import { getInstance } from "~/middleware/i18next.server";
import { errorMessageKey, type ErrorCode } from "./errors";
import type { RouterContextProvider } from "react-router";
import type { CurrentPlayer } from "@workers/core/session";
import { getPlayer } from "./context.server";
import { askedPaging, MAX_PAGE, type Paging } from "./paging";

/** JSON answers of the compatibility API (docs/product.md §7): never cached, errors carry a code. */
export function apiJson(body: unknown, init?: ResponseInit): Response {
  const headers = new Headers(init?.headers);
  headers.set("Cache-Control", "no-store");
  return Response.json(body, { ...init, headers });
}

export function apiError(context: Readonly<RouterContextProvider>, code: ErrorCode, status: number, extra?: Record<string, unknown>): Response {
  return apiErrorOf(context, code, errorMessageKey(code), status, extra);
}

/**
 * The same answer for a code whose message lives with its own page's keys, kept out of
 * lib/errors.ts (every page importing it ships the groups its keys name, decision 032).
 */
export function apiErrorOf(
  context: Readonly<RouterContextProvider>,
  code: string,
  messageKey: string,
  status: number,
  extra?: Record<string, unknown>,
): Response {
  const message = getInstance(context).t(messageKey, extra ?? {});
  return apiJson({ error: { code, message, ...extra } }, { status });
}

/** Reads a JSON body (or a form post) as a plain object. */
export async function readBody(request: Request): Promise<Record<string, unknown>> {
  const type = request.headers.get("Content-Type") ?? "";
  if (type.includes("application/json")) {
    try {
      const value: unknown = await request.json();
      return value && typeof value === "object" ? (value as Record<string, unknown>) : {};
    } catch {
      return {};
    }
  }
  // Only an empty body without a Content-Type gets past the root body check (bodyTypeMiddleware).
  if (!type.includes("form")) return {};
  const form = await request.formData();
  return Object.fromEntries([...form.entries()].map(([k, v]) => [k, typeof v === "string" ? v : ""]));
}

/** zod issues as { field: [translated message] } for API clients. */
export function fieldErrors(context: Readonly<RouterContextProvider>, error: z.ZodError, limits: Record<string, number>) {
  const t = getInstance(context).t;
  const out: Record<string, string[]> = {};
  for (const issue of error.issues) {
    const field = issue.path.join(".") || "form";
    (out[field] ??= []).push(t(issue.message, limits));
  }
  return out;
}

/**
 * The player behind a data call, or the error answer: 401 without a session; 403
 * PASSWORD_CHANGE_REQUIRED while staff have forced a new password (the API must not be a
 * way around /player/password).
 */
export function apiPlayer(context: Readonly<RouterContextProvider>): { player: CurrentPlayer; error?: undefined } | { player?: undefined; error: Response } {
  const player = getPlayer(context);
  if (!player) return { error: apiError(context, "UNAUTHORIZED", 401) };
  if (player.mustChangePassword) return { error: apiError(context, "PASSWORD_CHANGE_REQUIRED", 403) };
  return { player };
}

/**
 * The page and page size of a paged data call, or the error answer: a page beyond MAX_PAGE
 * (?page=1e99) is 400 VALIDATION_FAILED naming the field, so a client paging by itself learns
 * it asked for what no list holds (pages show the bound instead; decision 050).
 */
export function apiPaging(context: Readonly<RouterContextProvider>, url: URL): { paging: Paging; error?: undefined } | { paging?: undefined; error: Response } {
  const { pageBeyondBound, ...paging } = askedPaging(url);
  if (pageBeyondBound) return { error: apiError(context, "VALIDATION_FAILED", 400, { field: "page", max: MAX_PAGE }) };
  return { paging };
}
