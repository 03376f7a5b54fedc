import type { LiteContext } from "./context";
import { DISCLOSURE, DRAWER_CLOSE } from "./hooks";

/**
 * The layout's disclosures (`<details data-disclosure>`, components/menus.tsx `Disclosure`):
 * they open and close without JavaScript; with it they also close on Escape (focus back on
 * the summary), on a click outside, and when a link inside is chosen. The drawer's backdrop
 * and Close link reload the page without JavaScript (that closes it); here they just close it.
 */
export function menusPart({ d }: LiteContext): void {
  const all = [...d.querySelectorAll<HTMLDetailsElement>(`details${DISCLOSURE.selector}`)];
  if (all.length === 0) return;
  d.addEventListener("keydown", (event) => {
    if (event.key !== "Escape") return;
    for (const details of all) {
      if (!details.open) continue;
      details.open = false;
      details.querySelector("summary")?.focus();
    }
  });
  d.addEventListener("click", (event) => {
    const target = event.target as Element | null;
    for (const details of all) {
      if (!details.open) continue;
      if (!target || !details.contains(target)) {
        details.open = false;
        continue;
      }
      const link = target.closest("a");
      if (!link || !details.contains(link)) continue;
      details.open = false;
      // backdrop and Close: links to this very page, for browsers without JavaScript
      if (link.matches(`.drawer-backdrop, ${DRAWER_CLOSE.selector}`)) event.preventDefault();
    }
  });
}
