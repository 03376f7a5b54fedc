import type { Config } from "@react-router/dev/config";

export default {
  ssr: true,
  // Origin checks for every non-GET request run in workers/app.ts, because an agency's
  // domains live in D1 and cannot be listed here at build time.
} satisfies Config;
