/**
 * The agency: which one a request is for (by its Host), its owner's settings (rates, limits,
 * payment channels, own bank accounts read from their QR, providers' credentials, profile),
 * its brand and images, the sandbox pages of an agency on the sandbox gateway, and the
 * database's upkeep on the cron (the planner's statistics, bounded deletes).
 * The folder's only door: code outside it imports from here, and only what is exported here.
 */
export {
  changeSettings,
  clearProviderCredentials,
  loadSettings,
  readProviderCredentials,
  saveChannel,
  setChannelActive,
  setEnabledProviders,
  setExchangeRate,
  setLimits,
  setProfile,
  setProviderCredentials,
  type ChannelActiveInput,
  type ChannelInput,
  type ChannelRow,
  type ClearCredentialsInput,
  type CredentialsInput,
  type LimitsInput,
  type ProfileInput,
  type ProvidersInput,
  type RateInput,
  type SettingsScreen,
} from "./admin-settings";
export { agencyInfo, findAgencyByHost, forgetAgency, type Agency } from "./agency";
export {
  brandSettingsPage,
  readBrandAsset,
  removeBrandImage,
  saveBrandSettings,
  sweepBrandAssets,
  uploadBrandImage,
  uploadPromotionBanner,
  webManifest,
  type BrandSettingsInput,
} from "./brand";
export {
  changeOwnAccountChannels,
  loadOwnAccountChannels,
  readOwnAccountQr,
  type OwnAccountActiveInput,
  type OwnAccountCreateInput,
  type OwnAccountModeInput,
  type OwnAccountPayoutQrInput,
  type OwnAccountQrProblem,
  type OwnAccountQrRead,
  type OwnAccountSlipReferenceInput,
} from "./own-account-channels";
export { decodeQrImage, MAX_QR_IMAGE_BYTES, qrSvg, type QrImageProblem } from "./qr-image";
export { forwardToSandbox } from "./sandbox-pages";
export { deleteInBatches, optimizeDatabase } from "./upkeep";
