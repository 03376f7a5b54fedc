import { getTextareaProps } from "@conform-to/react";
import type { SubmissionResult } from "@conform-to/react";
import { Form, Link } from "react-router";
import { useTranslation } from "react-i18next";
import type { LinkReason } from "@workers/core/linked-accounts";
import { AdminTable } from "~/components/data-table";
import { ErrorList, getFormProps, useSchemaForm } from "~/components/forms";
import { formatDateTime } from "~/lib/format";
import { UnlinkSchema } from "~/lib/schemas/linked-accounts";

type Linked = {
  links: {
    playerId: string;
    player: { username: string; displayName: string };
    reasons: { reason: LinkReason; seenAt: string }[];
    seenAt: string;
    unlink: { reason: string; by: string; at: string } | null;
  }[];
  score: { total: number; heldWorthy: boolean; parts: { reason: LinkReason; players: number; points: number }[] };
};

/**
 * The staff player page's linked accounts (decision 093): the score and its parts, then each
 * linked player, why and when; for the owner an unlink form on each linked pair. A card per
 * player on a phone, as the other staff lists (decision 088).
 */
export function PlayerLinks({
  linked,
  canUnlink,
  here,
  lastUnlink,
}: {
  linked: Linked;
  canUnlink: boolean;
  here: string;
  lastUnlink: { otherId: string; reply: SubmissionResult<string[]> } | null;
}) {
  const { t } = useTranslation("admin");
  const { score } = linked;
  return (
    <section data-testid="player-linked" aria-labelledby="linked-title">
      <h2 id="linked-title">{t("linked.title")}</h2>
      <p className="muted">{t("linked.intro")}</p>
      <dl className="admin-facts" data-testid="linked-score" data-total={score.total} data-held={score.heldWorthy ? "yes" : "no"}>
        <dt>{t("linked.score")}</dt>
        <dd>
          {t("linked.scoreOf", { total: score.total })} · {score.heldWorthy ? t("linked.heldWorthy") : t("linked.notHeldWorthy")}
          {score.parts.length > 0 && (
            <ul data-testid="linked-score-parts">
              {score.parts.map((p) => (
                <li key={p.reason} data-reason={p.reason}>
                  {t("linked.part", { reason: t(`linked.reasons.${p.reason}`), players: p.players, points: p.points })}
                </li>
              ))}
            </ul>
          )}
        </dd>
      </dl>
      <AdminTable
        label={t("linked.title")}
        empty={<p data-testid="linked-none">{t("linked.none")}</p>}
        rows={linked.links}
        rowKey={(l) => l.playerId}
        rowProps={(l) => ({ "data-testid": "linked-row", "data-player": l.player.username, "data-state": l.unlink ? "unlinked" : "linked" })}
        columns={[
          {
            header: t("linked.player"),
            lead: true,
            cell: (l) => (
              <Link to={`/admin/players/${l.playerId}`}>
                {l.player.username} <small>({l.player.displayName})</small>
              </Link>
            ),
          },
          {
            header: t("linked.why"),
            lead: true,
            cell: (l) => (
              <ul className="linked-reasons">
                {l.reasons.map((r) => (
                  <li key={r.reason} data-reason={r.reason}>
                    {t(`linked.reasons.${r.reason}`)} · {formatDateTime(r.seenAt)}
                  </li>
                ))}
              </ul>
            ),
          },
          { header: t("linked.seenAt"), cell: (l) => formatDateTime(l.seenAt) },
          {
            header: t("linked.state"),
            cell: (l) =>
              l.unlink ? (
                t("linked.unlinkedState", { by: l.unlink.by, at: formatDateTime(l.unlink.at), reason: l.unlink.reason })
              ) : canUnlink ? (
                <UnlinkForm
                  otherId={l.playerId}
                  username={l.player.username}
                  here={here}
                  lastResult={lastUnlink?.otherId === l.playerId ? lastUnlink.reply : null}
                />
              ) : (
                t("linked.linkedState")
              ),
          },
        ]}
      />
    </section>
  );
}

/** One pair's unlink (the owner's): why they are not one person, required. */
function UnlinkForm({
  otherId,
  username,
  here,
  lastResult,
}: {
  otherId: string;
  username: string;
  here: string;
  lastResult: SubmissionResult<string[]> | null;
}) {
  const { t } = useTranslation("admin");
  const [form, fields] = useSchemaForm(`unlink-${otherId}`, UnlinkSchema, lastResult);
  return (
    <Form method="post" action={here} {...getFormProps(form)} noValidate className="stack" data-testid="unlink-form">
      <input type="hidden" name="intent" value="unlink" />
      <input type="hidden" name="otherId" value={otherId} />
      <div className="field">
        <label htmlFor={fields.reason.id}>{t("linked.unlinkReason")}</label>
        <textarea {...getTextareaProps(fields.reason)} rows={2} />
        <ErrorList id={fields.reason.errorId} errors={fields.reason.errors} />
      </div>
      <div role="alert" className="form-alert">
        <ErrorList id={form.errorId} errors={form.errors} />
      </div>
      <button type="submit" className="button" data-testid="unlink-submit" aria-label={`${t("linked.unlink")} ${username}`}>
        {t("linked.unlink")}
      </button>
    </Form>
  );
}
