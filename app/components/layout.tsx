import { lazy, Suspense, useState } from "react";
import { Form, Link, NavLink, useLocation } from "react-router";

// The dialog brings conform and zod: loaded only when a player opens it, so visitors'
// pages (the landing page first of all) do not pay for form code they never use.
const ChangePasswordDialog = lazy(() => import("./change-password").then((m) => ({ default: m.ChangePasswordDialog })));
import { useTranslation } from "react-i18next";
import { GAME_LINKS, isActiveEntry, PLAYER_MENU, type MenuEntry } from "~/lib/menu";
import type { Language } from "@workers/core/languages";
import type { BrandImage } from "@workers/core/brand";
import { Logo } from "./logo";
import { Icon } from "./icons";
import { ContactMenu, Disclosure, LanguageSwitcher, SocialLinks, useCurrentPath, type Social } from "./menus";
import { BankMark } from "./bank-mark";
import { CreditChip, type HeaderCredits } from "./credit-chip";
import { CHANGE_PASSWORD_LINK, DIALOG_ALERT, DIALOG_BODY, DIALOG_CLOSE, DRAWER_CLOSE, PASSWORD_DIALOG, hookProps } from "~/lib/lite/hooks";

export type LayoutPlayer = { id: string; displayName: string } | null;

type LayoutProps = { agencyName: string; logo: BrandImage | null };

/**
 * `lite`: the page ships no React (decision 034); its menu's change-password dialog is the lite script's (decision 052).
 * `credits`: a player's credit in the header (decision 081), that of `creditProvider` on its lobby.
 */
export function Navbar({
  agencyName,
  logo,
  player,
  locale,
  social,
  lite = false,
  credits = null,
  creditProvider = null,
}: LayoutProps & {
  player: LayoutPlayer;
  locale: Language;
  social: Social;
  lite?: boolean;
  credits?: HeaderCredits | null;
  creditProvider?: string | null;
}) {
  const { t } = useTranslation();
  return (
    <header className="navbar">
      <div className="navbar-inner">
        <SideDrawer agencyName={agencyName} logo={logo} player={player} />
        <Link to="/" className="navbar-logo" prefetch="intent" aria-label={t("nav.home")}>
          <Logo name={agencyName} logo={logo} />
        </Link>
        <nav className="navbar-actions" aria-label={t("nav.account")}>
          {player ? (
            <>
              {credits && <CreditChip credits={credits} provider={creditProvider} />}
              <Link to="/player/deposit" className="button button-primary hide-sm" prefetch="intent">
                {t("nav.deposit")}
              </Link>
              <PlayerMenu player={player} lite={lite} />
            </>
          ) : (
            <>
              <Link to="/login" className="button button-ghost" prefetch="intent" data-testid="nav-login">
                {t("nav.login")}
              </Link>
              <Link to="/register" className="button button-primary hide-sm" prefetch="intent" data-testid="nav-register">
                {t("nav.register")}
              </Link>
            </>
          )}
          <LanguageSwitcher current={locale} />
          <ContactMenu social={social} className="menu contact-menu hide-sm" />
        </nav>
      </div>
    </header>
  );
}

function PlayerMenu({ player, lite }: { player: NonNullable<LayoutPlayer>; lite: boolean }) {
  const { t } = useTranslation();
  const [dialogOpen, setDialogOpen] = useState(false);
  return (
    <>
      <Disclosure
        className="menu player-menu"
        testId="player-menu"
        summary={
          <>
            <Icon name="user" />
            <span className="sr-only">{t("nav.account")}: </span>
            <span className="player-name">{player.displayName}</span>
          </>
        }
      >
        <div className="menu-panel">
          {/* Without JavaScript this is a link to the page; with it, the dialog opens (on a lite
            page the lite script's, lib/lite/password-dialog.ts, in the shell below). */}
          <Link
            to="/player/password"
            className="menu-item"
            {...hookProps(CHANGE_PASSWORD_LINK)}
            onClick={(event) => {
              event.preventDefault();
              setDialogOpen(true);
            }}
          >
            {t("nav.changePassword")}
          </Link>
          <Link to="/player/sessions" className="menu-item">
            {t("nav.sessions")}
          </Link>
          <Form method="post" action="/logout" reloadDocument>
            <button type="submit" className="menu-item" data-testid="logout">
              {t("nav.logout")}
            </button>
          </Form>
        </div>
      </Disclosure>
      {dialogOpen && (
        <Suspense fallback={null}>
          <ChangePasswordDialog open={dialogOpen} onClose={() => setDialogOpen(false)} />
        </Suspense>
      )}
      {lite && <PasswordDialogShell />}
    </>
  );
}

