import { describe, expect, it } from "vitest";
import {
  alertText,
  combinedText,
  fitMessage,
  inQuietHours,
  MAX_MESSAGE_LENGTH,
  minutesOfDay,
  retryDelaySeconds,
  type AlertEvent,
} from "../../workers/core/alerts";

/** Staff alerts' pure rules (issue 34): the messages, quiet hours on Vientiane's clock, the backoff. */

const at = (vientiane: string) => Date.parse(`2026-11-27T${vientiane}:00+07:00`);

const waiting: AlertEvent<"withdrawal.waiting"> = {
  id: "withdrawal.waiting:W1",
  kind: "withdrawal.waiting",
  facts: {
    code: "W1",
    username: "somchai",
    credit: "6000.00",
    receivedLak: "3480000.00",
    bankCode: "JDB",
    accountMasked: "••••5678",
    createdAt: "2026-11-27T03:00:00.000Z",
  },
};

describe("alert messages", () => {
  it("say the item in the chosen language, with its age when sent and a link at the primary domain", () => {
    const now = Date.parse("2026-11-27T03:07:30.000Z");
    expect(alertText(waiting, "lo", "https://play.example.la", now)).toBe(
      ["💸 ການຖອນລໍຖ້າພະນັກງານ", "₭3.480.000 (฿6.000,00) · somchai", "JDB ••••5678", "W1 · ລໍຖ້າ 7 ນາທີ", "https://play.example.la/admin/withdrawals/W1"].join("\n"),
    );
    expect(alertText(waiting, "cn", "https://x", now)).toContain("提款等待员工处理");
    expect(alertText(waiting, "vn", "https://x", now)).toContain("đã chờ 7 phút");
  });

  it("several for one chat become one message; too long, it is cut at Telegram's limit with a count of the rest", () => {
    const two = combinedText([waiting, { ...waiting, id: "withdrawal.waiting:W2", facts: { ...waiting.facts, code: "W2" } }], "lo", "https://x", Date.now());
    expect(two.startsWith("🔔 2\n\n")).toBe(true);
    expect(two).toContain("/admin/withdrawals/W2");
    const long = fitMessage(
      "head",
      Array.from({ length: 100 }, (_, i) => `${i} `.padEnd(100, "x")),
    );
    expect(long.length).toBeLessThanOrEqual(MAX_MESSAGE_LENGTH);
    expect(long).toMatch(/… ແລະ ອີກ \d+$/);
  });
});

describe("quiet hours (Vientiane clock)", () => {
  it("a window within the day and one across midnight; none when either end is missing", () => {
    expect(inQuietHours(at("13:00"), "12:00", "14:00")).toBe(true);
    expect(inQuietHours(at("14:00"), "12:00", "14:00")).toBe(false);
    expect(inQuietHours(at("23:30"), "22:00", "07:00")).toBe(true);
    expect(inQuietHours(at("06:59"), "22:00", "07:00")).toBe(true);
    expect(inQuietHours(at("07:00"), "22:00", "07:00")).toBe(false);
    expect(inQuietHours(at("23:30"), "22:00", null)).toBe(false);
    expect(minutesOfDay("24:00")).toBeNull();
    expect(minutesOfDay("07:05")).toBe(425);
  });
});

describe("retry backoff", () => {
  it("30 s, doubling, at most 15 minutes", () => {
    expect([1, 2, 3, 4, 5, 6, 7].map(retryDelaySeconds)).toEqual([30, 60, 120, 240, 480, 900, 900]);
  });
});
