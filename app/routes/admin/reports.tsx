import { Form, Link } from "react-router";
import { useTranslation } from "react-i18next";
import type { TFunction } from "i18next";
import { parseRange, presetRange, REPORT_PRESETS, type ReportRange } from "@workers/core/report-range";
import { parseTypedDay, typedDayValue } from "@workers/core/vientiane";
import { reportsPage, type ReportTable as ReportTableName } from "@workers/services/reports";
import { TypedDateInput } from "~/components/admin";
import { BarChart, LineChart, type ChartSeries } from "~/components/charts";
import { AdminTable } from "~/components/data-table";
import { getBindings } from "~/lib/context.server";
import { formatNumber } from "~/lib/format";
import {
  columnLabel,
  moneyByProvider,
  moneyByProviderTable,
  moneyTable,
  moneyText,
  periodLabel,
  periodTick,
  playersTable,
  promotionsTable,
  providersTable,
  screenCell,
  TOTAL,
  type ReportTableData,
} from "~/lib/report-tables";
import { requireStaff } from "~/lib/staff.server";
import reportStyles from "~/styles/reports.css?url";
import type { Route } from "./+types/reports";
import type { ScriptsHandle } from "~/lib/page-scripts";

/** Lite (decision 089): the charts' tooltips come from the lite script. */
export const handle = { lite: ["chartTips"] } satisfies ScriptsHandle;

export const links: Route.LinksFunction = () => (reportStyles ? [{ rel: "stylesheet", href: reportStyles }] : []);

/**
 * Reports (decision 059): money (every staff member), players, promotions and providers (owners),
 * for a range of Vientiane days chosen by preset links or a plain GET form. The loader asks the
 * service for the role's parts only, so a cashier's page never holds the owner's figures.
 * A range the rules refuse is shown as a message above the form; the page still renders.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const staff = await requireStaff(request, context);
  const params = new URL(request.url).searchParams;
  // the days are typed DD/MM/YYYY (decision 088); the preset links carry ISO days
  const typed = (day: string | null) => (day === null ? null : (parseTypedDay(day) ?? day));
  const input = { preset: params.get("preset"), from: typed(params.get("from")), to: typed(params.get("to")), grouping: params.get("grouping") };
  const now = new Date();
  const parsed = parseRange(input, now);
  const presets = REPORT_PRESETS.map((preset) => ({ preset, range: presetRange(preset, now) }));
  if ("error" in parsed) {
    return {
      role: staff.role,
      error: parsed.error,
      form: { from: input.from?.slice(0, 19) ?? "", to: input.to?.slice(0, 19) ?? "", grouping: input.grouping === "hour" ? "hour" : "day" },
      presets,
      report: null,
    };
  }
  const report = await reportsPage(getBindings(context).DB, staff.agencyId, staff.role, parsed);
  return { role: staff.role, error: null, form: parsed, presets, report };
}

const sameRange = (a: ReportRange, b: ReportRange) => a.from === b.from && a.to === b.to && a.grouping === b.grouping;
const rangeQuery = (range: ReportRange) => new URLSearchParams({ from: range.from, to: range.to, grouping: range.grouping }).toString();

export default function Reports({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation("admin");
  const { error, form, presets, report, role } = loaderData;
  const range = report?.range ?? null;
  const query = range ? rangeQuery(range) : "";
  return (
    <section className="reports">
      <title>{t("reports.title")}</title>
      <h1>{t("reports.title")}</h1>
      <nav aria-label={t("reports.presets")} className="report-presets" data-testid="report-presets">
        <ul>
          {presets.map(({ preset, range: r }) => (
            <li key={preset}>
              <Link
                to={`/admin/reports?preset=${preset}`}
                prefetch="none"
                className="button button-ghost button-small"
                data-preset={preset}
                aria-current={range && sameRange(range, r) ? "page" : undefined}
              >
                {t(`reports.preset.${preset}`)}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      {/* noValidate: a malformed day gets the page's translated message, not the browser's own */}
      <Form method="get" className="admin-filter report-range" data-testid="report-range-form" noValidate>
        <div className="field">
          <label htmlFor="r-from">{t("reports.from")}</label>
          <TypedDateInput kind="day" id="r-from" name="from" value={typedDayValue(form.from)} required invalid={error !== null} />
        </div>
        <div className="field">
          <label htmlFor="r-to">{t("reports.to")}</label>
          <TypedDateInput kind="day" id="r-to" name="to" value={typedDayValue(form.to)} required invalid={error !== null} />
        </div>
        <div className="field">
          <label htmlFor="r-grouping">{t("reports.grouping")}</label>
          <select id="r-grouping" name="grouping" defaultValue={form.grouping} aria-describedby="r-grouping-hint">
            <option value="day">{t("reports.byDay")}</option>
            <option value="hour">{t("reports.byHour")}</option>
          </select>
        </div>
        <button type="submit" className="button button-primary">
          {t("reports.show")}
        </button>
        <p id="r-grouping-hint" className="muted report-hint">
          {t("reports.rangeHint")}
        </p>
      </Form>
      {error && (
        <p className="notice report-error" role="alert" data-testid="report-range-error" data-error={error}>
          {t(`reports.errors.${error}`)}
        </p>
      )}
      {report && range && (
        <>
          <p className="report-range-text" data-testid="report-range" data-from={range.from} data-to={range.to} data-grouping={range.grouping}>
            {range.from === range.to
              ? t("reports.rangeOneDay", { day: periodLabel(range.from), grouping: t(range.grouping === "hour" ? "reports.byHour" : "reports.byDay") })
              : t("reports.rangeDays", {
                  from: periodLabel(range.from),
                  to: periodLabel(range.to),
                  grouping: t(range.grouping === "hour" ? "reports.byHour" : "reports.byDay"),
                })}
          </p>
          <MoneySection t={t} money={report.money} query={query} />
          {role === "owner" && report.players && <PlayersSection t={t} players={report.players} query={query} />}
          {role === "owner" && report.promotions && <PromotionsSection t={t} table={promotionsTable(report.promotions, i18n.language)} query={query} />}
          {role === "owner" && report.providers && <ProvidersSection t={t} providers={report.providers} hourly={range.grouping === "hour"} query={query} />}
        </>
      )}
    </section>
  );
}

