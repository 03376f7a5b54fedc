import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { TestInfo } from "@playwright/test";

/** app/routes.ts as text: the pages are read from it, so a new one is covered without anyone listing it. */
const routesFile = (info: TestInfo) => readFileSync(join(dirname(info.config.configFile!), "app/routes.ts"), "utf8");

/** Sample values for the parameters of player routes (the seeds' demo catalogue). */
const PARAMS: Record<string, string> = { provider: "askmebet", promotionId: "deposit-60k-bonus-50" };

/**
 * Every page under /player in app/routes.ts, parameters filled in, so a new player page is
 * measured (budgets.spec.ts) and visited (screens.spec.ts) without anyone adding it by hand;
 * a page of one order is left to its flow (tests/e2e/deposit-slip.spec.ts).
 */
export function playerPages(info: TestInfo): string[] {
  const routes = routesFile(info);
  // pages only (.tsx): a resource route such as the deposit's QR picture file is no screen
  const paths = [...routes.matchAll(/route\("([^"]+)",\s*"routes\/player\/(?!layout)[^"]+\.tsx"/g)].map(([, path]) => `/player/${path}`);
  if (!paths.includes("/player/deposit")) throw new Error("pages.ts: no player route found in app/routes.ts (did its shape change?)");
  // a page of one of the player's orders (`:code`: the slip of a deposit, decision 087) needs an order and is reached by its own flow
  return paths
    .filter((path) => !path.includes(":code"))
    .map((path) =>
      path.replace(/:(\w+)/g, (_, name: string) => {
        if (!PARAMS[name]) throw new Error(`tests/e2e/pages.ts: add a sample value for :${name} (${path}) to PARAMS`);
        return PARAMS[name];
      }),
    );
}

/**
 * Every back-office page under the /admin layout in app/routes.ts (screens, not resource
 * routes such as the CSV files), for screens.spec.ts. Pages of one record (`:code`,
 * `:playerId`) need a record and are reached by their own flows; a promotion is seeded.
 */
export function adminPages(info: TestInfo): string[] {
  const routes = routesFile(info);
  const layout = routes.slice(routes.indexOf('route("admin", "routes/admin/layout.tsx"'));
  const block = layout.slice(layout.indexOf("["), layout.indexOf("]),") + 1); // the layout's children
  if (!block.includes("routes/admin/dashboard.tsx")) throw new Error("pages.ts: no back-office layout found in app/routes.ts (did its shape change?)");
  const children = [...block.matchAll(/route\("([^"]+)",\s*"routes\/admin\/[^"]+\.tsx"/g)].map(([, path]) => `/admin/${path}`);
  return ["/admin", ...children.filter((path) => !/:(code|playerId)\b/.test(path)).map((path) => path.replace(":promotionId", PARAMS.promotionId))];
}
