import type { ReactNode } from "react";
import { Form, Link, useLocation, useRouteLoaderData } from "react-router";
import { HTML_LANG, LANGUAGES, type Language } from "@workers/core/languages";
import { Toaster } from "./feedback";
import { LANGUAGE_NAMES } from "./menus";
import { useTranslation } from "react-i18next";

type QueueKey = "withdrawals" | "openDeposits" | "payments" | "heldCredits";
/** How many items wait on each queue (workers/services/staff/admin-queues.ts, read by the layout's loader). */
type WaitingCounts = Record<QueueKey, number>;
type Section = { key: string; to: string; ownerOnly: boolean; label?: string; queue?: QueueKey };

/**
 * The back office's sections in groups, in menu order (decision 056): what a cashier does first
 * (the queues, each with the count of what waits on it), then the money, the players, and the
 * owner's promotions and settings. Owner-only sections are hidden from cashiers, and a group
 * left empty is not shown.
 */
const ADMIN_GROUPS: { key: string | null; sections: Section[] }[] = [
  { key: null, sections: [{ key: "dashboard", to: "/admin", ownerOnly: false }] },
  {
    key: "queues",
    sections: [
      { key: "withdrawals", to: "/admin/withdrawals", ownerOnly: false, queue: "withdrawals" },
      { key: "openDeposits", to: "/admin/deposits/open", ownerOnly: false, label: "openDeposits.nav", queue: "openDeposits" },
      { key: "payments", to: "/admin/payments", ownerOnly: false, queue: "payments" },
      // Cashiers confirm held forwarder credits there (the page's first part); the forwarder's settings below them are the owner's.
      { key: "forwarder", to: "/admin/forwarder", ownerOnly: false, label: "forwarder.holdsTitle", queue: "heldCredits" },
    ],
  },
  {
    key: "money",
    sections: [
      { key: "deposits", to: "/admin/deposits", ownerOnly: false },
      { key: "statements", to: "/admin/deposits/import", ownerOnly: false, label: "statements.nav" },
      // Cashiers see the money part of the reports; the loader and the CSV route enforce it.
      { key: "reports", to: "/admin/reports", ownerOnly: false, label: "reports.nav" },
      // Cashiers read a bank day's reconciliation; the notes on its differences are the owner's.
      { key: "reconciliation", to: "/admin/reconciliation", ownerOnly: false, label: "reconciliation.nav" },
    ],
  },
  {
    key: "players",
    sections: [
      { key: "players", to: "/admin/players", ownerOnly: false },
      { key: "fingerprints", to: "/admin/fingerprints", ownerOnly: false },
      { key: "blocklist", to: "/admin/blocklist", ownerOnly: true, label: "blocklist.nav" },
      { key: "holds", to: "/admin/holds", ownerOnly: false, label: "holds.nav" },
    ],
  },
  {
    key: "promotions",
    sections: [
      { key: "promotions", to: "/admin/promotions", ownerOnly: true },
      { key: "referrals", to: "/admin/referrals", ownerOnly: true, label: "referral.nav" },
      { key: "cashback", to: "/admin/cashback", ownerOnly: true, label: "cashback.nav" },
      { key: "checkin", to: "/admin/checkin", ownerOnly: true, label: "checkin.nav" },
      { key: "levels", to: "/admin/levels", ownerOnly: true, label: "levels.nav" },
    ],
  },
  {
    key: "settings",
    sections: [
      { key: "settings", to: "/admin/settings", ownerOnly: true },
      { key: "staff", to: "/admin/staff", ownerOnly: true },
      { key: "audit", to: "/admin/audit", ownerOnly: true },
      { key: "apiTokens", to: "/admin/api-tokens", ownerOnly: true },
    ],
  },
];

const ALL_SECTIONS = ADMIN_GROUPS.flatMap((g) => g.sections);

/**
 * The section a page belongs to: the one whose path is the longest prefix of the page's, so
 * /admin/deposits/open marks "open deposits" and not "deposits" too, a withdrawal's page
 * marks "withdrawals", and the dashboard only itself.
 */
function currentSection(pathname: string): string | null {
  const path = pathname.replace(/\/+$/, "") || "/";
  let best: Section | null = null;
  for (const s of ALL_SECTIONS) {
    const inside = s.to === "/admin" ? path === "/admin" : path === s.to || path.startsWith(`${s.to}/`);
    if (inside && (!best || s.to.length > best.to.length)) best = s;
  }
  return best?.key ?? null;
}

