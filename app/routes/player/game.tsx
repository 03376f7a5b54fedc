import { data, Form, Link, redirect } from "react-router";
import lobbyStyles from "~/styles/lobby.css?inline";
import { useTranslation } from "react-i18next";
import { launchFromLobby, lobbyPage } from "@workers/services/providers";
import { getAgency, getBindings, requirePlayer } from "~/lib/context.server";
import { getLocale } from "~/middleware/i18next.server";
import { limitMessage, limitOf } from "~/lib/limits.server";
import type { Route } from "./+types/game";
import { loadAsDocument, type ScriptsHandle } from "~/lib/page-scripts";
import type { I18nHandle } from "~/lib/i18n";
import { tabKind, tidyTabName } from "@workers/core/game-categories";
import { ProviderMark } from "~/components/provider-mark";

/** A provider's lobby: games by tab, a search that works without JavaScript, and launch. */
/** The translation key groups this page renders (decision 032). */
export const handle = { scripts: "lite", styles: lobbyStyles, i18n: ["games", "lobbyTabs", "errors.code.PROVIDER_UNAVAILABLE"] } satisfies ScriptsHandle &
  I18nHandle;
/** No React in the browser (decision 034): a link from a page that hydrates loads it as a document. */
export const clientLoader = loadAsDocument;

export async function loader({ request, params, context }: Route.LoaderArgs) {
  requirePlayer(context);
  const url = new URL(request.url);
  const page = await lobbyPage(getBindings(context), getAgency(context), params.provider, {
    tab: url.searchParams.get("tab"),
    q: url.searchParams.get("q") ?? "",
  });
  if (!page) throw data(null, { status: 404 });
  return page;
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const player = requirePlayer(context);
  const form = await request.formData();
  const text = (name: string) => {
    const value = form.get(name);
    return typeof value === "string" ? value : null;
  };
  const result = await launchFromLobby(
    getBindings(context),
    getAgency(context),
    player,
    params.provider,
    getLocale(context),
    { game: text("game"), tab: text("tab") },
    new URL(request.url).origin,
  );
  if (!result) throw data(null, { status: 404 });
  if (result.ok) return redirect(result.url);
  const limit = limitOf(result);
  return data({ error: result.error, message: limit && limitMessage(context, limit) }, { status: 409 });
}

/** How many tiles the first screen holds at most (two rows of two on a phone): their pictures load at once, the rest as they come near. */
const EAGER_TILES = 4;

/** A tab as the player reads it: its kind in their language, else the provider's own name, tidied. */
function useTabLabel(): (tab: string) => string {
  const { t } = useTranslation();
  return (tab) => {
    const kind = tabKind(tab);
    return kind ? t(`lobbyTabs.${kind}`) : tidyTabName(tab);
  };
}

export default function GameLobby({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { provider, tab, q, tabs, games } = loaderData;
  const name = t(`providers.${provider}`);
  const tabLabel = useTabLabel();
  return (
    <section className="page lobby">
      <title>{name}</title>
      <h1 className="lobby-title">
        <ProviderMark provider={provider} name={name} size="large" />
      </h1>
      {actionData?.error && (
        <p className="notice" role="alert" data-testid="game-error">
          {actionData.message ? (
            actionData.message
          ) : actionData.error === "NO_CREDIT" ? (
            <>
              {t("games.noCredit")} <Link to="/player/deposit">{t("menu.deposit")}</Link>
            </>
          ) : (
            t("errors.code.PROVIDER_UNAVAILABLE")
          )}
        </p>
      )}
      <nav className="tabs" aria-label={t("games.tabs")}>
        {tabs.map((tb) => (
          <Link key={tb} to={`?tab=${encodeURIComponent(tb)}`} aria-current={tb === tab ? "page" : undefined} className="tab" data-tab={tb}>
            {tabLabel(tb)}
          </Link>
        ))}
      </nav>
      <Form method="get" className="search" role="search">
        {tab && <input type="hidden" name="tab" value={tab} />}
        <label htmlFor="game-search" className="sr-only">
          {t("games.search")}
        </label>
        <input id="game-search" name="q" type="search" defaultValue={q} placeholder={t("games.search")} />
        <button type="submit" className="button button-ghost button-small">
          {t("games.searchButton")}
        </button>
      </Form>
      {loaderData.unavailable ? (
        <p className="notice">{t("errors.code.PROVIDER_UNAVAILABLE")}</p>
      ) : games.length === 0 ? (
        <p className="empty">{t("games.none")}</p>
      ) : (
        <ul className="games" role="list" data-testid="games">
          {games.map((g, i) => (
            <li key={g.code} className="game card">
              {/* Fixed dimensions reserve the space before the picture arrives: no layout shift. The
                  picture is decoration: the game's name is the text under it. */}
              {g.img ? (
                <img
                  className="game-img"
                  src={g.img}
                  alt=""
                  width={320}
                  height={240}
                  loading={i < EAGER_TILES ? "eager" : "lazy"}
                  decoding="async"
                  data-testid="game-img"
                />
              ) : (
                <span className="game-img game-img-none" aria-hidden="true" />
              )}
              <span className="card-title">{g.name}</span>
              {/* A document post: the answer is a redirect to the provider's own game page. */}
              <Form method="post" reloadDocument>
                <input type="hidden" name="game" value={g.code} />
                <input type="hidden" name="tab" value={g.tab} />
                <button type="submit" className="button button-primary button-small game-play">
                  {t("games.play")}
                </button>
              </Form>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
