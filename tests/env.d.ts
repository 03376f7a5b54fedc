import type { D1Migration } from "cloudflare:test";

declare global {
  namespace Cloudflare {
    interface Env {
      TEST_MIGRATIONS: D1Migration[];
      // Optional in Env (a deployed agency has no sandboxes, see wrangler.toml), always
      // bound in tests (vitest.config.ts).
      SANDBOX_PROVIDER: Fetcher;
      SANDBOX_BANK: Fetcher;
      SANDBOX_TELEGRAM: Fetcher;
      // one-payment-model.test.ts: seeds to run instead of CI's (vitest.config.ts, from the shell's MODEL_SEEDS)
      MODEL_SEEDS: string;
      // debit-payouts-model.test.ts: seeds to run instead of CI's (vitest.config.ts, from the shell's DEBIT_SEEDS)
      DEBIT_SEEDS: string;
    }
  }
}
