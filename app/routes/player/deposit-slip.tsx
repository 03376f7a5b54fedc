import { parseWithZod } from "@conform-to/zod/v4";
import { data, Link } from "react-router";
import { useTranslation } from "react-i18next";
import { MAX_QR_IMAGE_BYTES } from "@workers/services/agency";
import { addDepositSlip, depositSlipPage, type SlipError } from "@workers/services/deposits";
import { SlipForm } from "~/components/deposit-slip";
import { StatusBadge } from "~/components/money";
import { getAgency, getBindings, requirePlayer } from "~/lib/context.server";
import { formatDateTime, formatMoney } from "~/lib/format";
import { translate } from "~/lib/i18n.server";
import type { I18nHandle } from "~/lib/i18n";
import { loadAsDocument, type ScriptsHandle } from "~/lib/page-scripts";
import { depositSlipSchema } from "~/lib/schemas/deposit-slip";
import { redirectWithSuccess } from "~/lib/toast.server";
import type { Route } from "./+types/deposit-slip";

/**
 * The bank's transfer slip of one deposit order (decision 087), a lite page: the player who paid
 * and sees no credit adds the slip's picture (a screenshot or the camera; a plain multipart file
 * upload, the same with JavaScript off and on). The server reads its OneProof QR; the slip is
 * the player's claim, put before the cashier, never a credit by itself. The deposit page's QR
 * step and the deposit history post here too.
 */
export const handle = { scripts: "lite", i18n: ["depositSlip", "history", "status"] } satisfies ScriptsHandle & I18nHandle;
export const clientLoader = loadAsDocument;

/** The multipart envelope around a picture of the maximum size. */
const MAX_BODY_BYTES = MAX_QR_IMAGE_BYTES + 64 * 1024;

export async function loader({ params, context }: Route.LoaderArgs) {
  const player = requirePlayer(context);
  const page = await depositSlipPage(getBindings(context), getAgency(context).id, player.id, params.code);
  if (!page) throw new Response("Not found", { status: 404 });
  return { ...page, maxMb: MAX_QR_IMAGE_BYTES / 1024 / 1024 };
}

type ActionData = { error: SlipError };

export async function action({ request, params, context }: Route.ActionArgs) {
  const player = requirePlayer(context);
  // a body over the limit is refused before it is read (nothing stored)
  if (Number(request.headers.get("Content-Length") ?? "0") > MAX_BODY_BYTES) return data<ActionData>({ error: "SLIP_TOO_LARGE" }, { status: 413 });
  const submission = parseWithZod(await request.formData(), { schema: depositSlipSchema });
  if (submission.status !== "success") return data<ActionData>({ error: "SLIP_REQUIRED" }, { status: 400 });
  const picture = new Uint8Array(await submission.value.slip.arrayBuffer());
  const added = await addDepositSlip(getBindings(context), getAgency(context).id, player, params.code, picture);
  if (!added.ok) return data<ActionData>({ error: added.error }, { status: added.error === "SLIP_TOO_LARGE" ? 413 : 400 });
  return redirectWithSuccess({ request, context }, `/player/deposit/${encodeURIComponent(params.code)}/slip`, translate(context, "depositSlip.received"));
}

export default function DepositSlip({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { order, slips, canAdd, maxMb } = loaderData;
  return (
    <section className="page narrow">
      <title>{t("depositSlip.title")}</title>
      <h1>{t("depositSlip.title")}</h1>
      <dl className="facts card" data-testid="slip-order">
        <dt>{t("history.code")}</dt>
        <dd>{order.code}</dd>
        <dt>{t("history.amount")}</dt>
        <dd>{formatMoney(order.payAmount ?? order.amount, "LAK")}</dd>
        <dt>{t("history.dateTime")}</dt>
        <dd>{formatDateTime(order.createdAt)}</dd>
        <dt>{t("history.status")}</dt>
        <dd>{order.expired ? t("depositSlip.expired") : <StatusBadge status={order.status} />}</dd>
      </dl>
      {slips.length > 0 && (
        <ul className="card-list" role="list" data-testid="slips">
          {slips.map((s) => (
            <li key={s.id} className="card" data-state={s.state}>
              <p className="card-title" role="status">
                {t(`depositSlip.state.${s.state}`)}
              </p>
              <p className="muted">
                {t("depositSlip.reference", { reference: s.reference })} · {formatDateTime(s.receivedAt)}
              </p>
            </li>
          ))}
        </ul>
      )}
      {canAdd ? (
        <SlipForm code={order.code} maxMb={maxMb} error={actionData?.error ?? null} />
      ) : (
        slips.length === 0 && <p className="notice">{t("depositSlip.closed")}</p>
      )}
      <p>
        <Link to="/player/deposit/history">{t("menu.depositHistory")}</Link>
      </p>
    </section>
  );
}
