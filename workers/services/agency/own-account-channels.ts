import { BANKS, findBank } from "../../core/banks";
import { readStaticLaoQr, type StaticLaoQr, type StaticQrProblem } from "../../core/emvco";
import { auditIfChanged, auditStatement, type AuditActor } from "../../db/audit";
import { setDebitFeeStatement } from "../../db/debit-payouts";
import { payoutQrBanksOfChannels, setPayoutQrBanksStatement } from "../../db/payout-qr";
import {
  findOwnAccountChannel,
  findPaymentChannel,
  insertOwnAccountChannelStatement,
  listOwnAccountChannels,
  listPaymentChannels,
  setOwnAccountQrModeStatement,
  setSlipReferenceStatement,
  setWitnessWindowStatement,
  type OwnAccountChannel,
  type QrMode,
} from "../../db/payments";
import { setChannelActive } from "./admin-settings";
import { decodeQrImage, type QrImageProblem } from "./qr-image";

/**
 * Own-account payment channels (decision 016): the agency's own bank account, set up by the
 * owner from the static LAO QR its bank app shows, pasted as text or uploaded as an image.
 * The portal only ever takes the receiver (tag 38) from that QR; it never builds one from
 * an account number (../shared/OUTSIDE.md: the receiver id is a token the bank issues).
 *
 * Two steps: `readOwnAccountQr` checks the QR and says what it read (nothing written);
 * `changeOwnAccountChannels` with intent "create" reads the same text again (never trusting
 * the confirm form's hidden copy) and saves the channel with its audit row. A channel is
 * deactivated, never deleted; its QR mode ('derived' per order, or 'static' as is) can be
 * switched later.
 */

export type OwnAccountQrProblem = StaticQrProblem | QrImageProblem | "EMPTY" | "SAME_ACCOUNT";

/** What the owner is shown before saving. */
export type OwnAccountQrRead = StaticLaoQr & { bankName: string; suggestedCode: string };

export type OwnAccountQrInput = { text?: string; image?: Uint8Array };

export async function readOwnAccountQr(
  db: D1Database,
  agencyId: string,
  input: OwnAccountQrInput,
): Promise<{ ok: true; qr: OwnAccountQrRead } | { ok: false; problem: OwnAccountQrProblem }> {
  let text = input.text?.trim() ?? "";
  // A chosen file is a deliberate act (the file input starts empty): it wins over the text box.
  if (input.image && input.image.byteLength > 0) {
    const decoded = await decodeQrImage(input.image);
    if (!decoded.ok) return decoded;
    text = decoded.text.trim();
  }
  if (!text) return { ok: false, problem: "EMPTY" };
  const read = readStaticLaoQr(text, BANKS);
  if (!read.ok) return read;
  const [own, all] = await Promise.all([listOwnAccountChannels(db, agencyId), listPaymentChannels(db, agencyId)]);
  // Two channels on one receiver would make every payment into it ambiguous.
  if (own.some((c) => c.active && c.iin === read.qr.iin && c.mid === read.qr.receiverId)) return { ok: false, problem: "SAME_ACCOUNT" };
  const codes = new Set(all.map((c) => c.code));
  const base = `OWN-${read.qr.bankCode}`;
  let suggestedCode = base;
  for (let n = 2; codes.has(suggestedCode); n++) suggestedCode = `${base}-${n}`;
  return { ok: true, qr: { ...read.qr, bankName: findBank(read.qr.bankCode)?.name ?? read.qr.bankCode, suggestedCode } };
}

/** The channels, each with the player banks whose derived payout QR its bank app accepts (decision 086). */
export async function loadOwnAccountChannels(db: D1Database, agencyId: string): Promise<(OwnAccountChannel & { payoutQrBanks: string[] })[]> {
  const [channels, banks] = await Promise.all([listOwnAccountChannels(db, agencyId), payoutQrBanksOfChannels(db, agencyId)]);
  return channels.map((c) => ({ ...c, payoutQrBanks: banks.get(c.code) ?? [] }));
}

/*
 * What the channel screen posts after the read step; `intent` names the form (the schemas in
 * app/lib/schemas/own-account-channel.ts produce exactly these values).
 */
export type OwnAccountCreateInput = { intent: "create"; qrText: string; code: string; displayName: string };
export type OwnAccountModeInput = { intent: "mode"; code: string; mode: QrMode; witnessWindowMinutes?: number; debitFee?: string };
export type OwnAccountActiveInput = { intent: "active"; code: string; active: "1" | "0" };
/** The player banks whose QR with the amount inserted this channel's bank app accepts (decision 086); none: the static QR. */
export type OwnAccountPayoutQrInput = { intent: "payoutQr"; code: string; banks: string[] };
/** The owner saw a real slip beside its SMS or statement row carry the same reference (decision 087). */
export type OwnAccountSlipReferenceInput = { intent: "slip-reference"; code: string; confirmed: "1" | "0" };
type OwnAccountChange = OwnAccountCreateInput | OwnAccountModeInput | OwnAccountActiveInput | OwnAccountPayoutQrInput | OwnAccountSlipReferenceInput;

type ChangeResult =
  | { ok: true }
  | { ok: false; code: "CHANNEL_NOT_FOUND" }
  /** The code is taken: what the QR says comes back, to ask for another code. */
  | { ok: false; code: "CHANNEL_EXISTS"; field: "code"; qr: OwnAccountQrRead }
  | { ok: false; code: "QR"; problem: OwnAccountQrProblem };

