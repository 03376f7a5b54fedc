/**
 * The parts of a lite page's script by name (decision 034, 066): each one behaviour in its own
 * module of this folder, exported as `(ctx: LiteContext) => void`, doing nothing on a page
 * without its markup. Plain data: the build bundles each part on its own from this list
 * (vite-plugins/lite-parts.ts), and lite-page.server.ts puts the ones a page needs into its
 * one inline script.
 *
 * `public` runs on every lite page; `fingerprint` where the page's form carries the field or a
 * player is logged in; a logged-in player's page adds PLAYER_PARTS; a route asks for more with
 * `handle.lite: ["name", ...]` (page-scripts.ts `litePartsOf`). Order matters: `pending` last,
 * so it sees a submit or a click another part stopped (`defaultPrevented`).
 */
export const LITE_PARTS = {
  public: { file: "public.ts", run: "publicPart" },
  fingerprint: { file: "fingerprint.ts", run: "fingerprintPart" },
  menus: { file: "menus.ts", run: "menusPart" },
  credits: { file: "credits.ts", run: "creditsPart" },
  creditChip: { file: "credit-chip.ts", run: "creditChipPart" },
  playTime: { file: "play-time.ts", run: "playTimePart" },
  copy: { file: "copy.ts", run: "copyPart" },
  // the money forms (decision 034)
  validate: { file: "validate.ts", run: "liteValidate" },
  creditPreview: { file: "deposit.ts", run: "liteCreditPreview" },
  depositStatus: { file: "deposit.ts", run: "liteDepositStatus" },
  countdown: { file: "deposit.ts", run: "liteCountdown" },
  selectOnFocus: { file: "deposit.ts", run: "liteSelectOnFocus" },
  quickAmount: { file: "deposit.ts", run: "liteQuickAmount" },
  // "Save QR": the share sheet with the picture, where the browser offers it (decision 080)
  saveQr: { file: "save-qr.ts", run: "saveQrPart" },
  // the player menu's change-password dialog (decision 052)
  passwordDialog: { file: "password-dialog.ts", run: "litePasswordDialog" },
  // the landing's banner carousel (decision 082)
  carousel: { file: "carousel.ts", run: "carouselPart" },
  // the back office's (decision 089): report charts' tooltips, the brand's colour pickers, a form sent once
  chartTips: { file: "charts.ts", run: "chartTipsPart" },
  colorPair: { file: "color-pair.ts", run: "colorPairPart" },
  submitOnce: { file: "submit-once.ts", run: "submitOncePart" },
  pending: { file: "pending.ts", run: "pendingPart" },
} as const;

export type LitePartName = keyof typeof LITE_PARTS;

export const PLAYER_PARTS: readonly LitePartName[] = ["menus", "credits", "creditChip", "playTime", "passwordDialog"];
export const LAST_PARTS: readonly LitePartName[] = ["pending"];

export function isLitePartName(name: string): name is LitePartName {
  return Object.hasOwn(LITE_PARTS, name);
}
