import { Link } from "react-router";
import { useTranslation } from "react-i18next";
import { GAME_LINKS } from "~/lib/menu";
import { LanguageSwitcher } from "~/components/menus";
import { getAgency, getBindings, getWaitUntil } from "~/lib/context.server";
import { getLocale } from "~/middleware/i18next.server";
import { landingPage } from "@workers/services/providers";
import type { Language } from "@workers/core/languages";
import type { Provider } from "@workers/core/providers";
import { loadAsDocument, type ScriptsHandle } from "~/lib/page-scripts";
import type { Route } from "./+types/home";
import { BankMark } from "../components/bank-mark";

/**
 * No React in the browser: links and forms only, plus the lite script (decision 021). One Lao
 * weight: the 700 file is not preloaded here (root.tsx) and the bold is drawn from the regular
 * (app.css, `data-fonts="regular"` below), to keep the first load under 50 KB (decision 027).
 */
export const handle = { scripts: "lite", fonts: "regular" } satisfies ScriptsHandle & { fonts: "regular" };
export const clientLoader = loadAsDocument;

/**
 * The landing page (decision 020): the agency's hero and call to action, its
 * active promotions, game categories, featured games, the accepted banks. No client code of
 * its own; every image has its size; only the hero image loads eagerly.
 */
export async function loader({ context }: Route.LoaderArgs) {
  return landingPage(getBindings(context), getAgency(context), getLocale(context) as Language, { waitUntil: getWaitUntil(context) });
}

/** The six game categories, each with a plain-text mark (no emoji font needed), its provider and lobby. */
const CATEGORIES: readonly { key: string; provider: Provider; to: string; mark: string }[] = [
  { key: "slot", provider: "askmebet", to: GAME_LINKS.askmebet, mark: "7" },
  { key: "sport", provider: "betflix", to: GAME_LINKS.betflix, mark: "◎" },
  { key: "casino", provider: "gclub", to: GAME_LINKS.gclub, mark: "♠" },
  { key: "fish", provider: "askmebet", to: GAME_LINKS.askmebet, mark: "≋" },
  { key: "card", provider: "alphabet", to: GAME_LINKS.alphabet, mark: "♥" },
  { key: "chicken", provider: "gclub", to: GAME_LINKS.gclub, mark: "♦" },
];

/** Screens that take the phone hero: app.css's narrowest layout (one promotion card a row). */
const PHONE_HERO_MEDIA = "(max-width: 576px)";

/** A player page: a visitor goes through login (and comes back to it), without a redirect hop. */
function playerHref(to: string, loggedIn: boolean): string {
  return loggedIn ? to : `/login?redirectTo=${encodeURIComponent(to)}`;
}

/** A featured game opens its provider's lobby on its tab, searched for it (the lobby's Play button launches it). */
function gameHref(game: { provider: Provider; tab: string; name: string }): string {
  return `/player/game/${game.provider}?${new URLSearchParams({ tab: game.tab, q: game.name })}`;
}

type RootData = { locale: Language; player: unknown } | undefined;

