/**
 * Holds, not silent refusals (decision 094): the first claim of a reward among linked accounts
 * wins, the others wait for staff; the back office's list, decisions, CSV and the owner's rules.
 * The folder's only door: code outside it imports from here, and only what is exported here.
 */
export {
  decideHold,
  holdStatusOf,
  holdsExport,
  holdsScreen,
  playerHoldsForStaff,
  saveHoldRules,
  type HoldView,
} from "./admin-holds";
export { heldRewards, holdIfLinked, rebindHold, takeBackClaim, withdrawalWaitsForCheck } from "./first-claim";