/**
 * The change-password dialog of a lite page, closed and empty: the lite script opens it and
 * brings the form from /player/password (lib/lite/password-dialog.ts, decision 052). A few
 * hundred bytes instead of the form in every page; a closed <dialog> shows nothing without
 * JavaScript. Same title id and test ids as the React dialog (never both in one page).
 */
function PasswordDialogShell() {
  const { t } = useTranslation();
  return (
    <dialog className="dialog" aria-labelledby="change-password-title" data-testid="password-dialog" {...hookProps(PASSWORD_DIALOG)}>
      <div className="dialog-head">
        <h2 id="change-password-title">{t("password.title")}</h2>
        <button type="button" className="icon-button" {...hookProps(DIALOG_CLOSE)} data-testid="password-dialog-close">
          <Icon name="close" />
          <span className="sr-only">{t("nav.close")}</span>
        </button>
      </div>
      <p className="form-alert" role="alert" {...hookProps(DIALOG_ALERT)} data-testid="password-dialog-error" />
      <div {...hookProps(DIALOG_BODY)} />
    </dialog>
  );
}

/** Side drawer from the left (393 px); a <details>, so it works without JavaScript. */
function SideDrawer({ agencyName, logo, player }: LayoutProps & { player: LayoutPlayer }) {
  const { t } = useTranslation();
  const here = useCurrentPath();
  return (
    <Disclosure className="drawer" testId="drawer" summaryLabel={t("nav.menu")} summary={<Icon name="menu" size={24} />}>
      {/* The backdrop and the Close control reload this page without JavaScript (closing the
          drawer); with JavaScript they just close it. */}
      {/* biome-ignore lint/a11y/useAnchorContent: the backdrop is for the pointer only (out of the tab order and the accessibility tree); the labelled Close control does the same */}
      <a href={here} className="drawer-backdrop" aria-hidden="true" tabIndex={-1} onClick={closeDrawer} />
      <div className="drawer-panel" role="dialog" aria-label={t("nav.menu")}>
        <div className="drawer-head">
          <Logo name={agencyName} logo={logo} lazy />
          <a href={here} className="icon-button" onClick={closeDrawer} {...hookProps(DRAWER_CLOSE)}>
            <Icon name="close" />
            <span className="sr-only">{t("nav.close")}</span>
          </a>
        </div>
        {player ? (
          <nav aria-label={t("nav.playerNavigation")}>
            {PLAYER_MENU.map((group, index) => (
              <div key={index}>
                {index > 0 && <hr className="divider" />}
                <ul className="drawer-list" role="list">
                  {group.map((entry) => (
                    <DrawerEntry key={entry.key} entry={entry} />
                  ))}
                </ul>
              </div>
            ))}
          </nav>
        ) : (
          <div className="drawer-visitor">
            <Link to="/login" className="button button-ghost button-block" prefetch="intent">
              {t("nav.login")}
            </Link>
            <Link to="/register" className="button button-primary button-block" prefetch="intent">
              {t("nav.register")}
            </Link>
          </div>
        )}
      </div>
    </Disclosure>
  );
}

function closeDrawer(event: React.MouseEvent<HTMLAnchorElement>) {
  const details = event.currentTarget.closest("details");
  if (details) {
    event.preventDefault();
    details.open = false;
  }
}

