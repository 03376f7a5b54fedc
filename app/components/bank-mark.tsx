/**
 * A Lao bank's mark: its colour and short name, drawn in HTML and CSS (app.css `.bank-mark`).
 * These used to be one SVG picture per bank (/banks/<code>.svg). Chromium builds a whole page
 * (frame, document loader, parser) for every SVG <img>: 10 to 100 ms of main thread per
 * picture on a phone, and the footer put six of them on every page (decision 037). A span
 * costs no request and no document.
 *
 * `label` names the bank for assistive technology where the mark stands alone (landing,
 * footer); without it the mark is decoration next to the bank's written name.
 */
export function BankMark({ code, size, label }: { code: string; size: 32 | 40 | 48; label?: string }) {
  return (
    <span
      className={`bank-mark bank-mark-${size} bank-${code.toLowerCase()}`}
      {...(label ? { role: "img", "aria-label": label } : { "aria-hidden": true })}
      data-bank={code}
    >
      {BANK_SHORT_NAMES[code] ?? code}
    </span>
  );
}

/** What fits on the mark where the bank's code is long. */
const BANK_SHORT_NAMES: Record<string, string> = { ACLEDA: "ACL", MJBL: "MJB" };
