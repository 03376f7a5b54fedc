import { useEffect } from "react";

/** Sends the device fingerprint once a day or when it changes (SPEC §1), for logged-in players. */
export function FingerprintSync({ agencyId }: { agencyId: string }) {
  useEffect(() => {
    // Idle time: never compete with the page the player asked for.
    const start = () =>
      import("~/lib/fingerprint-collect").then(({ syncFingerprint }) => syncFingerprint(agencyId)).catch(() => {});
    const idle = typeof window.requestIdleCallback === "function";
    const id = idle ? window.requestIdleCallback(start) : window.setTimeout(start, 1500);
    return () => (idle ? window.cancelIdleCallback(id) : window.clearTimeout(id));
  }, [agencyId]);
  return null;
}
