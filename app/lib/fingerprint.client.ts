import {
  FINGERPRINT_VERSION,
  fingerprintStorageKey,
  localDate,
  parseStored,
  shouldSendFingerprint,
  type FingerprintPayload,
} from "./fingerprint";

/** Fonts we probe for by measuring text: common on the phones and PCs of our players. */
const FONT_PROBES = ["Arial", "Noto Sans Lao", "Phetsarath OT", "Saysettha OT", "Roboto", "Tahoma", "PingFang SC", "Microsoft YaHei", "Segoe UI", "Helvetica"];

function webGLInfo(): FingerprintPayload["webGL"] {
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
}

function audioInfo(): string {
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
}

function installedFonts(): string {
  const canvas = document.createElement("canvas");
  const ctx = canvas.getContext("2d");
  if (!ctx) return "";
  const sample = "mmmmmmmmmmlliWWສະບາຍດີ你好";
  const width = (font: string) => {
    ctx.font = `16px ${font}`;
    return ctx.measureText(sample).width;
  };
  const base = width("monospace");
  return FONT_PROBES.filter((font) => width(`"${font}", monospace`) !== base).join(",");
}

async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

export async function collectFingerprint(): Promise<FingerprintPayload> {
  const nav = navigator as Navigator & { deviceMemory?: number };
  const fields: Omit<FingerprintPayload, "fingerprint"> = {
    screen: `${screen.width}x${screen.height}`,
    version: FINGERPRINT_VERSION,
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
  return { ...fields, fingerprint: await sha256Hex(JSON.stringify(fields)) };
}

/** Sends the fingerprint if it is new or not sent today; remembers it per agency. */
export async function syncFingerprint(agencyId: string): Promise<"sent" | "skipped" | "failed"> {
  const payload = await collectFingerprint();
  const key = fingerprintStorageKey(agencyId);
  const today = localDate(new Date());
  if (!shouldSendFingerprint(parseStored(localStorage.getItem(key)), payload.fingerprint, today)) return "skipped";
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
