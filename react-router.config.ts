import type { Config } from "@react-router/dev/config";

export default {
  ssr: true,
  // `npm start` builds into build/; a test, bench or rehearsal into its own folder
  // (scripts/local-dirs.mjs, decision 055), so it never replaces the files a running `npm start` serves.
  buildDirectory: process.env.PORTAL_BUILD_DIR || "build",
  // Origin checks for every non-GET request run in workers/app.ts, because an agency's
  // domains live in D1 and cannot be listed here at build time.
} satisfies Config;
