import { beforeAll, describe, expect, it } from "vitest";
import { litePartsIn } from "../setup/lite-script";
import { fetchApp, seedDemo } from "../setup/seed";
import { openOrder, playerWithBank, postDeposit } from "../setup/money";
import { validator } from "../../app/lib/lite/form-validators";
import { STAFF_FORM_SCHEMAS } from "../../app/lib/schemas/staff-forms";
import * as adminSchemas from "../../app/lib/schemas/admin";
import * as adminOpsSchemas from "../../app/lib/schemas/admin-ops";
import * as promotionSchemas from "../../app/lib/schemas/admin-promotion";
import * as settingsSchemas from "../../app/lib/schemas/admin-settings";
import * as bankSchemas from "../../app/lib/schemas/bank";
import * as blocklistSchemas from "../../app/lib/schemas/blocklist";
import * as cashbackSchemas from "../../app/lib/schemas/cashback";
import * as checkinSchemas from "../../app/lib/schemas/checkin";
import * as levelSchemas from "../../app/lib/schemas/levels";
import * as linkedSchemas from "../../app/lib/schemas/linked-accounts";
import * as ownAccountSchemas from "../../app/lib/schemas/own-account-channel";
import * as referralSchemas from "../../app/lib/schemas/referral";
import { MARK_JS_SCRIPT } from "../../app/lib/page-scripts";

beforeAll(seedDemo);

/** Every exported schema of the modules the back office's forms take theirs from, by its export name. */
const ALL_SCHEMAS: Record<string, unknown> = {
  ...adminSchemas,
  ...adminOpsSchemas,
  ...promotionSchemas,
  ...settingsSchemas,
  ...bankSchemas,
  ...blocklistSchemas,
  ...cashbackSchemas,
  ...checkinSchemas,
  ...levelSchemas,
  ...linkedSchemas,
  ...ownAccountSchemas,
  ...referralSchemas,
};

/** The <script> elements of a page: the opening tag and the text. */
function scripts(html: string) {
  return [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)].map((m) => ({ attrs: m[1]!, text: m[2]! }));
}

function form(fields: Record<string, string>): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.set(name, value);
  return data;
}

describe("the lite money forms' validator module (decision 034, Forms)", () => {
  const { validate, preview, vars } = validator;
  const key = crypto.randomUUID();

  it("validates with the actions' schemas: errors by field as translation keys, {} when valid", () => {
    expect(validate("deposit", form({ provider: "askmebet", channelCode: "BCEL-QR", amount: "12x", idempotencyKey: key }))).toEqual({
      amount: ["deposit.validation.amount"],
    });
    expect(validate("deposit", form({ provider: "askmebet", channelCode: "BCEL-QR", amount: "60.000", idempotencyKey: key }))).toEqual({});
    expect(validate("deposit", form({ channelCode: "BCEL-QR", amount: "60000", idempotencyKey: key }))).toEqual({ provider: ["deposit.validation.provider"] });
    // the deposit's schema is the agency's: the bounds the form carries ("min,max" in kip)
    const deposit = (amount: string) =>
      validate("deposit", form({ provider: "askmebet", channelCode: "BCEL-QR", amount, idempotencyKey: key }), "10000,50000000");
    expect(deposit("9.999")).toEqual({ amount: ["deposit.errors.AMOUNT_TOO_LOW"] });
    expect(deposit("50,000,001")).toEqual({ amount: ["deposit.errors.AMOUNT_TOO_HIGH"] });
    expect(deposit("1 000 000")).toEqual({});
    // the refine of "all credit": no amount needs the box
    expect(validate("withdraw", form({ provider: "askmebet", idempotencyKey: key }))).toEqual({ amount: ["withdraw.validation.amount"] });
    expect(validate("withdraw", form({ provider: "askmebet", all: "on", idempotencyKey: key }))).toEqual({});
    // the withdraw's schema is the agency's too: the bounds the form carries ("min,max" in credit)
    const withdraw = (amount: string) => validate("withdraw", form({ provider: "askmebet", amount, idempotencyKey: key }), "100,50000");
    expect(withdraw("99,99")).toEqual({ amount: ["withdraw.errors.AMOUNT_TOO_LOW"] });
    expect(withdraw("1,000,000")).toEqual({ amount: ["withdraw.errors.AMOUNT_TOO_HIGH"] });
    expect(withdraw("1 000")).toEqual({});
    const bank = validate("bank-account", form({ bankCode: "BCEL", accountNumber: "12", accountName: "A", currency: "THB", owner: "SELF" }));
    expect(Object.keys(bank ?? {}).sort()).toEqual(["accountName", "accountNumber", "currency"]);
    expect(
      validate(
        "bank-replace",
        form({ intent: "replace", bankCode: "BCEL", accountNumber: "0101234567890", accountName: "Test Player", currency: "LAK", owner: "SELF" }),
      ),
    ).toEqual({
      currentPassword: ["validation.pleaseEnterPassword"],
    });
    expect(validate("change-password", form({ currentPassword: "long-enough-0", newPassword: "short", confirmNewPassword: "" }))).toEqual({
      newPassword: ["validation.passwordMin"],
      confirmNewPassword: ["validation.pleaseEnterPassword"],
    });
    expect(validate("forced-password", form({ intent: "forced", newPassword: "long-enough-1", confirmNewPassword: "long-enough-2" }))).toEqual({
      confirmNewPassword: ["validation.passwordNotMatch"],
    });
    expect(validate("nothing", form({}))).toBeNull();
    expect(vars.passwordMin).toBe("8");
  });

  it("previews the deposit's credit with workers/core/money's math (rounded down), none for no amount", () => {
    // 60,000 kip at 600 kip a credit (scaled by 10^6)
    expect(preview("60.000", "600000000")).toBe(preview("60000", "600000000"));
    expect(preview("60000", "600000000")).toMatch(/^฿100[.,]00$/);
    expect(preview("1000", "600000000")).toMatch(/^฿1[.,]66$/);
    expect(preview("12x", "600000000")).toBeNull();
    expect(preview("0", "600000000")).toBeNull();
  });
});

