import { Link } from "react-router";
import { useTranslation } from "react-i18next";
import { GAME_LINKS } from "~/lib/menu";
import { LanguageSwitcher } from "~/components/menus";
import type { Route } from "./+types/home";

/** The six game categories of the landing page, each with a plain-text mark (no emoji font needed) and a target. */
const CATEGORIES = [
  { key: "slot", to: GAME_LINKS.askmebet, mark: "7" },
  { key: "sport", to: GAME_LINKS.betflix, mark: "◎" },
  { key: "casino", to: GAME_LINKS.gclub, mark: "♠" },
  { key: "fish", to: GAME_LINKS.askmebet, mark: "≋" },
  { key: "card", to: GAME_LINKS.alphabet, mark: "♥" },
  { key: "chicken", to: GAME_LINKS.gclub, mark: "♦" },
] as const;

export function meta({ matches }: Route.MetaArgs) {
  const root = matches[0]?.loaderData as { agency?: { name: string } } | undefined;
  return [{ title: root?.agency?.name ?? "" }];
}

export default function Home({ matches }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  const root = matches[0]?.loaderData as { locale: "lo" | "cn" | "vn"; player: unknown } | undefined;
  return (
    <>
      <section className="hero" data-testid="hero">
        <h1>{t("home.title")}</h1>
        <p>{t("home.subtitle")}</p>
        {root?.player ? (
          <Link to="/player/deposit" className="button button-primary button-large" prefetch="intent">
            {t("nav.deposit")}
          </Link>
        ) : (
          <Link to="/register" className="button button-primary button-large" prefetch="intent" data-testid="hero-register">
            {t("home.cta")}
          </Link>
        )}
      </section>
      <section className="page" aria-labelledby="categories-title">
        <h2 id="categories-title">{t("home.categories")}</h2>
        <ul className="categories" role="list" data-testid="categories">
          {CATEGORIES.map((category) => (
            <li key={category.key}>
              <Link to={category.to} prefetch="intent" className={`category category-${category.key}`}>
                <span className="category-mark" aria-hidden="true">{category.mark}</span>
                <span>{t(`home.category.${category.key}`)}</span>
              </Link>
            </li>
          ))}
        </ul>
      </section>
      <section className="page language-drawer" aria-labelledby="language-title">
        <h2 id="language-title">{t("home.language")}</h2>
        <LanguageSwitcher current={(root?.locale ?? i18n.language) as "lo" | "cn" | "vn"} testId="landing-language" />
      </section>
    </>
  );
}