function DrawerEntry({ entry }: { entry: MenuEntry }) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const active = isActiveEntry(entry, pathname);
  return (
    <li className={active ? "drawer-entry active" : "drawer-entry"} data-active={active ? "true" : undefined}>
      {entry.to ? (
        <NavLink to={entry.to} prefetch="intent" className="drawer-link" aria-current={active ? "page" : undefined}>
          {entry.icon && <Icon name={entry.icon} />}
          <span>{t(entry.key)}</span>
        </NavLink>
      ) : (
        <span className="drawer-group">
          {entry.icon && <Icon name={entry.icon} />}
          <span>{t(entry.key)}</span>
        </span>
      )}
      {entry.children && (
        <ul className="drawer-children" role="list">
          {entry.children.map((child) => (
            <DrawerEntry key={child.key} entry={child} />
          ))}
        </ul>
      )}
    </li>
  );
}

/** Phone-only app bar (width <= 576): deposit, withdraw, play, bank, contact. */
export function BottomBar({ social }: { social: Social }) {
  const { t } = useTranslation();
  return (
    <nav className="bottom-bar" aria-label={t("nav.quick")} data-testid="bottom-bar">
      <Link to="/player/deposit" prefetch="intent">
        <Icon name="deposit" />
        <span>{t("bottom.deposit")}</span>
      </Link>
      <Link to="/player/withdraw" prefetch="intent">
        <Icon name="withdraw" />
        <span>{t("bottom.withdraw")}</span>
      </Link>
      <Link to={GAME_LINKS.askmebet} className="bottom-play" prefetch="intent" aria-label={t("bottom.play")}>
        <Icon name="play" size={28} />
      </Link>
      <Link to="/player/bank" prefetch="intent">
        <Icon name="bank" />
        <span>{t("bottom.bank")}</span>
      </Link>
      <Disclosure
        className="menu bottom-contact"
        testId="bottom-contact"
        summary={
          <>
            <Icon name="contact" />
            <span>{t("bottom.contact")}</span>
          </>
        }
      >
        <SocialLinks social={social} />
      </Disclosure>
    </nav>
  );
}

/** The six Lao banks shown in the footer (OUTSIDE.md). */
const FOOTER_BANKS = ["BCEL", "LDB", "APB", "JDB", "LVB", "STB"] as const;

export function Footer({ agencyName, logo, loggedIn }: LayoutProps & { loggedIn: boolean }) {
  const { t } = useTranslation();
  const year = new Date().getUTCFullYear();
  return (
    <footer className="footer" data-testid="footer">
      <div className="footer-inner">
        <div className="footer-brand">
          <Logo name={agencyName} logo={logo} lazy />
          <p className="footer-banks-title">{t("footer.banks")}</p>
          <ul className="footer-banks" role="list">
            {FOOTER_BANKS.map((code) => (
              <li key={code}>
                <BankMark code={code} size={48} label={t(`banks.${code}`)} />
              </li>
            ))}
          </ul>
        </div>
        <div className="footer-columns" data-testid="footer-columns">
          <FooterColumn
            title={t("footer.games")}
            links={[
              [t("menu.askmebet"), GAME_LINKS.askmebet],
              [t("menu.betflix"), GAME_LINKS.betflix],
              [t("menu.gclub"), GAME_LINKS.gclub],
              [t("menu.alphabet"), GAME_LINKS.alphabet],
            ]}
          />
          <FooterColumn
            title={t("footer.promotions")}
            links={[
              [t("menu.promotion"), "/player/promotion"],
              [t("menu.promotionHistory"), "/player/promotion/history"],
            ]}
          />
          <FooterColumn
            title={t("footer.aboutUs")}
            links={[
              [t("footer.home"), "/"],
              // a logged-in player is not offered an account they have
              ...(loggedIn
                ? []
                : ([
                    [t("nav.register"), "/register"],
                    [t("nav.login"), "/login"],
                  ] as [string, string][])),
              [t("limits.footer"), "/player/limits"],
            ]}
          />
        </div>
      </div>
      <p className="copyright">{t("footer.copyright", { year, name: agencyName })}</p>
    </footer>
  );
}

function FooterColumn({ title, links }: { title: string; links: [string, string][] }) {
  return (
    <section className="footer-column">
      <h2>{title}</h2>
      <ul role="list">
        {links.map(([label, to]) => (
          <li key={to}>
            <Link to={to} prefetch="intent">
              {label}
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
