/**
 * Promotions: the catalogue as staff edit it and as players claim it, weekly cashback, the
 * referral code, share and claims, the reward path cashback and referral share (decision
 * 029), the VIP levels (decision 091), and the daily check-in and deposit streak (decision 095).
 * The folder's only door: code outside it imports from here, and only what is exported here.
 */
export {
  createPromotion,
  getPromotion,
  listPromotions,
  promotionEditPage,
  setPromotionStatus,
  updatePromotion,
  type PromotionInput,
  type PromotionResult,
} from "./admin-promotions";
export {
  checkIn,
  checkinAdminPage,
  checkinClaimKind,
  checkinPage,
  claimStreak,
  saveCheckinSettings,
  type CheckinClaimResult,
  type CheckinSettingsInput,
} from "./checkin";
export { cashbackAdminPage, cashbackPage, claimCashback, saveCashbackSettings, type CashbackSettingsInput } from "./cashback";
export {
  cancelCurrentPromotion,
  cancelPromotion,
  claimPromotion,
  claimPromotionSummary,
  currentPromotionView,
  currentUsageSummary,
  getPromotion as getPlayerPromotion,
  promotionCards,
  promotionDetailPage,
  promotionForWithdraw,
  promotionHistoryPage,
  promotionListPage,
  promotionSummaries,
  promotionSummaryById,
  usageSummaries,
  type WithdrawPromotion,
} from "./promotion";
export {
  deleteLevel,
  levelPage,
  levelsAdminPage,
  playerLevel,
  saveLevel,
  saveLevelPeriod,
  type LevelError,
  type LevelInput,
} from "./levels";
export { adminReferralsPage, saveReferralSettings, type ReferralSettingsInput } from "./referral-admin";
export { checkReferralCode, claimReferralWeek, ensureReferralCode, referralPage, tieReferral, type TieOutcome, type WeekView } from "./referral";
export { claimWalletReward, retryRewardClaim, rewardHoldForWithdraw, withTurnoverProgress, type RewardHoldError, type RewardRetryOutcome } from "./rewards";
