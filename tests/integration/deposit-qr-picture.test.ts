import { beforeAll, describe, expect, it } from "vitest";
import { decodeQrImage } from "../../workers/services/agency";
import { fetchApp, seedDemo } from "../setup/seed";
import { openOrder, playerWithBank, postDeposit, qrPayloadOf } from "../setup/money";
import { postForm } from "../setup/players";

beforeAll(seedDemo);

const pictureOf = (code: string, cookie?: string) => fetchApp(`http://localhost/player/deposit/qr/${code}.png`, { headers: cookie ? { Cookie: cookie } : {} });

/**
 * "Save QR" (decision 080): the open order's QR as a PNG file, the player's own only, never
 * cached, readable by a QR reader (jsQR inside workerd, as zbarimg reads it in the e2e test).
 */
describe("the deposit QR as a file (/player/deposit/qr/<code>.png)", () => {
  it("answers the player's open order as a PNG attachment, never cached, that decodes to the order's payload", async () => {
    const p = await playerWithBank();
    expect((await postDeposit(p.cookie, { amount: "60000" })).status).toBe(302);
    const order = (await openOrder(p.cookie))!;
    const res = await pictureOf(order.code, p.cookie);
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("image/png");
    expect(res.headers.get("Cache-Control")).toBe("private, no-store");
    expect(res.headers.get("Content-Disposition")).toMatch(new RegExp(`^attachment; filename="lao-qr-${order.code}-60000kip-\\d{4}\\.png"$`));
    const png = new Uint8Array(await res.arrayBuffer());
    expect(new DataView(png.buffer).getUint32(16)).toBeGreaterThanOrEqual(600); // IHDR width
    expect(await decodeQrImage(png)).toEqual({ ok: true, text: await qrPayloadOf(p.wallet, order.code) });

    // the page links it, as a plain link (no JavaScript needed)
    const html = await (await fetchApp("http://localhost/player/deposit", { headers: { Cookie: p.cookie } })).text();
    expect(html).toContain(`href="/player/deposit/qr/${order.code}.png"`);
  });

  it("another player's order, an unknown code, no session and a cancelled order give no picture", async () => {
    const owner = await playerWithBank();
    const other = await playerWithBank();
    expect((await postDeposit(owner.cookie, { amount: "70000" })).status).toBe(302);
    const { code } = (await openOrder(owner.cookie))!;

    const foreign = await pictureOf(code, other.cookie);
    expect(foreign.status).toBe(404);
    expect(foreign.headers.get("Cache-Control")).toBe("private, no-store");
    expect((await pictureOf("D000000NOPE", owner.cookie)).status).toBe(404);
    expect((await pictureOf("../deposit", owner.cookie)).status).toBe(404);
    expect((await pictureOf(code)).headers.get("Content-Type")).not.toBe("image/png");

    expect((await postForm("/player/deposit", { intent: "cancel", code }, { cookie: owner.cookie })).status).toBe(302);
    expect((await pictureOf(code, owner.cookie)).status).toBe(404);
  });
});
