import { FINGERPRINT_VERSION, fingerprintStorageKey, localDate, parseStored, shouldSendFingerprint, type FingerprintPayload } from "./fingerprint";

/**
 * Collects the device fingerprint (docs/product.md §3). One collector, so a player's fingerprint at
 * registration and the daily one agree: the hydrated pages import it, and the lite pages'
 * `fingerprint` part (lib/lite/fingerprint.ts) is bundled with it by the build (decision 066).
 */
export async function collectFingerprint(version: string): Promise<FingerprintPayload> {
  // Fonts we probe for by measuring text: common on the phones and PCs of our players. Not
  // "Noto Sans Lao": our own @font-face of that name shadows the device's, so the probe saw
  // whether our web font had loaded yet, and the same device sent two fingerprints a day.
  const fontProbes = ["Arial", "Phetsarath OT", "Saysettha OT", "Roboto", "Tahoma", "PingFang SC", "Microsoft YaHei", "Segoe UI", "Helvetica"];
  const webGLInfo = (): FingerprintPayload["webGL"] => {
    const empty = { version: "", vendor: "", vendorUnmasked: "", renderer: "", rendererUnmasked: "", shadingLanguageVersion: "" };
    try {
      const canvas = document.createElement("canvas");
      const gl = (canvas.getContext("webgl") ?? canvas.getContext("experimental-webgl")) as WebGLRenderingContext | null;
      if (!gl) return empty;
      const debug = gl.getExtension("WEBGL_debug_renderer_info");
      return {
        version: String(gl.getParameter(gl.VERSION) ?? ""),
        vendor: String(gl.getParameter(gl.VENDOR) ?? ""),
        vendorUnmasked: debug ? String(gl.getParameter(debug.UNMASKED_VENDOR_WEBGL) ?? "") : "",
        renderer: String(gl.getParameter(gl.RENDERER) ?? ""),
        rendererUnmasked: debug ? String(gl.getParameter(debug.UNMASKED_RENDERER_WEBGL) ?? "") : "",
        shadingLanguageVersion: String(gl.getParameter(gl.SHADING_LANGUAGE_VERSION) ?? ""),
      };
    } catch {
      return empty;
    }
  };
  const audioInfo = (): string => {
    try {
      const Ctx = window.AudioContext ?? (window as unknown as { webkitAudioContext?: typeof AudioContext }).webkitAudioContext;
      if (!Ctx) return "";
      const ctx = new Ctx();
      const info = `${ctx.sampleRate}|${ctx.destination.maxChannelCount}|${ctx.destination.channelCount}`;
      void ctx.close();
      return info;
    } catch {
      return "";
    }
  };
  const installedFonts = (): string => {
    const ctx = document.createElement("canvas").getContext("2d");
    if (!ctx) return "";
    const sample = "mmmmmmmmmmlliWWສະບາຍດີ你好";
    const width = (font: string) => {
      ctx.font = `16px ${font}`;
      return ctx.measureText(sample).width;
    };
    const base = width("monospace");
    return fontProbes.filter((font) => width(`"${font}", monospace`) !== base).join(",");
  };
  const nav = navigator as Navigator & { deviceMemory?: number };
  const fields: Omit<FingerprintPayload, "fingerprint"> = {
    screen: `${screen.width}x${screen.height}`,
    version,
    timezone: Intl.DateTimeFormat().resolvedOptions().timeZone ?? "",
    userAgent: nav.userAgent,
    plugins: [...(nav.plugins ?? [])].map((p) => p.name).join(","),
    webGL: webGLInfo(),
    audio: audioInfo(),
    platform: nav.platform ?? "",
    memory: nav.deviceMemory ? String(nav.deviceMemory) : "",
    fonts: installedFonts(),
    languages: [...(nav.languages ?? [])].join(","),
    hardwareConcurrency: String(nav.hardwareConcurrency ?? ""),
    vendor: nav.vendor ?? "",
  };
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(JSON.stringify(fields)));
  const fingerprint = [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
  return { ...fields, fingerprint };
}

/** What syncFingerprint needs; passed in (not imported) so the lite script can hand over its inlined copies. */
export type SyncDeps = {
  collect: typeof collectFingerprint;
  storageKey: typeof fingerprintStorageKey;
  localDate: typeof localDate;
  parseStored: typeof parseStored;
  shouldSend: typeof shouldSendFingerprint;
};

/**
 * Sends the fingerprint if it is new or not sent today; remembers it per agency.
 * Self-contained like collectFingerprint (the lite script inlines it too).
 */
export async function syncFingerprintWith(deps: SyncDeps, version: string, agencyId: string): Promise<"sent" | "skipped" | "failed"> {
  const payload = await deps.collect(version);
  const key = deps.storageKey(agencyId);
  const today = deps.localDate(new Date());
  if (!deps.shouldSend(deps.parseStored(localStorage.getItem(key)), payload.fingerprint, today)) return "skipped";
  const res = await fetch("/api/v2/fingerprint", {
    method: "POST",
    credentials: "include",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(payload),
  });
  if (!res.ok) return "failed";
  localStorage.setItem(key, JSON.stringify({ date: today, fingerprint: payload.fingerprint }));
  return "sent";
}

/** The React app's entry (FingerprintSync on pages that hydrate). */
export function syncFingerprint(agencyId: string): Promise<"sent" | "skipped" | "failed"> {
  const deps = { collect: collectFingerprint, storageKey: fingerprintStorageKey, localDate, parseStored, shouldSend: shouldSendFingerprint };
  return syncFingerprintWith(deps, FINGERPRINT_VERSION, agencyId);
}
