import type { WalletAlarm } from "./alarm";
import type { WalletStore } from "./queries";

/** What every part of the wallet works with: its bindings, its storage and its alarm. */
export type WalletContext = {
  readonly env: Env;
  readonly store: WalletStore;
  readonly alarm: WalletAlarm;
};
