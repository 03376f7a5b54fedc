import { nextPollDelay } from "../offline";
import type { LiteContext } from "./context";
import type { FormValidator } from "./validate";
import {
  COUNTDOWN,
  CREDIT_PREVIEW,
  CREDIT_RATE,
  PLAY_NOW,
  POLL_MS,
  QR_POLL_STEP,
  QR_STATUS,
  QUICK_AMOUNT,
  SCHEMA,
  SCHEMA_ARGS,
  SELECT_ON_FOCUS,
  VALIDATOR,
} from "./hooks";

/*
 * The deposit page's lite parts (decision 034): what routes/player/deposit.tsx's React
 * version did in the browser. Each looks for its markup (rendered by the route on the server)
 * and does nothing without it.
 */

/**
 * QR status polling (decision 028), the rules of the React useDepositStatus: asks the
 * JSON API for the player's latest orders, first after 3 s, then less and less often (up to
 * every 15 s); not while the page is hidden or the browser offline, and at once when it comes
 * back. Paid: says so and keeps looking until the credit landed; then (or when the order expired
 * or was cancelled elsewhere) the page is loaded again (a GET of the same address: the layout
 * announces the deposit, the credits are fresh). Markup: `[data-qr-poll]` on the QR step
 * (order code, min and max delay) and its `[data-testid=qr-status]`, rendered hidden. Once
 * paid, the hidden "play now" link to the provider's lobby shows beside it (decision 080).
 */
export function liteDepositStatus(ctx: LiteContext): void {
  const { d, t } = ctx;
  const step = d.querySelector<HTMLElement>(QR_POLL_STEP.selector);
  const box = step?.querySelector<HTMLElement>(QR_STATUS.selector);
  const playNow = step?.querySelector<HTMLElement>(PLAY_NOW.selector);
  if (!step || !box) return;
  const next = nextPollDelay;
  const code = step.getAttribute(QR_POLL_STEP.attribute)!;
  const [min, max] = (step.getAttribute(POLL_MS.attribute) ?? "3000,15000").split(",").map(Number) as [number, number];
  let timer: ReturnType<typeof setTimeout> | undefined;
  let delay: number | null = null;
  let paid = false;
  let done = false;
  const show = (status: "waiting" | "paid" | "offline") => {
    box.hidden = false;
    box.dataset.status = status;
    box.classList.toggle("notice-success", status === "paid");
    box.textContent = t(status === "paid" ? "deposit.paidCrediting" : status === "offline" ? "offline.paused" : "offline.waiting");
    if (playNow && playNow.hidden === paid) {
      playNow.hidden = !paid;
      // back from the bank app, the player sees "paid" and "play now" without looking for them
      if (paid) box.scrollIntoView({ block: "center" });
    }
  };
  const schedule = (now = false) => {
    clearTimeout(timer);
    if (done) return;
    if (!navigator.onLine) return show("offline");
    show(paid ? "paid" : "waiting");
    if (d.hidden) return;
    delay = now ? null : next(delay, min, max);
    timer = setTimeout(check, delay ?? 0);
  };
  const check = async () => {
    try {
      const res = await fetch("/api/v2/players/deposits?page=1&pageSize=3", { headers: { Accept: "application/json" } });
      if (res.ok) {
        const { items } = (await res.json()) as { items: { code: string; status: string }[] };
        const state = items.find((o) => o.code === code)?.status;
        if (state === "PAID" && !paid) {
          paid = true;
          delay = null; // money on its way: look again soon
        } else if (state !== "OPEN" && state !== "PAID") {
          done = true;
          // a GET of the page (never a re-post of the form that showed this step)
          location.replace(location.pathname);
          return;
        }
      }
    } catch {
      // the network dropped between two checks: the next one (or "online") tries again
    }
    schedule();
  };
  const resume = () => schedule(true);
  addEventListener("online", resume);
  addEventListener("offline", resume);
  d.addEventListener("visibilitychange", () => (d.hidden ? clearTimeout(timer) : resume()));
  schedule();
}

/** Minutes and seconds left, ticking (the expiry time beside it works without JavaScript). */
export function liteCountdown(ctx: LiteContext): void {
  const { d, t } = ctx;
  for (const span of d.querySelectorAll<HTMLElement>(COUNTDOWN.selector)) {
    const until = Date.parse(span.getAttribute(COUNTDOWN.attribute)!);
    const tick = () => {
      const left = Math.max(0, Math.floor((until - Date.now()) / 1000));
      span.textContent = `(${t("deposit.timeLeft", { time: `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}` })})`;
    };
    tick();
    span.hidden = false;
    setInterval(tick, 1000);
  }
}

/** The QR payload is selected whole when focused (the copy button is the shared `copy` part, lib/lite/copy.ts). */
export function liteSelectOnFocus(ctx: LiteContext): void {
  for (const field of ctx.d.querySelectorAll<HTMLTextAreaElement>(`textarea${SELECT_ON_FOCUS.selector}`)) field.addEventListener("focus", () => field.select());
}

/**
 * "You get ... credit" under the amount, as the player types. Computed by the validator module's
 * `preview` (lib/lite/form-validators.ts), i.e. workers/core/money's bigint math itself, loaded with
 * the schema on the first touch of the form (the first keystroke comes after it: a focus).
 * Markup: the amount input's `data-credit-rate` (the sell rate, scaled) and the hidden
 * `[data-testid=deposit-credit-preview]` in the same field. Hidden while the form's schema
 * finds the amount wrong (below the minimum, not a number...): a quote beside a red error
 * would contradict it.
 */
export function liteCreditPreview(ctx: LiteContext): void {
  const { d, t } = ctx;
  const input = d.querySelector<HTMLInputElement>(`input${CREDIT_RATE.selector}`);
  const out = input?.closest(".field")?.querySelector<HTMLElement>(CREDIT_PREVIEW.selector);
  const form = input?.form;
  const url = form?.getAttribute(VALIDATOR.attribute);
  if (!input || !form || !out || !url) return;
  let validator: FormValidator | null = null;
  const update = () => {
    const wrong = validator?.validate(form.getAttribute(SCHEMA.attribute) ?? "", new FormData(form), form.getAttribute(SCHEMA_ARGS.attribute))?.[input.name];
    const credit = wrong ? null : (validator?.preview(input.value, input.getAttribute(CREDIT_RATE.attribute)!) ?? null);
    out.hidden = credit === null;
    out.textContent = credit === null ? "" : t("deposit.youGet", { credit });
  };
  input.addEventListener("input", update);
  const load = () =>
    import(/* @vite-ignore */ url)
      .then((module: { validator: FormValidator }) => {
        validator = module.validator;
        update();
      })
      .catch(() => form.addEventListener("focusin", load, { once: true }));
  form.addEventListener("focusin", load, { once: true });
}

/**
 * Quick amounts (decision 080): without JavaScript each button submits the form by GET and the
 * page comes back with the amount filled in (and the provider and channel kept); with it, a tap
 * fills the field in place, as typing would (the validation and the quote follow its `input`).
 */
export function liteQuickAmount({ d }: LiteContext): void {
  for (const button of d.querySelectorAll<HTMLButtonElement>(`button${QUICK_AMOUNT.selector}`)) {
    const input = button.form?.elements.namedItem("amount");
    if (!(input instanceof HTMLInputElement)) continue;
    button.addEventListener("click", (event) => {
      event.preventDefault();
      input.value = button.getAttribute(QUICK_AMOUNT.attribute)!;
      input.dispatchEvent(new Event("input", { bubbles: true }));
    });
  }
}