type Page = NonNullable<Route.ComponentProps["loaderData"]["report"]>;
type T = TFunction<"admin">;

const periodsOf = (rows: { period: string }[]) => rows.map((r) => ({ label: periodLabel(r.period), tick: periodTick(r.period) }));

function MoneySection({ t, money, query }: { t: T; money: Page["money"]; query: string }) {
  const providers = moneyByProvider(money);
  const kip = (v: number) => moneyText(v, "kip");
  const cashSeries = (rows: Page["money"]["periods"]): ChartSeries[] => [
    { key: "depositKip", label: t("reports.columns.depositKip"), values: rows.map((r) => r.depositKip) },
    { key: "withdrawKipPaid", label: t("reports.columns.withdrawKipPaid"), values: rows.map((r) => r.withdrawKipPaid) },
    { key: "netKip", label: t("reports.columns.netKip"), values: rows.map((r) => r.netKip) },
  ];
  return (
    <section aria-labelledby="report-money" className="report-section" data-testid="report-money">
      <h2 id="report-money">{t("reports.money")}</h2>
      <p className="muted">{t("reports.moneyIntro")}</p>
      <BarChart
        title={t("reports.moneyChart")}
        categories={periodsOf(money.periods)}
        series={cashSeries(money.periods)}
        format={kip}
        emptyMax={100}
        testId="chart-money"
      />
      <ReportTable t={t} data={moneyTable(money)} caption={t("reports.moneyTable")} query={query} />
      <h3>{t("reports.byProvider")}</h3>
      {providers.length === 0 ? (
        <p className="muted" data-testid="report-money-by-provider-empty">
          {t("reports.noProviders")}
        </p>
      ) : (
        <BarChart
          title={t("reports.moneyByProviderChart")}
          categories={providers.map((p) => ({
            label: t(`common:providers.${p.provider}`, { defaultValue: p.provider }),
            tick: t(`common:providers.${p.provider}`, { defaultValue: p.provider }),
          }))}
          series={cashSeries(providers)}
          format={kip}
          emptyMax={100}
          testId="chart-money-by-provider"
        />
      )}
      <ReportTable t={t} data={moneyByProviderTable(money)} caption={t("reports.moneyByProviderTable")} query={query} />
    </section>
  );
}

function PlayersSection({ t, players, query }: { t: T; players: NonNullable<Page["players"]>; query: string }) {
  const series: ChartSeries[] = [
    { key: "registrations", label: t("reports.columns.registrations"), values: players.periods.map((r) => r.registrations) },
    { key: "firstDeposits", label: t("reports.columns.firstDeposits"), values: players.periods.map((r) => r.firstDeposits) },
    { key: "activeDepositors", label: t("reports.columns.activeDepositors"), values: players.periods.map((r) => r.activeDepositors) },
  ];
  return (
    <section aria-labelledby="report-players" className="report-section" data-testid="report-players">
      <h2 id="report-players">{t("reports.players")}</h2>
      <p className="muted">{t("reports.playersIntro")}</p>
      <LineChart
        title={t("reports.playersChart")}
        categories={periodsOf(players.periods)}
        series={series}
        format={(v) => formatNumber(v)}
        testId="chart-players"
      />
      <ReportTable t={t} data={playersTable(players)} caption={t("reports.playersTable")} query={query} />
    </section>
  );
}

