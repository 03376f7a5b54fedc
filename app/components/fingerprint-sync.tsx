import { useEffect } from "react";
import { afterLoadWhenIdle, FINGERPRINT_SYNC_DELAY_MS } from "~/lib/fingerprint";

/** Sends the device fingerprint once a day or when it changes (docs/product.md §1), for logged-in players. */
export function FingerprintSync({ agencyId }: { agencyId: string }) {
  useEffect(() => {
    // After the page's first seconds, in idle time: never compete with the page the player asked for.
    const start = () => void import("~/lib/fingerprint-collect").then(({ syncFingerprint }) => syncFingerprint(agencyId)).catch(() => {});
    return afterLoadWhenIdle(start, FINGERPRINT_SYNC_DELAY_MS);
  }, [agencyId]);
  return null;
}
