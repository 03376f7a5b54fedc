import type { LiteContext } from "./context";
import { COPIED, COPY } from "./hooks";

/**
 * A copy button (`button[data-copy]`, shown only with JavaScript by `.js-only`): puts
 * `data-copy` on the clipboard and then reads `data-copied` (the server renders both words, so
 * the part needs no translation). The buttons: routes/player/referral.tsx CopyButton and the
 * deposit's QR step.
 */
export function copyPart({ d }: LiteContext): void {
  for (const button of d.querySelectorAll<HTMLButtonElement>(`button${COPY.selector}`)) {
    const label = button.textContent;
    button.addEventListener("click", () => {
      const done = (ok: boolean) => (button.textContent = ok ? (button.getAttribute(COPIED.attribute) ?? label) : label);
      if (!navigator.clipboard) return;
      void navigator.clipboard.writeText(button.getAttribute(COPY.attribute) ?? "").then(
        () => done(true),
        () => done(false),
      );
    });
  }
}