function PromotionsSection({ t, table, query }: { t: T; table: ReportTableData; query: string }) {
  return (
    <section aria-labelledby="report-promotions" className="report-section" data-testid="report-promotions">
      <h2 id="report-promotions">{t("reports.promotions")}</h2>
      {table.rows.length === 0 ? (
        <p className="muted" data-testid="report-promotions-empty">
          {t("reports.noPromotions")}
        </p>
      ) : (
        <BarChart
          title={t("reports.promotionsChart")}
          categories={table.rows.map((r) => ({ label: String(r[0]), tick: String(r[0]) }))}
          series={[{ key: "bonusCost", label: t("reports.columns.bonusCost"), values: table.rows.map((r) => r[6] as number) }]}
          format={(v) => moneyText(v, "credit")}
          emptyMax={100}
          testId="chart-promotions"
        />
      )}
      <ReportTable t={t} data={table} caption={t("reports.promotionsTable")} query={query} />
    </section>
  );
}

function ProvidersSection({ t, providers, hourly, query }: { t: T; providers: NonNullable<Page["providers"]>; hourly: boolean; query: string }) {
  const name = (p: string) => t(`common:providers.${p}`, { defaultValue: p });
  return (
    <section aria-labelledby="report-providers" className="report-section" data-testid="report-providers">
      <h2 id="report-providers">{t("reports.providers")}</h2>
      <p className="muted">{t("reports.providersIntro")}</p>
      {hourly && <p className="muted">{t("reports.providersDaily")}</p>}
      {providers.unavailable.length > 0 && (
        <div className="notice" data-testid="report-providers-unavailable">
          <p>{t("reports.providersUnavailable")}</p>
          <ul>
            {providers.unavailable.map((u) => (
              <li key={`${u.provider}-${u.day}`}>
                {name(u.provider)}: {periodLabel(u.day)}
              </li>
            ))}
          </ul>
        </div>
      )}
      {providers.total.length === 0 ? (
        <p className="muted" data-testid="report-providers-empty">
          {t("reports.noProviderFigures")}
        </p>
      ) : (
        <BarChart
          title={t("reports.providersChart")}
          categories={providers.total.map((p) => ({ label: name(p.provider), tick: name(p.provider) }))}
          series={[
            { key: "turnover", label: t("reports.columns.turnover"), values: providers.total.map((p) => p.turnover) },
            { key: "winLoss", label: t("reports.columns.winLoss"), values: providers.total.map((p) => p.winLoss) },
          ]}
          format={(v) => moneyText(v, "credit")}
          emptyMax={100}
          testId="chart-providers"
        />
      )}
      <ReportTable t={t} data={providersTable(providers)} caption={t("reports.providersTable")} query={query} />
    </section>
  );
}

/** A report table: the chart's figures for screen readers and everyone, with its CSV link. */
function ReportTable({ t, data, caption, query }: { t: T; data: ReportTableData; caption: string; query: string }) {
  const table: ReportTableName = data.table;
  const numeric = (kind: string) => (kind === "text" || kind === "provider" ? undefined : "num");
  return (
    <div className="report-table">
      <AdminTable
        label={caption}
        caption="shown"
        figures
        testId={`table-${table}`}
        rows={[...data.rows.map((cells) => ({ cells, total: false })), ...data.totals.map((cells) => ({ cells, total: cells[0] === TOTAL }))]}
        rowKey={(_, i) => i}
        rowProps={(r) => ({ "data-total": r.total ? "" : undefined })}
        columns={data.columns.map((c, i) => ({
          header: columnLabel(c, t),
          th: { className: c.kind === "period" ? undefined : numeric(c.kind) },
          rowHeader: i === 0,
          td: i === 0 ? undefined : { className: numeric(c.kind) },
          cell: (r: { cells: (typeof data.rows)[number] }) => screenCell(c.kind, r.cells[i], t),
        }))}
      />
      <p className="report-csv">
        <a href={`/admin/reports/${table}.csv?${query}`} download data-testid={`csv-${table}`} className="button button-ghost button-small">
          {t("reports.downloadCsv", { table: caption })}
        </a>
      </p>
    </div>
  );
}
