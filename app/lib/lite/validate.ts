import type { LiteContext } from "./context";
import { SCHEMA, SCHEMA_ARGS, VALIDATOR } from "./hooks";

/** What the validator module gives (lib/lite/form-validators.ts, its `validator`). */
export type FormValidator = {
  /** Errors by field name ("" = the form's own), `{}` when valid, null for an unknown schema; `args` makes a per-agency schema. */
  validate: (schema: string, formData: FormData, args?: string | null) => Record<string, string[]> | null;
  /** Interpolation values of the messages (AUTH_LIMITS, as ErrorList passes them). */
  vars: Record<string, string>;
  /** The deposit's credit for an amount typed in kip at a sell rate (scaled), formatted; null when none. */
  preview: (amount: string, sellScaled: string) => string | null;
};

/**
 * Client validation of a lite page's forms from the SAME zod schema as the action (decisions
 * 022 and 034). A form opts in with `data-validator` (the validator module's URL) and
 * `data-schema` (components/lite-form.tsx `useLiteValidation`).
 *
 * - The module (zod + the schemas + conform's parse) is imported on the first touch of the form
 *   (focus, pointer, input), never with the page. Until it is here nothing validates and a
 *   submit goes to the action (which validates with the same schema); fields left meanwhile are
 *   validated when it arrives.
 * - Leaving a field validates it; a field shown once (or answered with an error by the server)
 *   revalidates on every input. Like conform, each check parses the whole form and redraws
 *   every field already shown.
 * - A submit with errors is stopped and focuses the first field in error.
 * - Errors are drawn as ErrorList draws them: `<ul id="{form}-{name}-error" class="field-errors"
 *   role="list">` at the end of the field's box, `aria-invalid` and `aria-describedby` on the
 *   control (the fieldset of a radio group gets only `aria-describedby`, as in the React markup);
 *   the form's own errors in its `.form-alert`. Messages are translation keys, through ctx.t.
 */
export function liteValidate(ctx: LiteContext): void {
  for (const form of ctx.d.querySelectorAll<HTMLFormElement>(`form${VALIDATOR.selector}${SCHEMA.selector}`)) validateForm(ctx, form);
}

/**
 * One form's client validation, as above: also for a form that arrives after the page (the
 * change-password dialog's, lib/lite/password-dialog.ts), bound again each time it is replaced.
 */
export function validateForm(ctx: LiteContext, form: HTMLFormElement): void {
  const { d, t } = ctx;
  const schema = form.getAttribute(SCHEMA.attribute)!;
  const args = form.getAttribute(SCHEMA_ARGS.attribute);
  let validator: FormValidator | null = null;
  let loading: Promise<unknown> | null = null;
  const left = new Set<string>();
  const shown = new Set<string>();
  // The server's answer (the last post) counts as validated: those fields revalidate on input.
  const prefix = `${form.id}-`;
  for (const list of form.querySelectorAll<HTMLElement>(".field-errors[id]")) {
    const name = list.id.slice(prefix.length, -"-error".length);
    if (list.id.startsWith(prefix) && list.id.endsWith("-error") && name) shown.add(name);
  }

  const isField = (el: EventTarget | null): el is HTMLInputElement =>
    (el instanceof HTMLInputElement || el instanceof HTMLSelectElement || el instanceof HTMLTextAreaElement) &&
    !!el.name &&
    el.type !== "submit" &&
    el.type !== "hidden";

  const draw = (name: string, messages: string[]) => {
    const errorId = name ? `${prefix}${name}-error` : `${form.id}-error`;
    const old = d.getElementById(errorId);
    let box: Element | null;
    let described: Element | null = null;
    // the form's own errors: in its alert box, else where the server put them
    if (!name) box = form.querySelector(".form-alert") ?? old?.parentElement ?? null;
    else {
      const item = form.elements.namedItem(name);
      const first = item instanceof RadioNodeList ? (item[0] as Element | undefined) : item;
      if (!first) return;
      const radios = item instanceof RadioNodeList && (first as HTMLInputElement).type === "radio";
      box = radios ? first.closest("fieldset") : (first.closest(".field") ?? first.parentElement);
      described = radios ? box : first;
      if (!radios) {
        if (messages.length) first.setAttribute("aria-invalid", "true");
        // (another part's message on the field, the taken-name answer, keeps it invalid)
        else if (!first.closest(".field")?.querySelector(`.field-errors:not([id="${errorId}"])`)) first.removeAttribute("aria-invalid");
      }
    }
    if (!box) return;
    old?.remove();
    if (described) {
      const ids = (described.getAttribute("aria-describedby") ?? "").split(" ").filter((id) => id && id !== errorId);
      if (messages.length) ids.push(errorId);
      if (ids.length) described.setAttribute("aria-describedby", ids.join(" "));
      else described.removeAttribute("aria-describedby");
    }
    if (!messages.length) return;
    const list = d.createElement("ul");
    list.id = errorId;
    list.className = "field-errors";
    list.setAttribute("role", "list");
    for (const message of messages) {
      const li = d.createElement("li");
      li.textContent = t(message, validator?.vars);
      list.appendChild(li);
    }
    box.appendChild(list);
  };

  /** Parses the whole form; redraws every shown field. Returns the errors of visible fields. */
  const check = (submitter?: HTMLElement | null) => {
    const errors = validator!.validate(schema, new FormData(form, submitter), args) ?? {};
    for (const name of shown) draw(name, errors[name] ?? []);
    return errors;
  };
  // A redraw between the press and the release of a button (the field just left, or the
  // validator arriving) removes or adds messages above it: the button moves away under the
  // pointer and the click is lost (a player taps "submit" and nothing happens; seen in e2e).
  // While a press is under way the redraw waits until after its click; a submit checks anyway.
  let pressed = false;
  let due = false;
  const checkSoon = () => {
    if (pressed) due = true;
    else check();
  };
  form.addEventListener("pointerdown", () => (pressed = true), true);
  const released = () => {
    if (!pressed) return;
    // after the click this release makes (dispatched in the same task)
    setTimeout(() => {
      pressed = false;
      if (!due) return;
      due = false;
      check();
    }, 0);
  };
  // a touch that turns into a scroll ends with pointercancel, not pointerup
  for (const type of ["pointerup", "pointercancel"]) d.addEventListener(type, released, true);

  const load = () =>
    (loading ??= import(/* @vite-ignore */ form.getAttribute(VALIDATOR.attribute)!)
      .then((module: { validator: FormValidator }) => {
        validator = module.validator;
        if (!left.size) return;
        for (const name of left) shown.add(name);
        left.clear();
        checkSoon();
      })
      // the network dropped: the next touch tries again; a submit meanwhile goes to the server
      .catch(() => (loading = null)));
  for (const type of ["focusin", "pointerdown", "input"]) form.addEventListener(type, load, { passive: true });

  form.addEventListener("focusout", (e) => {
    if (!isField(e.target)) return;
    if (!validator) return void left.add(e.target.name);
    shown.add(e.target.name);
    checkSoon();
  });
  form.addEventListener("input", (e) => {
    if (validator && isField(e.target) && shown.has(e.target.name)) check();
  });
  form.addEventListener("submit", (e) => {
    if (!validator) return; // the action validates with the same schema
    const controls = [...form.elements].filter(isField);
    for (const control of controls) shown.add(control.name);
    shown.add("");
    const errors = check(e.submitter);
    const first = controls.find((control) => errors[control.name]?.length);
    if (!first) return;
    e.preventDefault();
    first.focus();
  });
}
