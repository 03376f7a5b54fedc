import { parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";
import { OwnAccountModeSchema } from "../../app/lib/schemas/own-account-channel";

/**
 * The witness window of an own-account channel (admin/settings/channels, decision 046): whole
 * minutes 1 to 1440 written in plain decimal digits, surrounding spaces ignored. Number() would
 * read "0x10" as 16 and "1e3" as 1000; those are refused with the field's message.
 */
const parse = (witnessWindowMinutes: string) => {
  const data = new FormData();
  data.set("intent", "mode");
  data.set("code", "OWN-APB");
  data.set("mode", "derived");
  data.set("witnessWindowMinutes", witnessWindowMinutes);
  return parseWithZod(data, { schema: OwnAccountModeSchema });
};
const WINDOW = ["admin:ownAccount.validation.window"];

describe("the witness window field", () => {
  it.each(["0x10", "1e3", "1.5", "-1", "0", "1441", "+5", "10.0", "1_0", "Infinity", "١٠", "10 15"])("refuses %j with the field's message", (typed) => {
    expect(parse(typed).reply().error).toEqual({ witnessWindowMinutes: WINDOW });
  });

  it.each([
    ["10", 10],
    [" 15 ", 15],
    ["1", 1],
    ["1440", 1440],
    ["0030", 30],
  ])("reads %j as %i minutes", (typed, minutes) => {
    expect(parse(typed)).toMatchObject({ status: "success", value: { witnessWindowMinutes: minutes } });
  });

  it("left out (an empty field): the channel keeps its window", () => {
    const parsed = parse("");
    expect(parsed.status).toBe("success");
    expect(parsed.status === "success" && parsed.value.witnessWindowMinutes).toBeUndefined();
  });
});
