import { parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";
import { OwnAccountPayoutQrSchema } from "../../app/lib/schemas/own-account-channel";

/**
 * The owner's list of player banks whose receive QR with the amount inserted a channel's bank
 * app accepts (admin/settings/channels, decision 086): checkboxes named `banks`, so none, one
 * or several values arrive; a code the portal does not know is refused.
 */
const parse = (banks: string[]) => {
  const data = new FormData();
  data.set("intent", "payoutQr");
  data.set("code", "OWN-BCEL");
  for (const bank of banks) data.append("banks", bank);
  return parseWithZod(data, { schema: OwnAccountPayoutQrSchema });
};

describe("the payout QR banks of a channel", () => {
  it("none ticked is an empty list; one or several are the list", () => {
    expect(parse([])).toMatchObject({ status: "success", value: { intent: "payoutQr", code: "OWN-BCEL", banks: [] } });
    expect(parse(["LDB"])).toMatchObject({ status: "success", value: { banks: ["LDB"] } });
    expect(parse(["BCEL", "JDB"])).toMatchObject({ status: "success", value: { banks: ["BCEL", "JDB"] } });
  });

  it("a bank the portal does not know is refused", () => {
    expect(parse(["BCEL", "MMONEY"]).status).toBe("error");
    expect(parse(["BCEL JDB"]).status).toBe("error");
  });
});
