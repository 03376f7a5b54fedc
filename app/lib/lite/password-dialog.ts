import type { LiteContext } from "./context";
import type { FormValidatorModule } from "./form-validators";
import {
  CHANGE_PASSWORD_LINK,
  DIALOG_ALERT,
  DIALOG_BODY,
  DIALOG_CLOSE,
  OFFLINE_ALERT,
  VALIDATOR,
  PASSWORD_CHANGED,
  PASSWORD_DIALOG,
  PASSWORD_FORM,
  TOAST,
} from "./hooks";

/**
 * "Change password" in the player menu opens a dialog over the current page (docs/product.md §2,
 * decision 052); without JavaScript the entry stays the link to /player/password.
 *
 * The root renders the dialog's shell on a lite page (components/layout.tsx
 * `PasswordDialogShell`: a closed native `<dialog>` with its title, Close button and alert);
 * the form is not in the page (no first-load byte): on a click the shell opens at once and
 * the /player/password page is fetched whole (`X-Whole-Document`), its form moved in. The form
 * posts with fetch, as the browser would post it without JavaScript, and the page the server
 * answers with decides what the dialog shows, in the player's language:
 * - the form again, with the server's field errors (400): it replaces the dialog's form;
 * - the same page after Post/Redirect/Get with the error toast (wrong current password, too
 *   many attempts): the toast's words go into the dialog's alert (the fetch took the toast,
 *   so it never shows on a later page), with a fresh form;
 * - the success panel (every session ended): it replaces the form; closing the dialog then
 *   leads where the panel's Close link does (the login page).
 * Anything else (the login page for a session that ended, the forced-password form, no
 * network to open it with) is the page itself: the browser goes there.
 *
 * Escape and the Close button close it; focus goes into it (the first field once the form is
 * there) and back to the menu item, whose menu is opened again. The "show passwords" switch
 * works as the public part's does on a page. The form validates in the browser with its schema
 * as on the page (lib/lite/validate.ts, bound to each form moved in, from the validator module): a mismatch shows as soon
 * as the confirmation is left, and a field the server's answer marked clears once corrected.
 */
export function litePasswordDialog(ctx: LiteContext): void {
  const { d } = ctx;
  const link = d.querySelector<HTMLAnchorElement>(`a${CHANGE_PASSWORD_LINK.selector}`);
  const dialog = d.querySelector<HTMLDialogElement>(`dialog${PASSWORD_DIALOG.selector}`);
  // on the password page itself the form is the page
  if (!link || !dialog || typeof dialog.showModal !== "function" || location.pathname === link.pathname) return;
  const body = dialog.querySelector<HTMLElement>(DIALOG_BODY.selector)!;
  const alert = dialog.querySelector<HTMLElement>(DIALOG_ALERT.selector)!;
  const closeButton = dialog.querySelector<HTMLButtonElement>(DIALOG_CLOSE.selector)!;
  const menu = link.closest("details");
  /** Where closing leads once the password changed (the success panel's Close link). */
  let leaveTo: string | null = null;
  let busy = false;

  const notSent = () => d.querySelector(OFFLINE_ALERT.selector)?.textContent ?? "";
  const load = async (init?: RequestInit): Promise<Document | null> => {
    const res = await fetch(link.href, { ...init, credentials: "same-origin", headers: { "X-Whole-Document": "1" } });
    if (new URL(res.url).pathname !== link.pathname) {
      location.assign(res.url);
      return null;
    }
    return new DOMParser().parseFromString(await res.text(), "text/html");
  };

  const show = (page: Document) => {
    const done = page.querySelector(PASSWORD_CHANGED.selector);
    const answer = done ?? page.querySelector(`form${PASSWORD_FORM.selector}`);
    if (!answer) return location.assign(link.href);
    const toast = page.querySelector(`${TOAST.selector}.toast-error`);
    alert.textContent = toast ? ((toast.querySelector(".toast-description") ?? toast).textContent ?? "") : "";
    const node = d.importNode(answer, true) as HTMLElement;
    body.replaceChildren(node);
    body.removeAttribute("aria-busy");
    if (done) {
      leaveTo = node.querySelector("a")?.getAttribute("href") ?? "/login";
      if (!dialog.open) return location.assign(leaveTo);
      node.querySelector<HTMLElement>("a")?.focus();
      return;
    }
    // the binding comes with the validator module (zod and the schemas), fetched when a form
    // arrives: a dialog most pages never open does not carry it in every page's script
    if (node instanceof HTMLFormElement && node.matches(VALIDATOR.selector))
      import(/* @vite-ignore */ node.getAttribute(VALIDATOR.attribute)!)
        .then((module: FormValidatorModule) => module.validateForm(ctx, node))
        // the network dropped: the server's answer still shows every error
        .catch(() => {});
    const toggle = node.querySelector<HTMLInputElement>(".password-toggle input");
    const fields = [...node.querySelectorAll<HTMLInputElement>('input[type="password"]')];
    toggle?.addEventListener("change", () => {
      for (const f of fields) f.type = toggle.checked ? "text" : "password";
    });
    const first = node.querySelector<HTMLElement>('[aria-invalid="true"]') ?? fields[0];
    if (d.activeElement === closeButton || !dialog.contains(d.activeElement) || alert.textContent) first?.focus();
  };

  link.addEventListener("click", (event) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    alert.textContent = "";
    body.replaceChildren();
    body.setAttribute("aria-busy", "true");
    dialog.showModal();
    load().then(
      (page) => page && dialog.open && show(page),
      () => location.assign(link.href),
    );
  });

  closeButton.addEventListener("click", () => dialog.close());
  dialog.addEventListener("close", () => {
    if (leaveTo) return location.assign(leaveTo);
    // (a choice in the menu or a click outside it closed the menu meanwhile)
    if (menu) menu.open = true;
    link.focus();
  });

  // Bubbling at the dialog: after the offline guard (public part, capture on window) and the
  // form's validation (at the form), before the pending part (on the document). A submit one of
  // them stopped posts nothing; the offline one says so here.
  dialog.addEventListener("submit", (event) => {
    const form = event.target as HTMLFormElement;
    if (event.defaultPrevented) {
      if (!navigator.onLine) alert.textContent = notSent();
      return;
    }
    event.preventDefault();
    if (busy) return;
    busy = true;
    const submit = form.querySelector<HTMLButtonElement>('button[type="submit"]');
    if (submit) submit.disabled = true;
    form.setAttribute("aria-busy", "true");
    const fields = new URLSearchParams();
    for (const [name, value] of new FormData(form)) if (typeof value === "string") fields.append(name, value);
    load({ method: "POST", body: fields })
      .then((page) => page && show(page))
      .catch(() => (alert.textContent = notSent()))
      .finally(() => {
        busy = false;
        if (submit) submit.disabled = false;
        form.removeAttribute("aria-busy");
      });
  });
}