/**
 * The back office's forms (decision 089): the same module validates them by the names of
 * lib/schemas/staff-forms.ts, which components/forms.tsx puts on each form of `useSchemaForm`.
 * Every such form of the back office (its routes and their components) has its schema listed,
 * so none posts unchecked while its page has JavaScript.
 */
describe("the staff forms in the validator module (decision 089)", () => {
  const { validate } = validator;
  const SOURCES = import.meta.glob<string>(["/app/routes/admin/*.tsx", "/app/components/admin*.tsx"], { query: "?raw", import: "default", eager: true });

  it("validates a staff form with its action's schema: the admin namespace's keys, {} when valid", () => {
    expect(validate("withdraw-reject", form({ intent: "reject", reason: "x" }))).toEqual({ reason: ["admin:withdrawals.validation.reason"] });
    expect(validate("withdraw-reject", form({ intent: "reject", reason: "wrong account name" }))).toEqual({});
    expect(validate("staff-login", form({ username: "A!", password: "p" }))).toEqual({ username: ["admin:auth.validation.username"] });
    expect(validate("staff-totp", form({ code: "123 456" }))).toEqual({});
    expect(validate("staff-enrol", form({ token: "t", password: "long-enough-pass", confirmPassword: "other-pass-123", code: "123456" }))).toEqual({
      confirmPassword: ["admin:auth.validation.confirmMismatch"],
    });
  });

  it("every schema a back-office form of useSchemaForm uses is one the module knows", () => {
    const used = new Set<string>();
    for (const [file, source] of Object.entries(SOURCES)) {
      for (const m of source.matchAll(/useSchemaForm\(\s*(?:"[^"]*"|`[^`]*`|\w+)\s*,\s*(\w+)/g)) used.add(`${m[1]} (${file})`);
    }
    expect(used.size, "the back office's forms are found").toBeGreaterThanOrEqual(20);
    const known = new Set(Object.values(STAFF_FORM_SCHEMAS).map((schema) => Object.entries(ALL_SCHEMAS).find(([, s]) => s === schema)?.[0]));
    const missing = [...used].filter((entry) => !known.has(entry.split(" ")[0]));
    expect(missing, "schemas of staff forms that would post unchecked").toEqual([]);
    for (const name of Object.keys(STAFF_FORM_SCHEMAS)) expect(validate(name, form({})), name).not.toBeNull();
  });
});

describe("the money pages are lite (decisions 021, 034)", { timeout: 90_000 }, () => {
  it("deposit form: one nonce'd inline script with the validate and deposit parts, the page's words, no module script", async () => {
    const p = await playerWithBank();
    const res = await fetchApp("http://localhost/player/deposit", { headers: { Cookie: p.cookie } });
    const html = await res.text();
    expect(html).toContain('data-scripts="lite"');
    expect(html).not.toContain('type="module"');
    // the head's html.js marker (decision 045), then the lite script
    const inline = scripts(html).filter((s) => !s.attrs.includes("application/json") && s.text !== MARK_JS_SCRIPT);
    expect(inline).toHaveLength(1);
    expect(html).toContain(MARK_JS_SCRIPT);
    expect(litePartsIn(inline[0]!.text)).toEqual(expect.arrayContaining(["validate", "creditPreview", "depositStatus", "countdown", "copy", "selectOnFocus"]));
    expect(inline[0]!.text).not.toContain("$ZodType");
    // the validator's words are inlined for the lite `t`
    expect(html).toContain("ກະລຸນາປ້ອນຈຳນວນເງິນເປັນຕົວເລກ (ກີບ)"); // deposit.validation.amount (lo)
    expect(html).toMatch(/data-testid="deposit-form"/);
    expect(html).toMatch(/data-credit-rate="\d+"/);
  });

  it("QR step: the markup the polling, countdown and copy parts look for", async () => {
    const p = await playerWithBank();
    expect((await postDeposit(p.cookie, { amount: "60000" })).status).toBe(302);
    const order = (await openOrder(p.cookie))!;
    const html = await (await fetchApp("http://localhost/player/deposit", { headers: { Cookie: p.cookie } })).text();
    expect(html).toContain(`data-qr-poll="${order.code}"`);
    expect(html).toContain('data-poll-ms="3000,15000"');
    expect(html).toMatch(/<p class="notice" role="status" data-testid="qr-status" hidden="">/);
    expect(html).toMatch(/data-countdown="[^"]+" hidden=""/);
    expect(html).toMatch(/data-copy="000201/);
  });

  it("withdraw, bank and password: lite, with the validate part", async () => {
    const p = await playerWithBank();
    for (const path of ["/player/withdraw", "/player/bank", "/player/password"]) {
      const html = await (await fetchApp(`http://localhost${path}`, { headers: { Cookie: p.cookie } })).text();
      expect(html, path).toContain('data-scripts="lite"');
      expect(litePartsIn(html), path).toContain("validate");
      expect(litePartsIn(html), path).not.toContain("depositStatus");
    }
  });
});
