import { Link } from "react-router";
import lobbyStyles from "~/styles/lobby.css?inline";
import { useTranslation } from "react-i18next";
import { GAME_LINKS } from "~/lib/menu";
import { LanguageSwitcher } from "~/components/menus";
import { getAgency, getBindings, getPlayer, getWaitUntil } from "~/lib/context.server";
import { getLocale } from "~/middleware/i18next.server";
import { landingPage } from "@workers/services/providers";
import type { Language } from "@workers/core/languages";
import type { Provider } from "@workers/core/providers";
import { lobbyHref, type GameCategory } from "@workers/core/game-categories";
import { loadAsDocument, type ScriptsHandle } from "~/lib/page-scripts";
import type { Route } from "./+types/home";
import { BankMark } from "../components/bank-mark";
import { ProviderMark } from "../components/provider-mark";
import { CAROUSEL, CAROUSEL_DOT, hookProps } from "~/lib/lite/hooks";

/**
 * No React in the browser: links and forms only, plus the lite script (decision 021). One Lao
 * weight: the 700 file is not preloaded here (root.tsx) and the bold is drawn from the regular
 * (app.css, `data-fonts="regular"` below), to keep the first load under 50 KB (decision 027).
 */
export const handle = { scripts: "lite", fonts: "regular", lite: ["carousel"], styles: lobbyStyles } satisfies ScriptsHandle & { fonts: "regular" };
export const clientLoader = loadAsDocument;

/**
 * The landing page (decision 020): the agency's hero and call to action, its
 * active promotions, game categories, featured games, the accepted banks. No client code of
 * its own; every image has its size; only the hero image loads eagerly.
 */
export async function loader({ context }: Route.LoaderArgs) {
  return landingPage(getBindings(context), getAgency(context), getLocale(context) as Language, {
    waitUntil: getWaitUntil(context),
    playerId: getPlayer(context)?.id ?? null,
  });
}

/** Each game category's plain-text mark (no emoji font needed). */
const CATEGORY_MARK: Record<GameCategory, string> = { slot: "7", sport: "◎", casino: "♠", fish: "≋", card: "♥", chicken: "♦" };

/** Screens that take the phone hero: app.css's narrowest layout (one promotion card a row). */
const PHONE_HERO_MEDIA = "(max-width: 576px)";

/** A player page: a visitor goes through login (and comes back to it), without a redirect hop. */
function playerHref(to: string, loggedIn: boolean): string {
  return loggedIn ? to : `/login?redirectTo=${encodeURIComponent(to)}`;
}

/** A featured game opens its provider's lobby on its tab, searched for it (the lobby's Play button launches it). */
function gameHref(game: { provider: Provider; tab: string; name: string }): string {
  return lobbyHref(game.provider, game.tab, game.name);
}

type RootData = { locale: Language; player: unknown } | undefined;

export default function Home({ loaderData, matches }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  const root = matches[0]?.loaderData as RootData;
  const loggedIn = Boolean(root?.player);
  const { hero, promotions, providers, categories, featured, banks } = loaderData;
  const banners = promotions.filter((p) => p.imageUrl);
  const slides = 1 + banners.length;
  return (
    <>
      {/*
        The banner carousel (decision 082): the hero, then each promotion's banner, side by side
        in a row that scrolls and snaps (CSS only, so it works without JavaScript); the dots are
        links to the slides. The hero's picture is fetched first; the banners wait (lazy).
      */}
      <section className="carousel" aria-roledescription="carousel" aria-label={t("landingCarousel.label")} data-testid="carousel">
        <ul className="carousel-slides" role="list" {...hookProps(CAROUSEL)}>
          <li id="slide-1" className="carousel-slide" aria-roledescription="slide" aria-label={t("landingCarousel.slide", { n: 1, count: slides })}>
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
          </li>
          {banners.map((p, i) => (
            <li
              key={p.id}
              id={`slide-${i + 2}`}
              className="carousel-slide"
              aria-roledescription="slide"
              aria-label={t("landingCarousel.slide", { n: i + 2, count: slides })}
            >
              <Link to={playerHref(`/player/promotion/${p.id}`, loggedIn)} className="banner" data-testid="carousel-banner">
                <img className="banner-img" src={p.imageUrl!} alt="" width={640} height={240} loading="lazy" decoding="async" />
                <span className="banner-text">
                  <span className="banner-title">{p.title}</span>
                  <span className="button button-primary">{t("home.promotionDetails")}</span>
                </span>
              </Link>
            </li>
          ))}
        </ul>
        {slides > 1 && (
          <nav className="carousel-dots" aria-label={t("landingCarousel.dots")}>
            {Array.from({ length: slides }, (_, i) => (
              <a key={i} href={`#slide-${i + 1}`} className="carousel-dot" {...hookProps(CAROUSEL_DOT)}>
                <span className="sr-only">{t("landingCarousel.slide", { n: i + 1, count: slides })}</span>
              </a>
            ))}
          </nav>
        )}
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

      {providers.length > 0 && (
        <section className="page landing-section" aria-labelledby="categories-title">
          <h2 id="categories-title">{t("home.categories")}</h2>
          <ul className="categories" role="list" data-testid="categories" hidden={categories.length === 0}>
            {categories.map((link) => (
              <li key={link.category}>
                <Link
                  to={playerHref(lobbyHref(link.provider, link.tab), loggedIn)}
                  prefetch="intent"
                  className={`category category-${link.category}`}
                  data-provider={link.provider}
                >
                  <span className="category-mark" aria-hidden="true">
                    {CATEGORY_MARK[link.category]}
                  </span>
                  <span>{t(`home.category.${link.category}`)}</span>
                  <ProviderMark provider={link.provider} name={t(`providers.${link.provider}`)} size="small" />
                </Link>
              </li>
            ))}
          </ul>
          <h3 className="providers-title">{t("landingProviders.title")}</h3>
          <ul className="provider-marks" role="list" data-testid="provider-marks">
            {providers.map((provider) => (
              <li key={provider}>
                <Link to={playerHref(GAME_LINKS[provider], loggedIn)} prefetch="intent" className="provider-link">
                  <ProviderMark provider={provider} name={t(`providers.${provider}`)} size="large" />
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
                  <img className="featured-img" src={game.img} alt="" width={320} height={240} loading="lazy" decoding="async" />
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
