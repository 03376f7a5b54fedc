import type { LitePartName } from "./parts";

/**
 * The markup hooks of the lite pages' script (decision 066): every attribute a part looks
 * for, declared once. The TSX that renders the markup spreads a hook's `props`; the part
 * queries its `selector`. `PART_MARKUP` says which hooks a part cannot work without, and
 * tests/integration/lite-markup.test.ts fails when a page that runs a part lacks them (before,
 * the two sides agreed only through strings typed twice, and a part did nothing when its
 * markup changed).
 */
type DataAttribute = `data-${string}`;

/** A hook: the attribute (with its value for a test id) and the selector a part queries. */
export type Hook = { attribute: DataAttribute; value?: string; selector: string };

/** A hook by attribute, any value. */
function attribute<A extends DataAttribute>(name: A) {
  return { attribute: name, selector: `[${name}]` };
}

/** A hook by test id. */
function testId<V extends string>(value: V) {
  return { attribute: "data-testid" as const, value, selector: `[data-testid="${value}"]` };
}

/**
 * The props that put a hook on an element, for the TSX: `{...hookProps(COPY, text)}`,
 * `{...hookProps(TOAST)}`. Not on the hook itself: a part's bundle then carries only the
 * selectors it queries.
 */
export function hookProps<A extends DataAttribute>(hook: { attribute: A; value?: string }, value: string | number = ""): { [K in A]: string } {
  return { [hook.attribute]: hook.value ?? String(value) } as { [K in A]: string };
}

// Each hook its own constant (marked pure): a part's bundle carries only the hooks it imports.
// every lite page (root and layout)
export const TOAST = /* @__PURE__ */ testId("toast");
export const TOAST_DURATION = /* @__PURE__ */ attribute("data-duration");
export const SCROLL_TOP = /* @__PURE__ */ testId("scroll-top");
export const PENDING = /* @__PURE__ */ testId("pending");
export const OFFLINE_ALERT = /* @__PURE__ */ attribute("data-offline-alert");
export const DISCLOSURE = /* @__PURE__ */ attribute("data-disclosure");
export const DRAWER_CLOSE = /* @__PURE__ */ testId("drawer-close");
export const USERNAME_CHECK = /* @__PURE__ */ attribute("data-availability");
// the messages of the username check, on the registration form (the script has no translations of its own)
export const USERNAME_AVAILABLE = /* @__PURE__ */ attribute("data-username-available");
export const USERNAME_TAKEN = /* @__PURE__ */ attribute("data-username-taken");
// on <html>: this build's version for the service worker (decision 028), and the page's language
export const BUILD_VERSION = /* @__PURE__ */ attribute("data-sw");
export const LOCALE = /* @__PURE__ */ attribute("data-locale");
export const CREDITS = /* @__PURE__ */ testId("credits");
// the header's credit (decision 081): its value is the providers the live figure is made of
export const CREDIT_CHIP = /* @__PURE__ */ attribute("data-credit-chip");
export const CHIP_AMOUNT = /* @__PURE__ */ attribute("data-chip-amount");
export const CHIP_UNKNOWN = /* @__PURE__ */ attribute("data-chip-unknown");
// the settlement notices of the player layout, carried over when the credits refresh
export const DEPOSIT_SUCCESS = /* @__PURE__ */ testId("deposit-success");
export const WITHDRAW_NOTICE = /* @__PURE__ */ testId("withdraw-notice");
export const TIME_PLAYED = /* @__PURE__ */ testId("time-played");
export const PLAYED_MS = /* @__PURE__ */ attribute("data-played-ms");
export const LIMIT_MINUTES = /* @__PURE__ */ attribute("data-limit-minutes");
// the change-password dialog (decision 052)
export const CHANGE_PASSWORD_LINK = /* @__PURE__ */ testId("change-password-link");
export const PASSWORD_DIALOG = /* @__PURE__ */ attribute("data-password-dialog");
export const DIALOG_BODY = /* @__PURE__ */ attribute("data-dialog-body");
export const DIALOG_ALERT = /* @__PURE__ */ attribute("data-dialog-alert");
export const DIALOG_CLOSE = /* @__PURE__ */ attribute("data-dialog-close");
// what the dialog takes from the password page it fetches
export const PASSWORD_FORM = /* @__PURE__ */ testId("password-form");
export const PASSWORD_CHANGED = /* @__PURE__ */ testId("password-changed");
// the money forms (decision 034)
export const VALIDATOR = /* @__PURE__ */ attribute("data-validator");
export const SCHEMA = /* @__PURE__ */ attribute("data-schema");
// what a schema made per agency is made from (the deposit's or the withdraw's limits), beside its name
export const SCHEMA_ARGS = /* @__PURE__ */ attribute("data-schema-args");
export const CREDIT_RATE = /* @__PURE__ */ attribute("data-credit-rate");
export const CREDIT_PREVIEW = /* @__PURE__ */ testId("deposit-credit-preview");
export const QR_POLL_STEP = /* @__PURE__ */ attribute("data-qr-poll");
export const POLL_MS = /* @__PURE__ */ attribute("data-poll-ms");
export const QR_STATUS = /* @__PURE__ */ testId("qr-status");
export const COUNTDOWN = /* @__PURE__ */ attribute("data-countdown");
export const SELECT_ON_FOCUS = /* @__PURE__ */ attribute("data-select-on-focus");
export const COPY = /* @__PURE__ */ attribute("data-copy");
export const COPIED = /* @__PURE__ */ attribute("data-copied");
// the deposit page's "Save QR" link (its value: the share sheet's title), quick amounts and "play now" (decision 080)
export const SAVE_QR = /* @__PURE__ */ attribute("data-save-qr");
export const QUICK_AMOUNT = /* @__PURE__ */ attribute("data-quick-amount");
export const PLAY_NOW = /* @__PURE__ */ testId("play-now");
// the back office (decision 089): a report chart (its kind) and the tooltip its part draws,
// the brand's colour text and picker (the picker's value: the stored colour), a form sent once
export const CHART = /* @__PURE__ */ attribute("data-chart");
export const CHART_TIP = /* @__PURE__ */ testId("chart-tip");
export const COLOR_TEXT = /* @__PURE__ */ attribute("data-color-text");
export const COLOR_PICKER = /* @__PURE__ */ attribute("data-color-picker");
export const SUBMIT_ONCE = /* @__PURE__ */ attribute("data-submit-once");
// the landing's banner carousel (decision 082): its row of slides and its dots
export const CAROUSEL = /* @__PURE__ */ attribute("data-carousel");
export const CAROUSEL_DOT = /* @__PURE__ */ attribute("data-carousel-dot");

