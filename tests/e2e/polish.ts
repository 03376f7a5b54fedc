/**
 * Page checks of the polish rules (docs/decisions/083-polish-rules.md), evaluated in the page:
 * plain functions Playwright serialises (no closure over this module), so they also run with
 * JavaScript off (Playwright evaluates in its own world).
 */

/**
 * Line breaks inside a word. For each visible text node, the line boxes of its grapheme
 * clusters say where a line wraps (a cluster whose box starts below the previous one's middle);
 * the wrap's offset must be a word boundary of `Intl.Segmenter(lang, { granularity: "word" })`
 * (Lao is written without spaces: the segmenter's dictionary finds its words, as Chromium's line
 * breaker does when CSS lets it). A string of no Lao letters wider than any line of the page (a
 * long number or reference) may break anywhere: it is left out; a Lao word never is. Returns "ເຄຣ/ດິດ"-like strings, the break marked with "/".
 */
export function breaksInsideWords(lang: string): string[] {
  const found: string[] = [];
  const words = new Intl.Segmenter(lang, { granularity: "word" });
  const clusters = new Intl.Segmenter(lang, { granularity: "grapheme" });
  const range = document.createRange();
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  // the widest line the page's text has: the screen less the page's padding
  const pageLine = document.documentElement.clientWidth - 32;
  const widthOf = (node: Text, from: number, to: number) => {
    range.setStart(node, from);
    range.setEnd(node, to);
    return [...range.getClientRects()].reduce((sum, rect) => sum + rect.width, 0);
  };
  for (let node = walker.nextNode() as Text | null; node; node = walker.nextNode() as Text | null) {
    const text = node.data;
    const parent = node.parentElement;
    if (!parent || !/\p{L}/u.test(text) || parent.closest("script, style, .sr-only, [hidden]")) continue;
    let previous: DOMRect | null = null;
    for (const { segment, index } of clusters.segment(text)) {
      if (/^\s+$/.test(segment)) continue;
      range.setStart(node, index);
      range.setEnd(node, index + segment.length);
      const box = range.getClientRects()[0];
      if (!box || (box.width === 0 && box.height === 0)) continue;
      const wrapped = previous !== null && box.top > previous.top + previous.height / 2;
      previous = box;
      if (!wrapped || /\s/.test(text[index - 1] ?? " ")) continue;
      const word = [...words.segment(text)].find((w) => w.index < index && index < w.index + w.segment.length);
      if (!word) continue; // a boundary: the break is between words
      // a string no line of the page could hold (a long number or reference, not a word) may break
      if (widthOf(node, word.index, word.index + word.segment.length) > pageLine && !/\p{Script=Lao}/u.test(word.segment)) continue;
      found.push(`${word.segment.slice(0, index - word.index)}/${word.segment.slice(index - word.index)}`);
    }
  }
  return found;
}

/**
 * Touch targets smaller than the rule (WCAG 2.2, 2.5.5 and 2.5.8): a control that stands on
 * its own (a link, button, menu summary, select or field; a checkbox's label) is at least 44 px
 * tall; a link inside a sentence is as tall as the sentence's line, which is at least 24 px.
 * Hidden controls (no box, screen-reader only, aria-hidden, a closed menu) are left out.
 */
export function smallTargets(): string[] {
  const found: string[] = [];
  const selector = [
    "a[href]",
    "button",
    "summary",
    "select",
    "input:not([type=hidden]):not([type=checkbox]):not([type=radio])",
    "label:has(> input[type=checkbox])",
    "label:has(> input[type=radio])",
  ].join(", ");
  for (const el of document.querySelectorAll<HTMLElement>(selector)) {
    const box = el.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) continue;
    if (el.closest('[aria-hidden="true"], .sr-only, .honeypot, .skip-link')) continue;
    // inside a closed menu (its summary is the target until it opens)
    const menu = el.closest("details");
    if (menu && !menu.open && !el.closest("summary")) continue;
    const style = getComputedStyle(el);
    if (style.visibility === "hidden") continue;
    const name = `${el.tagName.toLowerCase()} "${(el.textContent?.trim() || el.getAttribute("aria-label") || el.className).slice(0, 30)}"`;
    const sentence = el.parentElement?.textContent?.trim() ?? "";
    const inline = style.display === "inline" && sentence !== (el.textContent ?? "").trim();
    if (inline) {
      const lineHeight = Number.parseFloat(style.lineHeight) || Number.parseFloat(style.fontSize) * 1.2;
      if (lineHeight < 24) found.push(`${name} in a sentence: line ${Math.round(lineHeight)} px`);
    } else if (box.height < 44 - 0.5) found.push(`${name}: ${Math.round(box.height)} px tall`);
  }
  return found;
}

/**
 * Dates shown in the ISO form ("2026-12-02T08:00", "2026-12-02 08:00", "2026-11-23") instead of
 * DD/MM/YYYY HH:mm:ss (docs/product.md, app/lib/format.ts formatDateTime) in the visible text.
 */
export function isoDatesShown(): string[] {
  return [...document.body.innerText.matchAll(/\b\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2})?)?/g)].map((m) => m[0]);
}
