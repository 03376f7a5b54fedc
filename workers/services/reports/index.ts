/**
 * Reports: the money, players, promotions and provider figures (decisions 019, 058), the
 * reports page and its CSV exports, the dashboard's today, the read models' backfill, and the
 * scheduled roll-up of closed days (decision 078).
 * The folder's only door: code outside it imports from here, and only what is exported here.
 */
export { loadDashboard, vientianeDay } from "./dashboard";
export { collectProviderStats, continueProviderStats, providersReport } from "./provider-stats";
export { backfillReadModels } from "./report-backfill";
export { rollUpReportDays } from "./report-days";
export {
  isReportTable,
  mayExport,
  reportExport,
  reportsPage,
  type MoneyReport,
  type PlayersReport,
  type PromotionsReport,
  type ProvidersReport,
  type ReportExport,
  type ReportTable,
} from "./report-pages";
export { moneyReport, playersReport, promotionsReport, type MoneyRow } from "./reports";
