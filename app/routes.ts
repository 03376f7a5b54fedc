import { index, prefix, route, type RouteConfig } from "@react-router/dev/routes";

/** The route map of SPEC §2, plus the JSON API of SPEC §7 (both /api/v2 and /v2 spellings). */
export default [
  index("routes/home.tsx"),
  route("login", "routes/login.tsx"),
  route("register", "routes/register.tsx"),
  route("set-language", "routes/set-language.ts"),

  route("player", "routes/player/layout.tsx", [
    route("deposit", "routes/player/coming-soon.tsx", { id: "player-deposit" }),
    route("deposit/history", "routes/player/coming-soon.tsx", { id: "player-deposit-history" }),
    route("withdraw", "routes/player/coming-soon.tsx", { id: "player-withdraw" }),
    route("withdraw/history", "routes/player/coming-soon.tsx", { id: "player-withdraw-history" }),
    route("bank", "routes/player/coming-soon.tsx", { id: "player-bank" }),
    route("promotion", "routes/player/coming-soon.tsx", { id: "player-promotion" }),
    route("promotion/history", "routes/player/coming-soon.tsx", { id: "player-promotion-history" }),
    route("promotion/:promotionId", "routes/player/coming-soon.tsx", { id: "player-promotion-detail" }),
    route("game/:provider", "routes/player/coming-soon.tsx", { id: "player-game" }),
    route("password", "routes/player/coming-soon.tsx", { id: "player-password" }),
  ]),

  ...["api/v2", "v2"].flatMap((base) =>
    prefix(base, [route("agency/info", "routes/api/agency-info.ts", { id: `${base}-agency-info` })]),
  ),

  route("locales/:lng/:file", "routes/locales.ts"),
  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
