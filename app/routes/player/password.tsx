import { parseWithZod } from "@conform-to/zod/v4";
import { data, type ShouldRevalidateFunctionArgs } from "react-router";
import { useTranslation } from "react-i18next";
import { dataWithToast } from "remix-toast";
import { changePassword, setForcedPassword } from "@workers/services/players";
import { ForcedPasswordForm } from "~/components/forced-password";
import { ForcedPasswordSchema } from "~/lib/schemas/forced-password";
import { ChangePasswordForm } from "~/components/change-password";
import { translate, waitText } from "~/lib/i18n.server";
import { getAgency, getBindings, requirePlayer, sessionHashContext } from "~/lib/context.server";
import { errorMessageKey } from "~/lib/errors";
import { isSecureRequest } from "~/lib/secrets.server";
import { ChangePasswordSchema } from "~/lib/schemas/auth";
import { clearSessionCookie, clientOf } from "~/lib/session.server";
import { redirectWithSuccess, redirectWithToast, toastStorage } from "~/lib/toast.server";
import { submittedWithJavaScript } from "~/components/js-marker";
import type { I18nHandle } from "~/lib/i18n";
import { loadAsDocument, type ScriptsHandle } from "~/lib/page-scripts";
import type { Route } from "./+types/password";

/** Wrong current password: an error toast for 5000 ms (docs/product.md §8). */
export const PASSWORD_ERROR_TOAST_MS = 5000;

/**
 * A lite page (decisions 021, 034): no React in the browser. The change form posts as a
 * document (what it did without JavaScript: a refused change is answered with Post/Redirect/Get
 * and the error toast; a done one with the success panel); the forced form was a plain post
 * already. Both validate in the browser with their schemas (lib/lite/validate.ts), and the
 * "show passwords" switch is the public lite part. `forced`: staff reset the password; the
 * player sets a new one before anything else. The translation key groups it renders (decision 032).
 */
export const handle = {
  scripts: "lite",
  lite: ["validate"],
  i18n: ["forcedPassword", "errors.code", "limits.errors", "offers.errors", "reward.errors", "blocklist"],
} satisfies ScriptsHandle & I18nHandle;
export const clientLoader = loadAsDocument;

export function loader({ context }: Route.LoaderArgs) {
  return { forced: requirePlayer(context).mustChangePassword === true };
}

export async function action({ request, context }: Route.ActionArgs) {
  const player = requirePlayer(context);
  if (player.mustChangePassword) return forcedAction({ request, context });
  const submission = parseWithZod(await request.formData(), { schema: ChangePasswordSchema });
  const hide = ["currentPassword", "newPassword", "confirmNewPassword"];
  if (submission.status !== "success") {
    return data({ result: submission.reply({ hideFields: hide }), changed: false, wait: null }, { status: 400 });
  }
  const outcome = await changePassword(getBindings(context).DB, getAgency(context).id, player, submission.value, clientOf(request));
  if (!outcome.ok) {
    const wait = outcome.code === "TOO_MANY_ATTEMPTS" ? waitText(context, outcome.retryAfterSeconds) : null;
    const message = wait ? translate(context, "auth.tryAgainIn", { wait }) : translate(context, errorMessageKey("PASSWORD_INCORRECT"));
    if (!submittedWithJavaScript(submission.payload)) {
      // A plain form post: Post/Redirect/Get, so the toast shows on the page that follows.
      return redirectWithToast({ request, context }, "/player/password", {
        type: "error",
        message: translate(context, "toast.error"),
        description: message,
        duration: PASSWORD_ERROR_TOAST_MS,
      });
    }
    return dataWithToast(
      { result: submission.reply({ hideFields: hide }), changed: false, wait },
      {
        type: "error",
        message: translate(context, "toast.error"),
        description: message,
        duration: PASSWORD_ERROR_TOAST_MS,
      },
      { status: outcome.code === "TOO_MANY_ATTEMPTS" ? 429 : 400 },
      toastStorage(getBindings(context), isSecureRequest(request)),
    );
  }
  // Every session ended (this one too): the success dialog's Close leads to the login page.
  return data({ result: submission.reply({ resetForm: true }), changed: true, wait: null }, { headers: { "Set-Cookie": await clearSessionCookie(request) } });
}

/** After a staff reset: the new password (no current one asked); this session stays. */
async function forcedAction({ request, context }: Pick<Route.ActionArgs, "request" | "context">) {
  const player = requirePlayer(context);
  const submission = parseWithZod(await request.formData(), { schema: ForcedPasswordSchema });
  const hide = ["newPassword", "confirmNewPassword"];
  if (submission.status !== "success") {
    return data({ result: submission.reply({ hideFields: hide }), changed: false, wait: null }, { status: 400 });
  }
  const outcome = await setForcedPassword(
    getBindings(context).DB,
    getAgency(context).id,
    player,
    context.get(sessionHashContext) ?? "",
    submission.value.newPassword,
  );
  if (!outcome.ok && outcome.code === "SAME_PASSWORD") {
    return data({ result: submission.reply({ formErrors: ["forcedPassword.samePassword"], hideFields: hide }), changed: false, wait: null }, { status: 400 });
  }
  return redirectWithSuccess({ request, context }, "/player/deposit", translate(context, "forcedPassword.done"));
}

/** After a successful change the session is gone: keep the page (and its dialog) as it is. */
export function shouldRevalidate({ actionResult, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  return actionResult?.changed ? false : defaultShouldRevalidate;
}

export default function ChangePasswordPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  if (loaderData.forced) {
    return (
      <section className="page narrow">
        <title>{t("forcedPassword.title")}</title>
        <h1>{t("forcedPassword.title")}</h1>
        <ForcedPasswordForm result={actionData?.result} />
      </section>
    );
  }
  return (
    <section className="page narrow">
      <title>{t("password.title")}</title>
      <h1>{t("password.title")}</h1>
      <ChangePasswordForm serverResult={actionData} />
    </section>
  );
}
