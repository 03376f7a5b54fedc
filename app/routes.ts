import { index, prefix, route, type RouteConfig } from "@react-router/dev/routes";

/** The route map of docs/product.md §2, plus the JSON API of docs/product.md §7 (both /api/v2 and /v2 spellings). */
export default [
  index("routes/home.tsx"),
  route("login", "routes/login.tsx"),
  route("register", "routes/register.tsx"),
  route("logout", "routes/logout.ts"),
  route("set-language", "routes/set-language.ts"),

  route("player", "routes/player/layout.tsx", [
    route("deposit", "routes/player/deposit.tsx"),
    route("deposit/history", "routes/player/deposit-history.tsx"),
    // "Save QR": the open order's QR as a PNG file (decision 080)
    route("deposit/qr/:file", "routes/player/deposit-qr.ts"),
    // the bank's transfer slip of an open or expired order (decision 087)
    route("deposit/:code/slip", "routes/player/deposit-slip.tsx"),
    route("credit-chip", "routes/player/credit-chip.ts"),
    route("withdraw", "routes/player/withdraw.tsx"),
    route("withdraw/history", "routes/player/withdraw-history.tsx"),
    route("bank", "routes/player/bank.tsx"),
    route("promotion", "routes/player/promotion.tsx"),
    route("promotion/history", "routes/player/promotion-history.tsx"),
    route("promotion/:promotionId", "routes/player/promotion-detail.tsx"),
    route("game/:provider", "routes/player/game.tsx"),
    route("password", "routes/player/password.tsx"),
    route("sessions", "routes/player/sessions.tsx"),
    route("limits", "routes/player/limits.tsx"),
    route("referral", "routes/player/referral.tsx"),
    route("cashback", "routes/player/cashback.tsx"),
    route("level", "routes/player/level.tsx"),
    // daily check-in and the deposit streak (decision 095)
    route("checkin", "routes/player/checkin.tsx"),
  ]),

  ...["api/v2", "v2"].flatMap((base) =>
    prefix(base, [
      route("agency/info", "routes/api/agency-info.ts", { id: `${base}-agency-info` }),
      route("fingerprint", "routes/api/fingerprint.ts", { id: `${base}-fingerprint` }),
      route("players/info", "routes/api/players/info.ts", { id: `${base}-players-info` }),
      route("players/login", "routes/api/players/login.ts", { id: `${base}-players-login` }),
      route("players/logout", "routes/api/players/logout.ts", { id: `${base}-players-logout` }),
      route("players/register", "routes/api/players/register.ts", { id: `${base}-players-register` }),
      route("players/username/validate", "routes/api/players/username-validate.ts", { id: `${base}-players-username-validate` }),
      route("players/security/password/change", "routes/api/players/password-change.ts", { id: `${base}-players-password-change` }),
      route("players/credits/:provider", "routes/api/credits.ts", { id: `${base}-players-credits` }),
      route("players/deposits", "routes/api/deposits.ts", { id: `${base}-players-deposits` }),
      route("players/deposits/open", "routes/api/deposits.ts", { id: `${base}-players-deposits-open` }),
      route("players/withdrawals", "routes/api/withdrawals.ts", { id: `${base}-players-withdrawals` }),
      route("players/withdrawals/open", "routes/api/withdrawals.ts", { id: `${base}-players-withdrawals-open` }),
      route("promotions", "routes/api/promotions.ts", { id: `${base}-promotions` }),
      route("promotions/current", "routes/api/promotions.ts", { id: `${base}-promotions-current` }),
      route("promotions/usages", "routes/api/promotions.ts", { id: `${base}-promotions-usages` }),
      route("promotions/:promotionId", "routes/api/promotions.ts", { id: `${base}-promotions-detail` }),
      // check-in and deposit-streak rewards (decision 095): the status, a check-in, a streak claim
      route("rewards/checkin", "routes/api/checkin.ts", { id: `${base}-rewards-checkin` }),
      route("rewards/streak", "routes/api/checkin.ts", { id: `${base}-rewards-streak` }),
      route("payments/webhook", "routes/api/payment-webhook.ts", { id: `${base}-payments-webhook` }),
    ]),
  ),

  // The back office (decision 007). Login, second factor, enrolment and logout stay outside the
  // guarded layout; every section lives inside it.
  route("admin/login", "routes/admin/login.tsx"),
  route("admin/login/totp", "routes/admin/login-totp.tsx"),
  route("admin/enrol", "routes/admin/enrol.tsx"),
  route("admin/logout", "routes/admin/logout.ts"),
  route("admin", "routes/admin/layout.tsx", [
    index("routes/admin/dashboard.tsx"),
    route("withdrawals", "routes/admin/withdrawals.tsx"),
    route("withdrawals/:code", "routes/admin/withdrawal.tsx"),
    // the player's receive QR to pay the withdrawal by one scan (decision 086)
    route("withdrawals/:code/payout-qr.png", "routes/admin/withdrawal-qr.ts"),
    route("staff", "routes/admin/staff.tsx"),
    route("staff/new", "routes/admin/staff-new.tsx"),
    route("audit", "routes/admin/audit.tsx"),
    route("api-tokens", "routes/admin/api-tokens.tsx"),
    route("deposits", "routes/admin/deposits.tsx"),
    route("deposits/import", "routes/admin/statements.tsx"),
    route("deposits/open", "routes/admin/open-deposits.tsx"),
    // a player's slip picture, staff only (decision 087)
    route("slips/:id", "routes/admin/slip-picture.ts"),
    route("deposits/:code", "routes/admin/deposit.tsx"),
    route("payments", "routes/admin/payments.tsx"),
    route("players", "routes/admin/players.tsx"),
    route("players/:playerId", "routes/admin/player.tsx"),
    route("fingerprints", "routes/admin/fingerprints.tsx"),
    // the owner's blocklist (decision 090) and its CSV
    route("blocklist", "routes/admin/blocklist.tsx"),
    route("blocklist/export.csv", "routes/admin/blocklist-csv.ts"),
    // claims held for review (decision 094) and their CSV
    route("holds", "routes/admin/holds.tsx"),
    route("holds/export.csv", "routes/admin/holds-csv.ts"),
    route("settings", "routes/admin/settings.tsx"),
    route("settings/channels", "routes/admin/channels.tsx"),
    route("settings/providers", "routes/admin/providers.tsx"),
    route("settings/brand", "routes/admin/brand.tsx"),
    route("settings/alerts", "routes/admin/alerts.tsx"),
    route("promotions", "routes/admin/promotions.tsx"),
    route("promotions/new", "routes/admin/promotion-new.tsx"),
    route("promotions/:promotionId", "routes/admin/promotion-edit.tsx"),
    route("cashback", "routes/admin/cashback.tsx"),
    route("checkin", "routes/admin/checkin.tsx"),
    route("levels", "routes/admin/levels.tsx"),
    route("forwarder", "routes/admin/forwarder.tsx"),
    route("reports", "routes/admin/reports.tsx"),
    route("reports/:file", "routes/admin/reports-csv.ts"),
    route("reconciliation", "routes/admin/reconciliation.tsx"),
    route("reconciliation/:file", "routes/admin/reconciliation-csv.ts"),
    route("referrals", "routes/admin/referrals.tsx"),
  ]),

  route("api/staff/withdrawals/:code/:op", "routes/api/staff-withdrawal.ts"),
  route("api/forwarder/:token", "routes/api/forwarder.ts"),
  route("locales/:lng/:file", "routes/locales.ts"),
  // The agency's own brand images and web manifest (decision 018; not public/, which is the same for all).
  route("brand/:file", "routes/brand-asset.ts"),
  route("app.webmanifest", "routes/web-manifest.ts"),
  // What the service worker shows when the network is gone (decision 028).
  route("offline", "routes/offline.ts"),
  route("sandbox/:target/*", "routes/sandbox-proxy.ts"),
  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