/**
 * What each part cannot work without, where the page runs it. Parts that every lite page
 * runs and whose markup comes and goes with the state (a toast, the time played) list
 * nothing; the layout's and the money forms' parts list what their page always renders.
 */
export const PART_MARKUP: Record<LitePartName, readonly Hook[]> = {
  public: [SCROLL_TOP, OFFLINE_ALERT],
  fingerprint: [],
  menus: [DISCLOSURE],
  credits: [],
  creditChip: [CREDIT_CHIP, CHIP_AMOUNT],
  playTime: [],
  copy: [COPY, COPIED],
  validate: [VALIDATOR, SCHEMA],
  creditPreview: [CREDIT_RATE, CREDIT_PREVIEW],
  depositStatus: [QR_POLL_STEP, POLL_MS, QR_STATUS, PLAY_NOW],
  countdown: [COUNTDOWN],
  selectOnFocus: [SELECT_ON_FOCUS],
  saveQr: [SAVE_QR],
  quickAmount: [QUICK_AMOUNT],
  passwordDialog: [CHANGE_PASSWORD_LINK, PASSWORD_DIALOG, DIALOG_BODY, DIALOG_ALERT, DIALOG_CLOSE],
  pending: [PENDING],
  // the dots come only with a second slide (a promotion with a banner)
  carousel: [CAROUSEL],
  // (the tooltip is the part's own element)
  chartTips: [CHART],
  colorPair: [COLOR_TEXT, COLOR_PICKER],
  submitOnce: [SUBMIT_ONCE],
};

/** Whether an HTML page carries a hook (its attribute, with its value for a test id). */
export function pageHasHook(markup: string, hook: Hook): boolean {
  return hook.value === undefined ? new RegExp(`\\s${hook.attribute}(=|\\s|>|/)`).test(markup) : markup.includes(`${hook.attribute}="${hook.value}"`);
}