export async function changeOwnAccountChannels(db: D1Database, actor: AuditActor, change: OwnAccountChange): Promise<ChangeResult> {
  switch (change.intent) {
    case "create":
      return createOwnAccountChannel(db, actor, change);
    case "mode":
      return setOwnAccountQrMode(db, actor, change);
    case "payoutQr":
      return setPayoutQrBanks(db, actor, change);
    case "slip-reference":
      return setSlipReference(db, actor, change);
    case "active": {
      if (!(await findOwnAccountChannel(db, actor.agencyId, change.code))) return { ok: false, code: "CHANNEL_NOT_FOUND" };
      const done = await setChannelActive(db, actor, change.code, change.active === "1");
      return done.ok ? done : { ok: false, code: "CHANNEL_NOT_FOUND" };
    }
  }
}

async function createOwnAccountChannel(db: D1Database, actor: AuditActor, input: OwnAccountCreateInput): Promise<ChangeResult> {
  const read = await readOwnAccountQr(db, actor.agencyId, { text: input.qrText });
  if (!read.ok) return { ok: false, code: "QR", problem: read.problem };
  const { qr } = read;
  if (await findPaymentChannel(db, actor.agencyId, input.code)) return { ok: false, code: "CHANNEL_EXISTS", field: "code", qr };
  const values = {
    code: input.code,
    displayName: input.displayName,
    bankCode: qr.bankCode,
    iin: qr.iin,
    receiverId: qr.receiverId,
    // EMV limits (tags 59, 60): what the QR carries fits, the columns take it as is.
    merchantName: qr.receiverName,
    merchantCity: qr.receiverCity,
    staticQr: qr.text,
    qrMode: "derived" as const,
  };
  const { staticQr: _qr, ...after } = values;
  const [inserted] = await db.batch([
    insertOwnAccountChannelStatement(db, actor.agencyId, values),
    // Audited only if the row was really inserted (a concurrent create of the same code loses).
    auditIfChanged(db, actor, { action: "settings.ownAccount.create", target: input.code, before: null, after }),
  ]);
  if ((inserted.meta.changes ?? 0) === 0) return { ok: false, code: "CHANNEL_EXISTS", field: "code", qr };
  return { ok: true };
}

/** The QR mode, the witness window (decision 046) and the bank's fee per transfer out (decision 084): a field left out keeps its value. */
async function setOwnAccountQrMode(db: D1Database, actor: AuditActor, change: OwnAccountModeInput): Promise<ChangeResult> {
  const { code, mode } = change;
  const current = await findOwnAccountChannel(db, actor.agencyId, code);
  if (!current) return { ok: false, code: "CHANNEL_NOT_FOUND" };
  const window = change.witnessWindowMinutes ?? current.witnessWindowMinutes;
  const fee = change.debitFee ?? current.debitFee;
  if (current.qrMode === mode && current.witnessWindowMinutes === window && current.debitFee === fee) return { ok: true };
  await db.batch([
    setOwnAccountQrModeStatement(db, actor.agencyId, code, mode),
    setWitnessWindowStatement(db, actor.agencyId, code, window),
    setDebitFeeStatement(db, actor.agencyId, code, fee),
    auditStatement(db, actor, {
      action: "settings.ownAccount.qrMode",
      target: code,
      before: { qrMode: current.qrMode, witnessWindowMinutes: current.witnessWindowMinutes, debitFee: current.debitFee },
      after: { qrMode: mode, witnessWindowMinutes: window, debitFee: fee },
    }),
  ]);
  return { ok: true };
}

/**
 * Which player banks get a derived payout QR (the amount inserted) when this channel's bank
 * app pays (decision 086): an owner's finding from trying each bank, audited with the list
 * before and after. Only banks the portal knows are kept.
 */
async function setPayoutQrBanks(db: D1Database, actor: AuditActor, change: OwnAccountPayoutQrInput): Promise<ChangeResult> {
  if (!(await findOwnAccountChannel(db, actor.agencyId, change.code))) return { ok: false, code: "CHANNEL_NOT_FOUND" };
  const before = (await payoutQrBanksOfChannels(db, actor.agencyId)).get(change.code) ?? [];
  const after = BANKS.map((b) => b.code).filter((code) => change.banks.includes(code));
  if (before.join(" ") === [...after].sort().join(" ")) return { ok: true };
  await db.batch([
    setPayoutQrBanksStatement(db, actor.agencyId, change.code, after),
    auditStatement(db, actor, { action: "settings.ownAccount.payoutQr", target: change.code, before: { banks: before }, after: { banks: [...after].sort() } }),
  ]);
  return { ok: true };
}

/**
 * Whether a slip's OneProof reference links by id to this channel's SMS and statement rows
 * (decision 087): the owner turns it on only after seeing, on a real slip beside its SMS or
 * statement row, that the bank uses the same reference. A link is shown to staff, never a credit.
 */
async function setSlipReference(db: D1Database, actor: AuditActor, change: OwnAccountSlipReferenceInput): Promise<ChangeResult> {
  const current = await findOwnAccountChannel(db, actor.agencyId, change.code);
  if (!current) return { ok: false, code: "CHANNEL_NOT_FOUND" };
  const confirmed = change.confirmed === "1";
  if (current.slipReferenceConfirmed === confirmed) return { ok: true };
  await db.batch([
    setSlipReferenceStatement(db, actor.agencyId, change.code, confirmed),
    auditStatement(db, actor, {
      action: "settings.ownAccount.slipReference",
      target: change.code,
      before: { slipReferenceConfirmed: current.slipReferenceConfirmed },
      after: { slipReferenceConfirmed: confirmed },
    }),
  ]);
  return { ok: true };
}
