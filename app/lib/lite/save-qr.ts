import type { LiteContext } from "./context";
import { SAVE_QR } from "./hooks";

/**
 * "Save QR" with JavaScript (decision 080). The link (`a[data-save-qr]`) already downloads the
 * picture without it (routes/player/deposit-qr.ts answers it as an attachment). Where the
 * browser can share files (Android Chrome, iOS Safari: `navigator.canShare({ files })`), the
 * share sheet opens with the PNG, so the player puts it in the gallery or straight into the
 * bank app; elsewhere the same file is downloaded. An order that ended meanwhile (404) reloads
 * the page, which shows why.
 */
export function saveQrPart({ d }: LiteContext): void {
  for (const link of d.querySelectorAll<HTMLAnchorElement>(`a${SAVE_QR.selector}`)) {
    link.addEventListener("click", (event) => {
      // no Web Share here (desktop Linux, older browsers): the link's own download
      if (typeof navigator.canShare !== "function") return;
      event.preventDefault();
      void shareOrDownload(d, link);
    });
  }
}

async function shareOrDownload(d: Document, link: HTMLAnchorElement): Promise<void> {
  let file: File;
  try {
    const res = await fetch(link.href);
    if (!res.ok) return location.replace(location.pathname);
    const name = /filename="([^"]+)"/.exec(res.headers.get("Content-Disposition") ?? "")?.[1] ?? "lao-qr.png";
    file = new File([await res.blob()], name, { type: "image/png" });
  } catch {
    return location.assign(link.href); // the network dropped: the plain download tries again
  }
  if (navigator.canShare({ files: [file] })) {
    try {
      return await navigator.share({ files: [file], title: link.getAttribute(SAVE_QR.attribute) ?? "" });
    } catch (error) {
      if ((error as Error).name === "AbortError") return; // the player closed the share sheet
    }
  }
  const a = d.createElement("a");
  a.href = URL.createObjectURL(file);
  a.download = file.name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(a.href), 60_000);
}