/** Header + navigation of the guarded back office. Plain links and a plain logout form. */
export function AdminChrome({
  agencyName,
  staff,
  waiting,
  children,
}: {
  agencyName: string;
  staff: { username: string; role: "owner" | "cashier" };
  waiting: WaitingCounts;
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
            {agencyName}
            <span className="admin-brand-title"> · {t("nav.title")}</span>
          </a>
          <AdminMenu staff={staff} waiting={waiting} />
          <Form method="post" action="/admin/logout" reloadDocument className="admin-logout">
            <button type="submit" className="button button-ghost button-small" data-testid="admin-logout">
              {t("nav.logout")}
            </button>
          </Form>
        </div>
      </header>
      <main id="admin-main" className="admin-main" tabIndex={-1}>
        <AdminToaster />
        {children}
      </main>
    </>
  );
}

/**
 * The navigation, one markup for every width (decision 056): a <details> that a phone shows
 * folded (its summary says how many items wait), so the page a message links to starts on the
 * first screen, and that opens without JavaScript. From 577 px the summary is hidden and the
 * content shown as a bar (admin.css, `::details-content`); a browser without that selector
 * keeps the folded menu, one click more.
 */
function AdminMenu({ staff, waiting }: { staff: { username: string; role: "owner" | "cashier" }; waiting: WaitingCounts }) {
  const { t } = useTranslation("admin");
  const { pathname } = useLocation();
  const current = currentSection(pathname);
  const groups = ADMIN_GROUPS.map((g) => ({ ...g, sections: g.sections.filter((s) => !s.ownerOnly || staff.role === "owner") })).filter(
    (g) => g.sections.length > 0,
  );
  const total = groups.flatMap((g) => g.sections).reduce((sum, s) => sum + (s.queue ? waiting[s.queue] : 0), 0);
  return (
    <nav className="admin-nav" aria-label={t("nav.menu")} data-testid="admin-nav">
      {/* Every link inside loads a new document (lite pages, decision 089), which shows the menu folded again. */}
      <details className="admin-menu" data-testid="admin-menu">
        <summary className="admin-menu-summary" data-testid="admin-menu-summary">
          <span>{t("nav.menu")}</span>
          {total > 0 && (
            <span className="admin-count" data-testid="admin-menu-waiting">
              {t("navMenu.waiting", { count: total })}
            </span>
          )}
        </summary>
        <div className="admin-menu-panel">
          {groups.map((g) => (
            // biome-ignore lint/a11y/useAriaPropsSupportedByRole: aria-labelledby is set only with role="group" (a named group); the home link has neither
            <div
              key={g.key ?? "home"}
              className="admin-nav-group"
              role={g.key ? "group" : undefined}
              aria-labelledby={g.key ? `admin-nav-${g.key}` : undefined}
              data-group={g.key ?? "home"}
            >
              {g.key && (
                <span className="admin-nav-group-name" id={`admin-nav-${g.key}`}>
                  {t(`navMenu.groups.${g.key}`)}
                </span>
              )}
              <ul>
                {g.sections.map((s) => (
                  <li key={s.key}>
                    <SectionLink section={s} current={s.key === current} waiting={s.queue ? waiting[s.queue] : 0} />
                  </li>
                ))}
              </ul>
            </div>
          ))}
          <div className="admin-who">
            <span data-testid="admin-who">{t("nav.signedInAs", { username: staff.username, role: t(`common.roles.${staff.role}`) })}</span>
            <AdminLanguages />
          </div>
        </div>
      </details>
    </nav>
  );
}

/** One section's link; a queue's carries how many items wait on it (none shown at zero). */
function SectionLink({ section, current, waiting }: { section: Section; current: boolean; waiting: number }) {
  const { t } = useTranslation("admin");
  return (
    <Link to={section.to} data-section={section.key} prefetch="none" aria-current={current ? "page" : undefined}>
      <span>{t(section.label ?? `nav.${section.key}`)}</span>
      {waiting > 0 && (
        <span className="admin-count" data-testid={`nav-waiting-${section.key}`}>
          <span aria-hidden="true">{waiting}</span>
          <span className="sr-only">{t("navMenu.waiting", { count: waiting })}</span>
        </span>
      )}
    </Link>
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

/** A list's count line: exact up to the bound, "more than" past it (decision 077). */
export function AdminListCount({ total, exact }: { total: { count: number; more: boolean }; exact: string }) {
  const { t } = useTranslation("admin");
  return <p data-testid="list-count">{total.more ? t("common.moreThan", { count: total.count }) : exact}</p>;
}

/**
 * The links of a keyset page (decision 077): newer and older rows around the page shown, the
 * filters kept. Plain links: they work without JavaScript.
 */
export function AdminListPager({
  next,
  previous,
  basePath,
  query,
}: {
  next: string | null;
  previous: string | null;
  basePath: string;
  query?: Record<string, string>;
}) {
  const { t } = useTranslation("admin");
  if (!next && !previous) return null;
  const href = (key: "after" | "before", cursor: string) => `${basePath}?${new URLSearchParams({ ...(query ?? {}), [key]: cursor }).toString()}`;
  return (
    <nav className="pagination" aria-label={t("common.pages")}>
      {previous ? (
        <a href={href("before", previous)} rel="prev">
          {t("common.previous")}
        </a>
      ) : (
        <span />
      )}
      {next ? (
        <a href={href("after", next)} rel="next">
          {t("common.next")}
        </a>
      ) : (
        <span />
      )}
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
        <button
          key={lng}
          type="submit"
          name="lng"
          value={lng}
          lang={HTML_LANG[lng]}
          aria-current={root?.locale === lng ? "true" : undefined}
          className="button button-ghost button-small"
        >
          {LANGUAGE_NAMES[lng]}
        </button>
      ))}
    </form>
  );
}

