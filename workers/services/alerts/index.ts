/**
 * Staff alerts (decision 057): events recorded and queued, delivered to Telegram per chat, the
 * sweeps and summaries, and the owner's alert settings.
 * The folder's only door: code outside it imports from here, and only what is exported here.
 */
export { alertSettingsScreen, clearAlertToken, saveAlertSettings, sendTestAlert, type AlertSettingsInput, type AlertTestAnswer } from "./alert-settings";
export { alertOrigin, announceWaitingWithdrawal, buryAlerts, deliverAlerts, raiseAlert, sweepAlerts, type AlertMessageBody } from "./alerts";
