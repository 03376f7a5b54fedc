import type { ReactNode } from "react";
import { Form, NavLink, useLocation, useRouteLoaderData } from "react-router";
import { HTML_LANG, LANGUAGES, type Language } from "../../workers/core/languages";
import { Toaster } from "./feedback";
import { LANGUAGE_NAMES } from "./menus";
import { useTranslation } from "react-i18next";

/** Sections of the back office, in menu order; owner-only ones are hidden from cashiers. */
const ADMIN_SECTIONS = [
  { key: "dashboard", to: "/admin", end: true, ownerOnly: false },
  { key: "withdrawals", to: "/admin/withdrawals", ownerOnly: false },
  { key: "deposits", to: "/admin/deposits", ownerOnly: false },
  { key: "openDeposits", to: "/admin/deposits/open", ownerOnly: false, label: "openDeposits.nav" },
  { key: "payments", to: "/admin/payments", ownerOnly: false },
  { key: "statements", to: "/admin/deposits/import", ownerOnly: false, label: "statements.nav" },
  { key: "players", to: "/admin/players", ownerOnly: false },
  // Cashiers see the money part of the reports; the loader and the CSV route enforce it.
  { key: "reports", to: "/admin/reports", ownerOnly: false, label: "reports.nav" },
  // Cashiers read a bank day's reconciliation; the notes on its differences are the owner's.
  { key: "reconciliation", to: "/admin/reconciliation", ownerOnly: false, label: "reconciliation.nav" },
  { key: "fingerprints", to: "/admin/fingerprints", ownerOnly: false },
  { key: "promotions", to: "/admin/promotions", ownerOnly: true },
  { key: "referrals", to: "/admin/referrals", ownerOnly: true, label: "referral.nav" },
  { key: "cashback", to: "/admin/cashback", ownerOnly: true, label: "cashback.nav" },
  { key: "settings", to: "/admin/settings", ownerOnly: true },
  { key: "staff", to: "/admin/staff", ownerOnly: true },
  { key: "audit", to: "/admin/audit", ownerOnly: true },
  { key: "apiTokens", to: "/admin/api-tokens", ownerOnly: true },
  // Cashiers confirm held forwarder credits there; the forwarder's settings are the owner's.
  { key: "forwarder", to: "/admin/forwarder", ownerOnly: false, label: "forwarder.nav" },
] as const;

type AdminSection = (typeof ADMIN_SECTIONS)[number]["key"];

/** Header + navigation of the guarded back office. Plain links and a plain logout form. */
export function AdminChrome({
  agencyName,
  staff,
  children,
}: {
  agencyName: string;
  staff: { username: string; role: "owner" | "cashier" };
  children: ReactNode;
}) {
  const { t } = useTranslation("admin");
  return (
    <>
      <a href="#admin-main" className="skip-link">
        {t("nav.skip")}
      </a>
      <header className="admin-header">
        <div className="admin-header-inner">
          <a href="/admin" className="admin-brand">
            {agencyName} · {t("nav.title")}
          </a>
          <div className="admin-who">
            <AdminLanguages />
            <span data-testid="admin-who">{t("nav.signedInAs", { username: staff.username, role: t(`common.roles.${staff.role}`) })}</span>
            <Form method="post" action="/admin/logout" reloadDocument>
              <button type="submit" className="button button-ghost button-small" data-testid="admin-logout">
                {t("nav.logout")}
              </button>
            </Form>
          </div>
        </div>
      </header>
      <nav className="admin-nav" aria-label={t("nav.menu")} data-testid="admin-nav">
        <ul>
          {ADMIN_SECTIONS.filter((s) => !s.ownerOnly || staff.role === "owner").map((s) => (
            <li key={s.key}>
              <NavLink to={s.to} end={"end" in s ? s.end : false} data-section={s.key} prefetch="none">
                {t("label" in s ? s.label : `nav.${s.key}`)}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <main id="admin-main" className="admin-main" tabIndex={-1}>
        <AdminToaster />
        {children}
      </main>
    </>
  );
}

/** The login / second factor / enrolment pages: no navigation, just the agency's name. */
export function AdminAuthShell({ agencyName, children }: { agencyName: string; children: ReactNode }) {
  const { t } = useTranslation("admin");
  return (
    <>
      <header className="admin-header">
        <div className="admin-header-inner">
          <span className="admin-brand">
            {agencyName} · {t("nav.title")}
          </span>
          <AdminLanguages />
        </div>
      </header>
      <main id="admin-main" className="admin-auth">
        <AdminToaster />
        {children}
      </main>
    </>
  );
}

/** Previous / next links that work without JavaScript. */
export function AdminPager({ page, pageSize, total, basePath, query }: { page: number; pageSize: number; total: number; basePath: string; query?: Record<string, string> }) {
  const { t } = useTranslation("admin");
  const pages = Math.max(1, Math.ceil(total / pageSize));
  if (pages <= 1) return null;
  const href = (p: number) => `${basePath}?${new URLSearchParams({ ...(query ?? {}), page: String(p) }).toString()}`;
  return (
    <nav className="pagination" aria-label={t("common.pageOf", { page, pages })}>
      {page > 1 ? <a href={href(page - 1)}>{t("common.previous")}</a> : <span />}
      <span>{t("common.pageOf", { page, pages })}</span>
      {page < pages ? <a href={href(page + 1)}>{t("common.next")}</a> : <span />}
    </nav>
  );
}

/** The root's toast, shown in the page flow (never over the header's buttons). */
function AdminToaster() {
  const root = useRouteLoaderData("root") as { toast?: Parameters<typeof Toaster>[0]["toast"] } | undefined;
  return <Toaster toast={root?.toast ?? null} />;
}

/** The one-time enrolment link, shown once after creating a staff member or resetting their second factor. */
export function EnrolLink({ username, url }: { username: string; url: string }) {
  const { t } = useTranslation("admin");
  return (
    <div className="notice notice-success" role="status" data-testid="enrol-link">
      <h2>{t("staff.linkTitle", { username })}</h2>
      <p>{t("staff.linkHint")}</p>
      <p className="admin-secret">
        <a href={url}>{url}</a>
      </p>
    </div>
  );
}

/** The language switch of the back office: a plain form post to /set-language (reloads the page). */
function AdminLanguages() {
  const { t } = useTranslation("admin");
  const root = useRouteLoaderData("root") as { locale?: Language } | undefined;
  const { pathname, search } = useLocation();
  return (
    <form method="post" action="/set-language" className="admin-languages" aria-label={t("nav.language")}>
      <input type="hidden" name="redirectTo" value={pathname + search} />
      {LANGUAGES.map((lng) => (
        <button key={lng} type="submit" name="lng" value={lng} lang={HTML_LANG[lng]} aria-current={root?.locale === lng ? "true" : undefined} className="button button-ghost button-small">
          {LANGUAGE_NAMES[lng]}
        </button>
      ))}
    </form>
  );
}