/**
 * The shapes a typed date field takes (decision 088): what `pattern` lets the browser mark as
 * malformed, the placeholder's notation, a length that fits the value. workers/core/vientiane.ts
 * reads the value (parseTypedDay, parseTypedDateTime, parseTypedTime); its rules are wider
 * (the digits alone, "." or "-"), and the pattern allows them too.
 */
const TYPED_FIELDS = {
  day: { pattern: "\\d{1,2}[\\/.\\- ]\\d{1,2}[\\/.\\- ]\\d{4}|\\d{8}", placeholder: "DD/MM/YYYY", size: 10 },
  dateTime: { pattern: "\\d{1,2}[\\/.\\- ]\\d{1,2}[\\/.\\- ]\\d{4} +\\d{1,2}[:.]\\d{2}([:.]\\d{2})?", placeholder: "DD/MM/YYYY HH:mm", size: 19 },
  time: { pattern: "\\d{1,2}[:.]\\d{2}|\\d{4}", placeholder: "HH:mm", size: 5 },
} as const;

/**
 * A date, date-and-time or time field of the back office: a text field, day first and 24-hour
 * (decision 088). A native date or time field follows the browser's locale (mm/dd/yyyy and
 * "--:-- --" under an en-US Chromium) while every page shows DD/MM/YYYY HH:mm:ss; the number
 * pad opens on a phone. The value is given as it should show: a day already as DD/MM/YYYY
 * (typedDayValue), or what staff typed when the server refused it, so they can correct it.
 */
export function TypedDateInput({
  kind,
  id,
  name,
  value,
  required = false,
  invalid = false,
  describedBy,
}: {
  kind: keyof typeof TYPED_FIELDS;
  id: string;
  name: string;
  value: string;
  required?: boolean;
  invalid?: boolean;
  describedBy?: string;
}) {
  const shape = TYPED_FIELDS[kind];
  return (
    <input
      id={id}
      name={name}
      type="text"
      inputMode="numeric"
      autoComplete="off"
      spellCheck={false}
      pattern={shape.pattern}
      placeholder={shape.placeholder}
      size={shape.size}
      data-typed-date={kind}
      defaultValue={value}
      required={required}
      aria-invalid={invalid ? true : undefined}
      aria-describedby={describedBy}
    />
  );
}

/**
 * An order's status in words, never the stored code (decision 088): the players' words
 * (common:status), with a withdrawal's review after it where it says more (waiting for a
 * cashier, approved). `data-status` keeps the code for the tests and the colour.
 */
export function OrderStatus({ status, review }: { status: string; review?: string | null }) {
  const { t } = useTranslation("admin");
  return (
    <span className="admin-status" data-status={status}>
      {t(`common:status.${status}`, { defaultValue: status })}
      {review && review !== "AUTO" ? ` · ${t(`staffScreens.review.${review}`, { defaultValue: review })}` : null}
    </span>
  );
}

/** A game provider's name as players see it ("GClub Live"), never its code (`gclub_live`). */
export function ProviderName({ provider }: { provider: string | null | undefined }) {
  const { t } = useTranslation("admin");
  if (!provider) return <>{t("common.none")}</>;
  return <>{t(`common:providers.${provider}`, { defaultValue: provider })}</>;
}

/** A deposit's flag in words; a provider's refusal (`PROVIDER_<answer>`) keeps the provider's own answer after it. */
export function DepositFlag({ flag }: { flag: string | null | undefined }) {
  const { t } = useTranslation("admin");
  if (!flag) return <>{t("common.none")}</>;
  if (flag.startsWith("PROVIDER_")) return <>{`${t("deposits.flags.PROVIDER")} (${flag.slice("PROVIDER_".length)})`}</>;
  return <>{t(`deposits.flags.${flag}`, { defaultValue: t(`staffScreens.flags.${flag}`, { defaultValue: flag }) })}</>;
}
