import { beforeAll, describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { afterRedirect, fetchApp, seedDemo, shownOf } from "../setup/seed";
import { markupOf } from "../setup/lite-script";
import { postForm } from "../setup/players";
import { createStaff, staffLogin } from "../setup/staff";
import { changeOwnAccountChannels, loadOwnAccountChannels, readOwnAccountQr, saveChannel } from "../../workers/services/agency";
import type { AuditActor } from "../../workers/db/audit";
import { blankPng, qrJpeg, qrPng, staticLaoQr } from "./fixtures/qr-images";
import lo from "../../locales/lo/admin.json";

const owner: AuditActor = { agencyId: "demo", staffId: "s-owner", staffUsername: "boss", ip: "10.77.0.1", userAgent: "vitest" };
const PAGE = "/admin/settings/channels";

beforeAll(async () => {
  await seedDemo();
});

async function auditRows(action: string) {
  const { results } = await env.DB.prepare(`SELECT * FROM audit_log WHERE agency_id = 'demo' AND action = ?1 ORDER BY id`)
    .bind(action)
    .all<Record<string, string | null>>();
  return results;
}

async function channelRow(code: string) {
  return env.DB.prepare(`SELECT * FROM payment_channels WHERE agency_id = 'demo' AND code = ?1`).bind(code).first<Record<string, string | number | null>>();
}

/** A multipart post as the browser sends the read form (with or without a file). */
function postMultipart(fields: Record<string, string>, file: { bytes: Uint8Array; name: string; type: string } | null, cookie: string) {
  const body = new FormData();
  for (const [k, v] of Object.entries(fields)) body.append(k, v);
  if (file) body.append("qrImage", new File([file.bytes as Uint8Array<ArrayBuffer>], file.name, { type: file.type }));
  else body.append("qrImage", new File([], "", { type: "application/octet-stream" }));
  return fetchApp(`http://localhost${PAGE}`, { method: "POST", redirect: "manual", headers: { Origin: "http://localhost", Cookie: cookie }, body });
}

describe("reading the agency's static QR (service)", () => {
  it("says what it read from pasted text or an image, and suggests a free code", async () => {
    const text = staticLaoQr();
    for (const input of [{ text: `  ${text}\n` }, { image: qrPng(text) }, { image: qrJpeg(text) }]) {
      const read = await readOwnAccountQr(env.DB, "demo", input);
      expect(read).toEqual({
        ok: true,
        qr: expect.objectContaining({
          text,
          iin: "27710418",
          bankCode: "BCEL",
          receiverId: "mch19B73F61B9E",
          receiverName: "VIENTIANE PLAY",
          receiverCity: "VIENTIANE",
          suggestedCode: "OWN-BCEL",
        }),
      });
    }
  });

  it("names each problem: empty, bad image, no QR, and every kind of wrong QR", async () => {
    const problem = async (input: { text?: string; image?: Uint8Array }) => {
      const read = await readOwnAccountQr(env.DB, "demo", input);
      return read.ok ? "OK" : read.problem;
    };
    expect(await problem({ text: "  " })).toBe("EMPTY");
    expect(await problem({ image: new TextEncoder().encode("GIF89a not really") })).toBe("IMAGE_UNREADABLE");
    expect(await problem({ image: blankPng() })).toBe("NO_QR");
    expect(await problem({ image: qrPng("https://example.com/not-a-lao-qr") })).toBe("FORMAT");
    const good = staticLaoQr();
    expect(await problem({ text: good.slice(0, -1) + (good.endsWith("0") ? "1" : "0") })).toBe("CRC");
    expect(await problem({ text: staticLaoQr({ aid: "A000000677010111" }) })).toBe("NOT_LAPNET");
    expect(await problem({ text: staticLaoQr({ iin: "12345678" }) })).toBe("UNKNOWN_BANK");
    expect(await problem({ text: staticLaoQr({ currency: "764" }) })).toBe("NOT_LAK");
    expect(await problem({ text: staticLaoQr({ pointOfInitiation: "12", amount: "50000" }) })).toBe("NOT_STATIC");
    expect(await problem({ text: staticLaoQr({ receiver: "" }) })).toBe("NO_RECEIVER");
    // A QR image of a wrong QR is read, then refused for what it says.
    expect(await problem({ image: qrPng(staticLaoQr({ currency: "764" })) })).toBe("NOT_LAK");
  });
});

describe("saving an own-account channel (service)", () => {
  it("two creates of one code at once: one channel, one audit row", async () => {
    const text = staticLaoQr({ receiver: "mchRACE0001", iin: "70030418" });
    const results = await Promise.all(
      [1, 2].map(() => changeOwnAccountChannels(env.DB, owner, { intent: "create", qrText: text, code: "RACE", displayName: "Race" })),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.filter((r) => !r.ok).map((r) => !r.ok && r.code)).toEqual(["CHANNEL_EXISTS"]);
    expect((await auditRows("settings.ownAccount.create")).filter((r) => r.target === "RACE")).toHaveLength(1);
    // The same receiver cannot become a second active channel.
    expect(await changeOwnAccountChannels(env.DB, owner, { intent: "create", qrText: text, code: "RACE2", displayName: "Race" })).toEqual({
      ok: false,
      code: "QR",
      problem: "SAME_ACCOUNT",
    });
  });

  it("refuses a tampered QR at save time (the confirm form's copy is read again)", async () => {
    const good = staticLaoQr({ receiver: "mchTAMPER" });
    const tampered = good.replace("mchTAMPER", "mchTAMPEX");
    expect(await changeOwnAccountChannels(env.DB, owner, { intent: "create", qrText: tampered, code: "TAMPER", displayName: "x" })).toEqual({
      ok: false,
      code: "QR",
      problem: "CRC",
    });
    expect(await channelRow("TAMPER")).toBeNull();
  });

  it("the generic channel form cannot rewrite an own-account channel's bank or receiver", async () => {
    const result = await saveChannel(env.DB, owner, {
      intent: "channel",
      existing: "1",
      code: "RACE",
      mid: "123456789012",
      displayName: "x",
      currency: "LAK",
      bankCode: "BCEL",
      merchantName: "X",
      merchantCity: "Y",
      active: "on",
    });
    expect(result).toEqual({ ok: false, code: "CHANNEL_OWN_ACCOUNT" });
    expect(await channelRow("RACE")).toMatchObject({ mid: "mchRACE0001", bank_code: "LDB", iin: "70030418" });
  });
});

describe("the channel screen (owner only)", () => {
  let ownerCookie: string;
  let cashierCookie: string;

  beforeAll(async () => {
    const o = await createStaff(env, { agencyId: "demo", username: "chan-owner", password: "chan-owner-pass-1", role: "owner" });
    const c = await createStaff(env, { agencyId: "demo", username: "chan-cashier", password: "chan-cashier-pass-1", role: "cashier" });
    ownerCookie = await staffLogin(env, { username: "chan-owner", password: "chan-owner-pass-1", totpSecret: o.totpSecret });
    cashierCookie = await staffLogin(env, { username: "chan-cashier", password: "chan-cashier-pass-1", totpSecret: c.totpSecret });
  }, 90_000);

  it("upload an image -> what it read -> confirm -> the channel is saved, derived by default, audited", async () => {
    const text = staticLaoQr({ receiver: "mchUPLOAD42", iin: "70020418", name: "LUCKY AGENCY" });
    const read = await postMultipart({ intent: "read", qrText: "" }, { bytes: qrPng(text), name: "qr.png", type: "image/png" }, ownerCookie);
    expect(read.status).toBe(200);
    const page = await read.text();
    expect(page).toContain('data-testid="own-account-confirm"');
    expect(page).toContain("mchUPLOAD42");
    expect(page).toContain("LUCKY AGENCY");
    expect(page).toContain("APB");
    expect(page).toContain('value="OWN-APB"');
    expect(page).not.toMatch(/name="account/i); // no account-number field: the receiver comes from the QR only

    const saved = await postForm(
      PAGE,
      { intent: "create", qrText: text, code: "own-apb", displayName: "APB main account" },
      { cookie: ownerCookie, ip: "10.55.0.1" },
    );
    expect(saved.status).toBe(302);
    expect(saved.headers.get("Location")).toBe(`${PAGE}#channel-OWN-APB`);
    expect(await channelRow("OWN-APB")).toMatchObject({
      gateway: "own_account",
      iin: "70020418",
      bank_code: "APB",
      mid: "mchUPLOAD42",
      merchant_name: "LUCKY AGENCY",
      merchant_city: "VIENTIANE",
      display_name: "APB main account",
      static_qr: text,
      qr_mode: "derived",
      active: 1,
      currency: "LAK",
    });
    const [audit] = (await auditRows("settings.ownAccount.create")).filter((r) => r.target === "OWN-APB");
    expect(audit).toMatchObject({ staff_username: "chan-owner", ip: "10.55.0.1", before_json: null });
    expect(JSON.parse(audit.after_json!)).toEqual({
      code: "OWN-APB",
      displayName: "APB main account",
      bankCode: "APB",
      iin: "70020418",
      receiverId: "mchUPLOAD42",
      merchantName: "LUCKY AGENCY",
      merchantCity: "VIENTIANE",
      qrMode: "derived",
    });
    // Listed on the screen and on the settings page (which links to it rather than editing it).
    expect(await (await fetchApp(`http://localhost${PAGE}`, { headers: { Cookie: ownerCookie } })).text()).toContain('data-testid="own-account-OWN-APB"');
    const settings = await (await fetchApp("http://localhost/admin/settings", { headers: { Cookie: ownerCookie } })).text();
    expect(settings).toContain('href="/admin/settings/channels"');
    expect(settings).not.toContain('data-testid="channel-form-OWN-APB"');
  });

  it("a pasted text works the same way without a file", async () => {
    const text = staticLaoQr({ receiver: "mchPASTE7", iin: "32170418" });
    const read = await postMultipart({ intent: "read", qrText: text }, null, ownerCookie);
    expect(read.status).toBe(200);
    expect(await read.text()).toContain("mchPASTE7");
  });

  it("a bad image, an image without a QR and each wrong QR get their message (400) and save nothing", async () => {
    const before = (await loadOwnAccountChannels(env.DB, "demo")).length;
    const cases: [Record<string, string>, Parameters<typeof postMultipart>[1], keyof typeof lo.ownAccount.problems][] = [
      [{ intent: "read", qrText: "" }, { bytes: new TextEncoder().encode("not an image"), name: "x.png", type: "image/png" }, "IMAGE_UNREADABLE"],
      [{ intent: "read", qrText: "" }, { bytes: blankPng(), name: "blank.png", type: "image/png" }, "NO_QR"],
      [{ intent: "read", qrText: "" }, null, "EMPTY"],
      [{ intent: "read", qrText: "hello" }, null, "FORMAT"],
      [{ intent: "read", qrText: staticLaoQr({ iin: "99990418" }) }, null, "UNKNOWN_BANK"],
      [{ intent: "read", qrText: staticLaoQr({ pointOfInitiation: "12", amount: "1000" }) }, null, "NOT_STATIC"],
      [{ intent: "read", qrText: staticLaoQr({ currency: "840" }) }, null, "NOT_LAK"],
    ];
    for (const [fields, file, problem] of cases) {
      const res = await postMultipart(fields, file, ownerCookie);
      expect(res.status, problem).toBe(400);
      const html = await res.text();
      expect(markupOf(html), problem).toContain(lo.ownAccount.problems[problem]);
      expect(html).not.toContain('data-testid="own-account-confirm"');
    }
    expect((await loadOwnAccountChannels(env.DB, "demo")).length).toBe(before);
  });

  it("an upload over the size limit is refused before it is read (413)", async () => {
    const res = await postMultipart(
      { intent: "read", qrText: "" },
      { bytes: new Uint8Array(3 * 1024 * 1024), name: "big.png", type: "image/png" },
      ownerCookie,
    );
    expect(res.status).toBe(413);
    expect(await shownOf(res)).toContain(lo.ownAccount.problems.IMAGE_TOO_LARGE);
  });

  it("switches a channel to the static QR as is and back, audited; deactivates it without deleting", async () => {
    expect((await postForm(PAGE, { intent: "mode", code: "OWN-APB", mode: "static" }, { cookie: ownerCookie })).status).toBe(302);
    expect(await channelRow("OWN-APB")).toMatchObject({ qr_mode: "static" });
    expect(JSON.parse((await auditRows("settings.ownAccount.qrMode")).at(-1)!.after_json!)).toEqual({
      qrMode: "static",
      witnessWindowMinutes: 10,
      debitFee: "0",
    });
    expect((await postForm(PAGE, { intent: "mode", code: "OWN-APB", mode: "bogus" }, { cookie: ownerCookie })).status).toBe(400);
    expect(await channelRow("OWN-APB")).toMatchObject({ qr_mode: "static" });
    // the witness window of the channel (decision 046): saved with the mode, refused out of range with a message
    expect((await postForm(PAGE, { intent: "mode", code: "OWN-APB", mode: "static", witnessWindowMinutes: "15" }, { cookie: ownerCookie })).status).toBe(302);
    expect(await channelRow("OWN-APB")).toMatchObject({ witness_window_minutes: 15 });
    const refused = await postForm(PAGE, { intent: "mode", code: "OWN-APB", mode: "static", witnessWindowMinutes: "0" }, { cookie: ownerCookie });
    expect(refused.status).toBe(302);
    expect(refused.headers.getSetCookie().join(";")).toContain("toast");
    expect(await channelRow("OWN-APB")).toMatchObject({ witness_window_minutes: 15 });
    // the bank's fee per transfer out (decision 084): saved with the mode and audited, refused out of range with its message
    expect((await postForm(PAGE, { intent: "mode", code: "OWN-APB", mode: "static", debitFee: "2000" }, { cookie: ownerCookie })).status).toBe(302);
    expect(await channelRow("OWN-APB")).toMatchObject({ debit_fee: "2000", witness_window_minutes: 15 });
    expect(JSON.parse((await auditRows("settings.ownAccount.qrMode")).at(-1)!.before_json!)).toMatchObject({ debitFee: "0" });
    const feeRefused = await postForm(PAGE, { intent: "mode", code: "OWN-APB", mode: "static", debitFee: "1e3" }, { cookie: ownerCookie });
    expect((await afterRedirect(feeRefused, ownerCookie)).html).toContain(lo.debitPayout.validation.fee);
    expect(await channelRow("OWN-APB")).toMatchObject({ debit_fee: "2000" });
    expect((await postForm(PAGE, { intent: "active", code: "OWN-APB", active: "0" }, { cookie: ownerCookie })).status).toBe(302);
    expect(await channelRow("OWN-APB")).toMatchObject({ active: 0, gateway: "own_account" });
    expect((await auditRows("settings.channel.deactivate")).at(-1)).toMatchObject({ target: "OWN-APB" });
  });

  it("a window written other than in plain whole minutes (0x10, 1e3) is refused with the message, and nothing changes", async () => {
    const before = await channelRow("OWN-APB");
    const audits = (await auditRows("settings.ownAccount.qrMode")).length;
    for (const typed of ["0x10", "1e3"]) {
      const refused = await postForm(PAGE, { intent: "mode", code: "OWN-APB", mode: "derived", witnessWindowMinutes: typed }, { cookie: ownerCookie });
      expect((await afterRedirect(refused, ownerCookie)).html).toContain(lo.ownAccount.validation.window);
      expect(await channelRow("OWN-APB")).toEqual(before);
    }
    expect(await auditRows("settings.ownAccount.qrMode")).toHaveLength(audits);
    // spaces around the digits are ignored
    const spaced = await postForm(
      PAGE,
      { intent: "mode", code: "OWN-APB", mode: String(before!.qr_mode), witnessWindowMinutes: " 16 " },
      { cookie: ownerCookie },
    );
    expect(spaced.status).toBe(302);
    expect(await channelRow("OWN-APB")).toMatchObject({ witness_window_minutes: 16 });
  });

  it("a cashier gets 403 on the page and every form, and nothing changes", async () => {
    const audits = await env.DB.prepare(`SELECT COUNT(*) AS n FROM audit_log`).first<{ n: number }>();
    expect((await fetchApp(`http://localhost${PAGE}`, { headers: { Cookie: cashierCookie }, redirect: "manual" })).status).toBe(403);
    expect((await postMultipart({ intent: "read", qrText: staticLaoQr() }, null, cashierCookie)).status).toBe(403);
    expect(
      (
        await postForm(
          PAGE,
          { intent: "create", qrText: staticLaoQr({ receiver: "mchCASHIER" }), code: "CASHIER", displayName: "x" },
          { cookie: cashierCookie },
        )
      ).status,
    ).toBe(403);
    expect((await postForm(PAGE, { intent: "mode", code: "RACE", mode: "static" }, { cookie: cashierCookie })).status).toBe(403);
    expect(await channelRow("CASHIER")).toBeNull();
    expect(await channelRow("RACE")).toMatchObject({ qr_mode: "derived" });
    expect(await env.DB.prepare(`SELECT COUNT(*) AS n FROM audit_log`).first<{ n: number }>()).toEqual(audits);
  });
});
