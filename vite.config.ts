import { cloudflare } from "@cloudflare/vite-plugin";
import { reactRouter } from "@react-router/dev/vite";
import { defineConfig } from "vite";

export default defineConfig({
  plugins: [
    cloudflare({
      viteEnvironment: { name: "ssr" },
      // The sandbox provider and bank run beside the portal locally (dev and preview).
      auxiliaryWorkers: [{ configPath: "./workers/sandbox/provider/wrangler.toml" }, { configPath: "./workers/sandbox/bank/wrangler.toml" }],
    }),
    reactRouter(),
  ],
  resolve: { tsconfigPaths: true },
  optimizeDeps: {
    include: ["i18next", "react-i18next", "@conform-to/react", "@conform-to/zod/v4", "dayjs", "zod"],
  },
  server: { port: 5173, strictPort: true, host: "127.0.0.1" },
  preview: { port: 5173, strictPort: true, host: "127.0.0.1" },
});
