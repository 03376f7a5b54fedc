import type { ReactNode } from "react";

/**
 * A wide table's box: it scrolls sideways on a phone, so it is a named region the keyboard can
 * focus to scroll it (WCAG 2.1.1; axe's scrollable-region-focusable, checked by the e2e tests).
 */
export function TableWrap({ label, children }: { label: string; children: ReactNode }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex lint/a11y/useSemanticElements: a scrolling region takes focus so the keyboard can scroll it; role="region" with its name is what axe asks of it
    <div className="table-wrap" tabIndex={0} role="region" aria-label={label}>
      {children}
    </div>
  );
}
