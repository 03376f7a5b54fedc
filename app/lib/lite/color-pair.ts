import type { LiteContext } from "./context";
import { COLOR_PICKER, COLOR_TEXT } from "./hooks";

/**
 * The brand page's colours (routes/admin/brand.tsx, decision 018): each is a text field
 * (`#rrggbb`, what is posted and checked) and a colour picker in the same field box. Without
 * JavaScript the action reads the picker when the text was left as it was; with it each
 * follows the other as it changes, and while the text is not a colour yet the picker shows
 * the stored one (the picker's hook value).
 */
export function colorPairPart({ d }: LiteContext): void {
  for (const text of d.querySelectorAll<HTMLInputElement>(`input${COLOR_TEXT.selector}`)) {
    const picker = text.closest(".field")?.querySelector<HTMLInputElement>(`input${COLOR_PICKER.selector}`);
    if (!picker) continue;
    text.addEventListener("input", () => {
      picker.value = /^#[0-9a-fA-F]{6}$/.test(text.value) ? text.value.toLowerCase() : (picker.getAttribute(COLOR_PICKER.attribute) ?? picker.value);
    });
    picker.addEventListener("input", () => (text.value = picker.value));
  }
}
