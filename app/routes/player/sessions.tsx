import { Form } from "react-router";
import { useTranslation } from "react-i18next";
import { endOtherSessions, listSessions } from "@workers/services/players";
import { translate } from "~/lib/i18n.server";
import { getAgency, getBindings, requirePlayer, sessionHashContext } from "~/lib/context.server";
import { formatDateTime } from "~/lib/format";
import { deviceName, type DeviceName } from "@workers/core/device-name";
import { redirectWithSuccess } from "~/lib/toast.server";
import type { Route } from "./+types/sessions";
import { loadAsDocument, type ScriptsHandle } from "~/lib/page-scripts";
import type { I18nHandle } from "~/lib/i18n";

/** Active sessions of the player, with "log out my other devices" (ASVS 3.3.4). */
/** The translation key groups this page renders (decision 032). */
export const handle = { scripts: "lite", i18n: ["sessions", "deviceName"] } satisfies ScriptsHandle & I18nHandle;
/** No React in the browser (decision 034): a link from a page that hydrates loads it as a document. */
export const clientLoader = loadAsDocument;

export async function loader({ context }: Route.LoaderArgs) {
  const player = requirePlayer(context);
  const sessions = await listSessions(getBindings(context).DB, getAgency(context).id, player.id, context.get(sessionHashContext) ?? "");
  return {
    sessions: sessions.map((s) => ({
      // Only a short, non-secret prefix of the hash leaves the server, as a row key.
      key: s.idHash.slice(0, 12),
      createdAt: new Date(s.createdAt).toISOString(),
      lastSeenAt: new Date(s.lastSeenAt).toISOString(),
      // what the player recognises (the browser and the system), not the raw user-agent
      device: deviceName(s.userAgent),
      ip: s.ip,
      current: s.current,
    })),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const player = requirePlayer(context);
  const ended = await endOtherSessions(getBindings(context).DB, getAgency(context).id, player.id, context.get(sessionHashContext) ?? "");
  return redirectWithSuccess({ request, context }, "/player/sessions", translate(context, "sessions.ended", { count: ended }));
}

/** "Chrome on Android"; the system alone, the browser alone, or "unknown device" when the user-agent says less. */
function DeviceLabel({ browser, system }: DeviceName) {
  const { t } = useTranslation();
  if (browser && system) return t("deviceName.on", { browser, system });
  if (system) return t("deviceName.system", { system });
  return browser ?? t("deviceName.unknown");
}

export default function Sessions({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const others = loaderData.sessions.filter((s) => !s.current).length;
  return (
    <section className="page narrow">
      <title>{t("sessions.title")}</title>
      <h1>{t("sessions.title")}</h1>
      <ul className="card-list" role="list" data-testid="sessions">
        {loaderData.sessions.map((s) => (
          <li key={s.key} className="card" data-current={s.current ? "true" : undefined}>
            <p className="card-title">{s.current ? t("sessions.thisDevice") : t("sessions.otherDevice")}</p>
            <p className="muted" data-testid="session-device">
              <DeviceLabel {...s.device} />
            </p>
            <p className="muted">
              {t("sessions.signedIn")}: {formatDateTime(s.createdAt)} · {t("sessions.lastSeen")}: {formatDateTime(s.lastSeenAt)}
            </p>
          </li>
        ))}
      </ul>
      <Form method="post">
        <button type="submit" className="button button-primary" disabled={others === 0} data-testid="end-others">
          {t("sessions.endOthers")}
        </button>
      </Form>
    </section>
  );
}
