import type { LiteContext } from "./context";
import { CAROUSEL, CAROUSEL_DOT } from "./hooks";

/**
 * The landing's banner carousel (routes/home.tsx, decision 082) scrolls and snaps with CSS,
 * and its dots are `#slide-N` links, all without JavaScript. With it, the dot of the slide in
 * view says so (`aria-current`), and a dot scrolls the row alone: no jump of the page, no entry
 * in the history. It never moves by itself (moving content would need a pause control).
 */
export function carouselPart({ d }: LiteContext): void {
  for (const row of d.querySelectorAll<HTMLElement>(CAROUSEL.selector)) {
    const dots = [...(row.parentElement?.querySelectorAll<HTMLAnchorElement>(CAROUSEL_DOT.selector) ?? [])];
    if (dots.length === 0) continue;
    const current = () => Math.round(row.scrollLeft / Math.max(1, row.clientWidth));
    const mark = () => {
      const shown = current();
      dots.forEach((dot, i) => {
        // an empty aria-current would read as "false"
        if (i === shown) dot.setAttribute("aria-current", "true");
        else dot.removeAttribute("aria-current");
      });
    };
    let queued = false;
    row.addEventListener(
      "scroll",
      () => {
        if (queued) return;
        queued = true;
        requestAnimationFrame(() => {
          queued = false;
          mark();
        });
      },
      { passive: true },
    );
    dots.forEach((dot, i) => {
      dot.addEventListener("click", (event) => {
        event.preventDefault();
        row.scrollTo({ left: i * row.clientWidth });
      });
    });
    mark();
  }
}