export default function Home({ loaderData, matches }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  const root = matches[0]?.loaderData as RootData;
  const loggedIn = Boolean(root?.player);
  const { hero, promotions, providers, featured, banks } = loaderData;
  const categories = CATEGORIES.filter((c) => providers.includes(c.provider));
  return (
    <>
      <section className={hero.image ? "hero hero-with-image" : "hero"} data-testid="hero" data-fonts="regular">
        {hero.image && (
          // The largest thing on a phone's first screen: fetched first, never lazily. A phone
          // takes the agency's phone hero when it has one (a third of the bytes, decision 038);
          // the <source> carries its own size so nothing shifts.
          <picture>
            {hero.phoneImage && (
              <source
                media={PHONE_HERO_MEDIA}
                srcSet={hero.phoneImage.url}
                type={hero.phoneImage.type}
                width={hero.phoneImage.width}
                height={hero.phoneImage.height}
              />
            )}
            <img
              className="hero-img"
              src={hero.image.url}
              alt=""
              width={hero.image.width}
              height={hero.image.height}
              fetchPriority="high"
              data-testid="hero-image"
            />
          </picture>
        )}
        <div className="hero-text">
          <h1>{hero.title ?? t("home.title")}</h1>
          <p>{hero.subtitle ?? t("home.subtitle")}</p>
          {loggedIn ? (
            <Link to="/player/deposit" className="button button-primary button-large" prefetch="intent" data-testid="hero-deposit">
              {t("nav.deposit")}
            </Link>
          ) : (
            <Link to="/register" className="button button-primary button-large" prefetch="intent" data-testid="hero-register">
              {t("home.cta")}
            </Link>
          )}
        </div>
      </section>

      {promotions.length > 0 && (
        <section className="page landing-section" aria-labelledby="promotions-title" data-testid="landing-promotions">
          <h2 id="promotions-title">{t("home.promotions")}</h2>
          <ul className="promo-cards" role="list">
            {promotions.map((p) => (
              <li key={p.id} className="promo-card" data-promotion-id={p.id}>
                <Link to={playerHref(`/player/promotion/${p.id}`, loggedIn)} className="promo-link">
                  {p.imageUrl ? (
                    <img className="promo-img" src={p.imageUrl} alt="" width={640} height={240} loading="lazy" decoding="async" />
                  ) : (
                    <span className="promo-img promo-img-none" aria-hidden="true" />
                  )}
                  <span className="promo-title">{p.title}</span>
                  <span className="promo-text">{p.description}</span>
                  <span className="promo-more" aria-hidden="true">
                    {t("home.promotionDetails")} ›
                  </span>
                </Link>
              </li>
            ))}
          </ul>
        </section>
      )}

      {categories.length > 0 && (
        <section className="page landing-section" aria-labelledby="categories-title">
          <h2 id="categories-title">{t("home.categories")}</h2>
          <ul className="categories" role="list" data-testid="categories">
            {categories.map((category) => (
              <li key={category.key}>
                <Link to={playerHref(category.to, loggedIn)} prefetch="intent" className={`category category-${category.key}`}>
                  <span className="category-mark" aria-hidden="true">
                    {category.mark}
                  </span>
                  <span>{t(`home.category.${category.key}`)}</span>
                </Link>
              </li>
            ))}
          </ul>
        </section>
      )}

      {featured.length > 0 && (
        <section className="page landing-section" aria-labelledby="featured-title" data-testid="featured-games">
          <h2 id="featured-title">{t("home.featured")}</h2>
          <ul className="featured" role="list">
            {featured.map((game) => (
              <li key={`${game.provider}:${game.code}`}>
                <Link to={playerHref(gameHref(game), loggedIn)} className="featured-game" data-provider={game.provider}>
                  <img className="featured-img" src={game.img} alt="" width={160} height={120} loading="lazy" decoding="async" />
                  <span className="featured-name">{game.name}</span>
                  <span className="featured-provider">{t(`providers.${game.provider}`)}</span>
                </Link>
              </li>
            ))}
          </ul>
        </section>
      )}

      <section className="page landing-section" aria-labelledby="banks-title" data-testid="landing-banks">
        <h2 id="banks-title">{t("home.banks")}</h2>
        <p className="landing-note">{t("home.banksNote")}</p>
        <ul className="landing-banks" role="list">
          {banks.map((code) => (
            <li key={code}>
              <BankMark code={code} size={48} label={t(`bankNames.${code}`)} />
            </li>
          ))}
        </ul>
      </section>

      <section className="page language-drawer" aria-labelledby="language-title">
        <h2 id="language-title">{t("home.language")}</h2>
        <LanguageSwitcher current={(root?.locale ?? i18n.language) as Language} testId="landing-language" />
      </section>
    </>
  );
}
