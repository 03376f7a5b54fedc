import type { Provider } from "@workers/core/providers";

/**
 * The side drawer's player menu (docs/product.md §2). An entry has a translation key, an optional
 * link, optional children and an icon; it is active when the current path (query string
 * ignored) equals its link or one of its children's links.
 */
export type IconName = "game" | "deposit" | "withdraw" | "promotion" | "account" | "bank" | "history" | "play" | "contact";

export type MenuEntry = {
  key: string;
  to?: string;
  icon?: IconName;
  children?: MenuEntry[];
};

/** Each provider's lobby as the menu and the landing's provider marks open it (the tab its lobby opens on). */
export const GAME_LINKS = {
  askmebet: "/player/game/askmebet?tab=Slot",
  betflix: "/player/game/betflix?tab=pp.txt",
  gclub: "/player/game/gclub",
  gclub_live: "/player/game/gclub_live",
  alphabet: "/player/game/alphabet",
} as const satisfies Record<Provider, string>;

/** Two groups with a divider between them. */
export const PLAYER_MENU: MenuEntry[][] = [
  [
    {
      key: "menu.games",
      icon: "game",
      children: [
        { key: "menu.askmebet", to: GAME_LINKS.askmebet },
        { key: "menu.betflix", to: GAME_LINKS.betflix },
        { key: "menu.gclub", to: GAME_LINKS.gclub },
        { key: "menu.alphabet", to: GAME_LINKS.alphabet },
      ],
    },
    { key: "menu.deposit", to: "/player/deposit", icon: "deposit" },
    { key: "menu.withdraw", to: "/player/withdraw", icon: "withdraw" },
    { key: "menu.promotion", to: "/player/promotion", icon: "promotion" },
    { key: "referral.menu", to: "/player/referral", icon: "promotion" },
    { key: "cashback.menu", to: "/player/cashback", icon: "promotion" },
    { key: "checkin.menu", to: "/player/checkin", icon: "promotion" },
    { key: "levels.menu", to: "/player/level", icon: "promotion" },
  ],
  [
    { key: "menu.account", icon: "account", children: [{ key: "menu.bankAccount", to: "/player/bank", icon: "bank" }] },
    {
      key: "menu.history",
      icon: "history",
      children: [
        { key: "menu.depositHistory", to: "/player/deposit/history" },
        { key: "menu.withdrawHistory", to: "/player/withdraw/history" },
        { key: "menu.promotionHistory", to: "/player/promotion/history" },
      ],
    },
  ],
];

/** "/player/bank/" and "/player/bank?x=1" are the same place as "/player/bank". */
export function pathOf(link: string): string {
  const path = link.split(/[?#]/, 1)[0] || "/";
  return path.length > 1 ? path.replace(/\/+$/, "") : path;
}

export function isActiveEntry(entry: MenuEntry, currentPath: string): boolean {
  const current = pathOf(currentPath);
  if (entry.to && pathOf(entry.to) === current) return true;
  return (entry.children ?? []).some((child) => isActiveEntry(child, current));
}

/** A redirect target must stay on this site: a local path, never "//host" or a URL. */
export function safeRedirectPath(value: unknown, fallback = "/"): string {
  if (typeof value !== "string") return fallback;
  if (!value.startsWith("/") || value.startsWith("//") || value.startsWith("/\\")) return fallback;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
  if (/[\u0000-\u001f]/.test(value)) return fallback;
  return value;
}
