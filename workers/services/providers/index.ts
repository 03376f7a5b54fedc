/**
 * Game providers: the owner's setup (adapters, hosts, credentials), a player's live credit at
 * each, the lobbies and game launch, the landing page's featured games, and the pruning of the
 * providers' attempts.
 * The folder's only door: code outside it imports from here, and only what is exported here.
 */
export { enabledProviders, fetchCredit, lastCredits, liveChipFigure, type Credit } from "./credits";
export { launchFromLobby, lobby, LOBBY_FRESH_MS, lobbyPage } from "./game";
export { FEATURED_GAMES, FEATURED_WAIT_MS, landingPage } from "./landing";
export { pruneProviderAttempts } from "./provider-attempts";
export { forgetProviderCsp, providerCspForHost, providerSetupScreen, saveProviderSetup, type ProviderSetupInput } from "./provider-setup";
