import { isRouteErrorResponse, Outlet, useRouteError, useRouteLoaderData } from "react-router";
import { useTranslation } from "react-i18next";
import { AdminChrome } from "~/components/admin";
import { waitingCounts } from "@workers/services/staff";
import { getAgency, getBindings } from "~/lib/context.server";
import { adminHeadersMiddleware, requireStaff } from "~/lib/staff.server";
import { loadAsDocument, type ScriptsHandle } from "~/lib/page-scripts";
import adminStyles from "~/styles/admin.css?url";
import type { Route } from "./+types/layout";

/**
 * The guarded back office: every page below needs a FULL staff session of this agency
 * (each child loader and action calls requireStaff itself too). Never cached, never indexed.
 */
export const middleware: Route.MiddlewareFunction[] = [adminHeadersMiddleware];
export const links: Route.LinksFunction = () => (adminStyles ? [{ rel: "stylesheet", href: adminStyles }] : []);

/**
 * Every staff page is lite (decision 089): no React in the browser. Every page runs the copy
 * buttons' part and the pending spinner (each does nothing without its markup); a page asks
 * for its own parts in its handle (`validate` for its forms, `chartTips`, `colorPair`,
 * `submitOnce`). A link from a page that hydrates (the 404 page) loads the page as a document.
 */
export const handle = { scripts: "lite", lite: ["copy", "pending"] } satisfies ScriptsHandle;
export const clientLoader = loadAsDocument;

export async function loader({ request, context }: Route.LoaderArgs) {
  const staff = await requireStaff(request, context);
  const waiting = await waitingCounts(getBindings(context).DB, staff.agencyId);
  return { agencyName: getAgency(context).name, staff: { username: staff.username, role: staff.role }, waiting };
}

export function meta() {
  return [{ name: "robots", content: "noindex, nofollow" }];
}

export default function AdminLayout({ loaderData }: Route.ComponentProps) {
  return (
    <AdminChrome agencyName={loaderData.agencyName} staff={loaderData.staff} waiting={loaderData.waiting}>
      <Outlet />
    </AdminChrome>
  );
}

/** 403 (role), 404 (not in this agency) and the rest, inside the back office's chrome. */
export function ErrorBoundary() {
  const error = useRouteError();
  const layout = useRouteLoaderData<typeof loader>("routes/admin/layout");
  const { t } = useTranslation("admin");
  const status = isRouteErrorResponse(error) ? error.status : 500;
  if (!isRouteErrorResponse(error)) console.error(error);
  const [title, body] =
    status === 403
      ? [t("common.forbiddenTitle"), t("common.forbiddenBody")]
      : status === 404
        ? [t("common.notFoundTitle"), t("common.notFoundBody")]
        : [t("common.errorTitle"), ""];
  const content = (
    <section data-testid="admin-error" data-status={status}>
      <title>{title}</title>
      <h1>{title}</h1>
      {body && <p>{body}</p>}
      <a href="/admin" className="button">
        {t("common.backToDashboard")}
      </a>
    </section>
  );
  return layout ? (
    <AdminChrome agencyName={layout.agencyName} staff={layout.staff} waiting={layout.waiting}>
      {content}
    </AdminChrome>
  ) : (
    <main className="admin-main">{content}</main>
  );
}
