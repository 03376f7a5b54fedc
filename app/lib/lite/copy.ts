import type { LiteContext } from "./context";

/**
 * A copy button (`button[data-copy]`, shown only with JavaScript by `.js-only`): puts
 * `data-copy` on the clipboard and then reads `data-copied` (the server renders both words, so
 * the part needs no translation). The React versions: routes/player/referral.tsx CopyButton.
 */
export function copyPart({ d }: LiteContext): void {
  for (const button of d.querySelectorAll<HTMLButtonElement>("button[data-copy]")) {
    const label = button.textContent;
    button.addEventListener("click", () => {
      const done = (ok: boolean) => (button.textContent = ok ? (button.dataset.copied ?? label) : label);
      if (!navigator.clipboard) return;
      void navigator.clipboard.writeText(button.dataset.copy ?? "").then(
        () => done(true),
        () => done(false),
      );
    });
  }
}
