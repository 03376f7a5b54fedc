import type { afterLoadWhenIdle } from "../fingerprint";
import type { syncFingerprintWith, SyncDeps } from "../fingerprint-collect";
import type { guardOfflineSubmits, registerServiceWorker } from "../offline";

/** The fingerprint collector and the daily-send rule (one copy each, decision 021). */
export type FingerprintKit = SyncDeps & { sync: typeof syncFingerprintWith; later: typeof afterLoadWhenIdle };
/** The bad-network behaviours of decision 028, shared with entry.client. */
export type OfflineKit = { register: typeof registerServiceWorker; guard: typeof guardOfflineSubmits };
