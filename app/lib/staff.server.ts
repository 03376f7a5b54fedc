import { redirect, type MiddlewareFunction, type RouterContextProvider } from "react-router";
import type { Client } from "@workers/core/session";
import { resolveStaffSession, type StaffMember, type StaffSession } from "@workers/services/staff";
import { getBindings, getAgency, getWaitUntil } from "./context.server";
import { clearCookie, readCookie, writeCookie } from "./cookies.server";

export type { StaffMember };

/**
 * Staff sessions: their own table (staff_sessions) and their own cookie (SameSite=Strict,
 * cookies.server.ts), so a player session can never be a staff session.
 */
export async function readStaffSessionId(request: Request): Promise<string | null> {
  return (await readCookie("staff", request)).value;
}

export const staffCookie = (request: Request, sessionId: string): Promise<string> => writeCookie("staff", request, sessionId);

export const clearStaffCookie = (request: Request): Promise<string> => clearCookie("staff", request);

export function staffClient(request: Request): Client {
  return { ip: request.headers.get("CF-Connecting-IP") ?? "local", userAgent: request.headers.get("User-Agent") };
}

type Ctx = Readonly<RouterContextProvider>;

/** One lookup per request, however many loaders ask (layout + page run in parallel). */
const resolved = new WeakMap<object, Promise<StaffSession | null>>();

export function currentStaffSession(request: Request, context: Ctx): Promise<StaffSession | null> {
  let pending = resolved.get(context);
  if (!pending) {
    pending = readStaffSessionId(request).then((sessionId) =>
      sessionId ? resolveStaffSession(getBindings(context).DB, getAgency(context).id, sessionId, { waitUntil: getWaitUntil(context) }) : null,
    );
    resolved.set(context, pending);
  }
  return pending;
}

function loginRedirect(request: Request): Response {
  const url = new URL(request.url);
  const path = url.pathname.replace(/\.data$/, "");
  const target = path === "/admin" || path === "/admin/" ? "/admin/login" : `/admin/login?redirectTo=${encodeURIComponent(path + url.search)}`;
  return redirect(target);
}

/**
 * Loaders AND actions of every /admin route call this first. Without a FULL staff session
 * (password and second factor) at this request's agency -> redirect to /admin/login; with
 * a role below the one asked for -> 403.
 */
export async function requireStaff(request: Request, context: Ctx, options?: { role?: "owner" }): Promise<StaffMember> {
  const session = await currentStaffSession(request, context);
  if (!session || session.stage !== "FULL" || session.staff.agencyId !== getAgency(context).id) throw loginRedirect(request);
  if (options?.role === "owner" && session.staff.role !== "owner") {
    throw new Response("Forbidden", { status: 403, headers: { "Cache-Control": "no-store" } });
  }
  return session.staff;
}

/** The who/where part of an audit entry: spread it into recordAudit's argument. */
export function auditContext(request: Request, staff: StaffMember) {
  const client = staffClient(request);
  return { agencyId: staff.agencyId, staffId: staff.id, staffUsername: staff.username, ip: client.ip, userAgent: client.userAgent };
}

/** Back-office responses are never cached nor indexed (documents, .data requests, redirects). */
export const adminHeadersMiddleware: MiddlewareFunction<Response> = async (_args, next) => {
  const response = await next();
  try {
    response.headers.set("Cache-Control", "no-store");
    response.headers.set("X-Robots-Tag", "noindex, nofollow");
  } catch {
    // immutable headers (a fetched Response): copy
    const copy = new Response(response.body, response);
    copy.headers.set("Cache-Control", "no-store");
    copy.headers.set("X-Robots-Tag", "noindex, nofollow");
    return copy;
  }
  return response;
};

/** Only same-site paths under /admin are followed after login. */
export function safeAdminPath(value: string | null | undefined): string {
  if (!value || !value.startsWith("/admin") || value.startsWith("//") || value.includes("\\")) return "/admin";
  if (!/^\/admin(?:[/?#]|$)/.test(value)) return "/admin";
  if (value.startsWith("/admin/login") || value.startsWith("/admin/logout") || value.startsWith("/admin/enrol")) return "/admin";
  return value;
}

/** The absolute one-time enrolment link for a token (shown once to the owner). */
export function enrolUrl(request: Request, token: string): string {
  return `${new URL(request.url).origin}/admin/enrol?token=${encodeURIComponent(token)}`;
}
