import { useEffect, useRef, type ReactNode } from "react";
import { useLocation } from "react-router";
import { useTranslation } from "react-i18next";
import { HTML_LANG, LANGUAGES, type Language } from "@workers/core/languages";
import { Icon } from "./icons";
import { DISCLOSURE, hookProps } from "~/lib/lite/hooks";

/**
 * A disclosure built on <details>: opens and closes without JavaScript. With JavaScript
 * it also closes on Escape, on a click outside, after a link inside is chosen and after
 * every navigation.
 */
export function Disclosure({
  className,
  summary,
  summaryLabel,
  children,
  testId,
}: {
  className: string;
  summary: ReactNode;
  /** Only for icon-only summaries; otherwise the visible text (plus sr-only text) names it. */
  summaryLabel?: string;
  children: ReactNode;
  testId?: string;
}) {
  const ref = useRef<HTMLDetailsElement>(null);
  const location = useLocation();
  const shownKey = useRef(location.key);
  useEffect(() => {
    // Close after a navigation, but not on mount: a menu opened before hydration stays open.
    if (shownKey.current === location.key) return;
    shownKey.current = location.key;
    if (ref.current) ref.current.open = false;
  }, [location.key]);
  useEffect(() => {
    const details = ref.current;
    if (!details) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape" && details.open) {
        details.open = false;
        details.querySelector("summary")?.focus();
      }
    };
    const onClick = (event: MouseEvent) => {
      if (details.open && !details.contains(event.target as Node)) details.open = false;
    };
    document.addEventListener("keydown", onKey);
    document.addEventListener("click", onClick);
    return () => {
      document.removeEventListener("keydown", onKey);
      document.removeEventListener("click", onClick);
    };
  }, []);
  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: a delegated listener for the links inside (Enter on a link fires click too); the <summary> is the control
    <details
      ref={ref}
      className={className}
      data-testid={testId}
      // lib/lite/menus.ts finds them by this on pages without React
      {...hookProps(DISCLOSURE)}
      onClick={(event) => {
        const target = event.target as HTMLElement;
        if (target.closest("a") && ref.current) ref.current.open = false;
      }}
    >
      <summary aria-label={summaryLabel}>{summary}</summary>
      {children}
    </details>
  );
}

/** The current page as a local URL, for "come back here" form fields and close links. */
export function useCurrentPath(): string {
  const location = useLocation();
  return location.pathname + location.search;
}

export const LANGUAGE_NAMES: Record<Language, string> = { lo: "ລາວ", cn: "中文", vn: "Tiếng Việt" };

/** Language switcher: a plain form post that sets the cookie and returns to this page. */
export function LanguageSwitcher({ current, testId = "language-switcher" }: { current: Language; testId?: string }) {
  const { t } = useTranslation();
  const here = useCurrentPath();
  return (
    <Disclosure
      className="menu language-menu"
      testId={testId}
      summary={
        <>
          <Icon name="globe" />
          <span className="sr-only">{t("nav.language")}: </span>
          <span lang={HTML_LANG[current]}>{LANGUAGE_NAMES[current]}</span>
        </>
      }
    >
      <form method="post" action="/set-language" className="menu-panel">
        <input type="hidden" name="redirectTo" value={here} />
        {LANGUAGES.map((lng) => (
          <button
            key={lng}
            type="submit"
            name="lng"
            value={lng}
            lang={HTML_LANG[lng]}
            aria-current={lng === current ? "true" : undefined}
            className="menu-item"
          >
            {LANGUAGE_NAMES[lng]}
          </button>
        ))}
      </form>
    </Disclosure>
  );
}

export type Social = { telegram: string | null; whatsapp: string | null; facebook: string | null; twitter: string | null; line: string | null };
const SOCIAL_ORDER = ["telegram", "whatsapp", "facebook", "twitter", "line"] as const;

export function SocialLinks({ social }: { social: Social }) {
  const { t } = useTranslation();
  const links = SOCIAL_ORDER.filter((name) => social[name]);
  if (links.length === 0) return <p className="menu-empty">{t("contact.none")}</p>;
  return (
    <ul className="menu-panel" role="list">
      {links.map((name) => (
        <li key={name}>
          <a className="menu-item" href={social[name]!} target="_blank" rel="noopener noreferrer" data-social={name}>
            {t(`contact.${name}`)}
          </a>
        </li>
      ))}
    </ul>
  );
}

export function ContactMenu({ social, className = "menu contact-menu", testId = "contact-menu" }: { social: Social; className?: string; testId?: string }) {
  const { t } = useTranslation();
  return (
    <Disclosure
      className={className}
      testId={testId}
      summary={
        <>
          <Icon name="contact" />
          <span>{t("nav.contactUs")}</span>
        </>
      }
    >
      <SocialLinks social={social} />
    </Disclosure>
  );
}
