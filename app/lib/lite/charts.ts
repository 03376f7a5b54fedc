import type { LiteContext } from "./context";
import { CHART, CHART_TIP } from "./hooks";

/**
 * The report charts' tooltips (components/charts.tsx, decision 059; a part since decision 089):
 * the chart is drawn by the server, and every bar or point carries its `<title>` (the
 * browser's own hover text, and all there is without JavaScript). Here a pointer over a mark
 * shows that text in a small box above it; a touch has no hover, so a tapped mark's box stays
 * until another mark or the chart beside the marks is tapped. The box is kept within the
 * chart's middle 60 % (at most 40 % wide, reports.css): it never overflows a phone's screen.
 */
export function chartTipsPart({ d }: LiteContext): void {
  for (const frame of d.querySelectorAll<HTMLElement>(`${CHART.selector} .chart-frame`)) {
    let tip: HTMLElement | null = null;
    const markOf = (target: EventTarget | null) => (target instanceof Element ? target.closest(".chart-mark") : null);
    const hide = () => {
      tip?.remove();
      tip = null;
    };
    frame.addEventListener("pointerover", (event) => {
      const mark = markOf(event.target);
      if (!mark) return;
      if (!tip) {
        tip = d.createElement("div");
        tip.className = "chart-tip";
        tip.setAttribute("aria-hidden", "true"); // the figures are in the table beside the chart
        tip.setAttribute(CHART_TIP.attribute, CHART_TIP.value);
        frame.appendChild(tip);
      }
      const box = frame.getBoundingClientRect();
      const at = mark.getBoundingClientRect();
      tip.textContent = mark.querySelector("title")?.textContent ?? "";
      tip.style.left = `${Math.min(Math.max(at.left + at.width / 2 - box.left, box.width * 0.2), box.width * 0.8)}px`;
      tip.style.top = `${at.top - box.top}px`;
    });
    frame.addEventListener("pointerout", (event) => {
      if (event.pointerType !== "touch" && markOf(event.target)) hide();
    });
    frame.addEventListener("click", (event) => {
      if (!markOf(event.target)) hide();
    });
  }
}
