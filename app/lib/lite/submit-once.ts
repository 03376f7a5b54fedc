import type { LiteContext } from "./context";
import { SUBMIT_ONCE } from "./hooks";

/**
 * A form sent once (`form[data-submit-once]`: the reconciliation's notes, decision 089): once
 * it is on its way (a submit nothing stopped: not the validation, not the offline guard), its
 * submit buttons are disabled until the answer replaces the page, so a second tap on a slow
 * network does not post the same note twice. Coming back through the back/forward cache
 * enables them again.
 */
export function submitOncePart({ d }: LiteContext): void {
  const buttons = (root: Element) => root.querySelectorAll<HTMLButtonElement>('button[type="submit"]');
  d.addEventListener("submit", (event) => {
    const form = event.target;
    if (event.defaultPrevented || !(form instanceof HTMLFormElement) || !form.matches(SUBMIT_ONCE.selector)) return;
    // after this task: a button disabled now would leave its own name and value out of the post
    setTimeout(() => {
      for (const button of buttons(form)) button.disabled = true;
    }, 0);
  });
  window.addEventListener("pageshow", (event) => {
    if (!event.persisted) return;
    for (const form of d.querySelectorAll(`form${SUBMIT_ONCE.selector}`)) for (const button of buttons(form)) button.disabled = false;
  });
}
