import { describe, expect, it } from "vitest";
import QRCode from "qrcode";
import { crc16, field } from "../../workers/core/emvco";
import { readOneProof } from "../../workers/core/one-proof";
import { decodeQrImage } from "../../workers/services/agency";
import { oneProofText } from "../integration/fixtures/one-proof";

/**
 * BCEL One's slip QR ("OneProof", decision 087), of the shape the public library
 * maythiwat/promptparse describes (src/validate/BCELOneProof.ts): EMV TLV, tag 33 with 00 =
 * BCEL or ONEPROOF, 03 the ticket, 04 the bank's reference, CRC in 63.
 */
describe("a OneProof slip QR", () => {
  const text = oneProofText({ ticket: "2512011030457", reference: "FT25335ABCD12" });

  it("reads the ticket and the bank's reference, with either identifier", () => {
    expect(text).toMatch(/^00020101021133\d{2}0008ONEPROOF/);
    expect(readOneProof(text)).toEqual({ ok: true, slip: { ticket: "2512011030457", reference: "FT25335ABCD12", type: "01", text } });
    const bcel = oneProofText({ ticket: "77", reference: "FT1", id: "BCEL" });
    expect(readOneProof(` ${bcel}\n`)).toMatchObject({ ok: true, slip: { ticket: "77", reference: "FT1", text: bcel } });
  });

  it("is read from a PNG the qrcode package renders, as a slip's screenshot holds it", async () => {
    const png = new Uint8Array(await QRCode.toBuffer(text, { type: "png", errorCorrectionLevel: "M", margin: 4, scale: 6 }));
    const decoded = await decodeQrImage(png);
    expect(decoded).toEqual({ ok: true, text });
    expect(decoded.ok && readOneProof(decoded.text)).toMatchObject({ ok: true, slip: { ticket: "2512011030457", reference: "FT25335ABCD12" } });
  });

  it("refuses a broken CRC, another template, a missing ticket or reference, and text that is not EMV", () => {
    expect(readOneProof(`${text.slice(0, -4)}${text.endsWith("0000") ? "FFFF" : "0000"}`)).toEqual({ ok: false, problem: "CRC" });
    expect(readOneProof(oneProofText({ ticket: "1", reference: "FT1", id: "PROMPTPAY" }))).toEqual({ ok: false, problem: "NOT_ONEPROOF" });
    expect(readOneProof(oneProofText({ ticket: "", reference: "FT1" }))).toEqual({ ok: false, problem: "NOT_ONEPROOF" });
    expect(readOneProof(oneProofText({ ticket: "12", reference: "" }))).toEqual({ ok: false, problem: "NOT_ONEPROOF" });
    expect(readOneProof(oneProofText({ ticket: "12", reference: "FT 1<script>" }))).toEqual({ ok: false, problem: "NOT_ONEPROOF" });
    // a payment QR (a LAO QR with tag 38 and no 33) is not a slip
    const body = `${field("00", "01")}${field("01", "11")}${field("38", field("00", "A005266284662577") + field("01", "27710418"))}${field("53", "418")}6304`;
    expect(readOneProof(body + crc16(body))).toEqual({ ok: false, problem: "NOT_ONEPROOF" });
    expect(readOneProof("https://example.com/slip")).toEqual({ ok: false, problem: "FORMAT" });
    const noFormat = "0002026304";
    expect(readOneProof(noFormat + crc16(noFormat))).toEqual({ ok: false, problem: "FORMAT" });
  });
});
