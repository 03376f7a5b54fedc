import { describe, expect, it } from "vitest";
import {
  alertText,
  CHAT_ID,
  combinedText,
  fitMessage,
  inQuietHours,
  isAlertTopic,
  MAX_MESSAGE_LENGTH,
  minutesOfDay,
  retryDelaySeconds,
  vientianeMinutes,
  type AlertEvent,
} from "../../workers/core/alerts";
import { formatMoney } from "../../workers/core/format";

/** Staff alerts' pure rules (decision 057): the messages, quiet hours on Vientiane's clock, the backoff. */

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

/** Every kind of event the owner can turn on, as staff read it in the group. */
describe("what each alert says", () => {
  const origin = "https://play.example.la";
  // 10:00 in Vientiane
  const now = Date.parse("2026-11-27T03:00:00.000Z");
  const minutesAgo = (m: number) => new Date(now - m * 60_000).toISOString();

  it("a withdrawal still waiting is a reminder; with no bank on file the bank line is left out rather than printed empty", () => {
    const reminder: AlertEvent = {
      id: "withdrawal.reminder:W 7/8",
      kind: "withdrawal.reminder",
      facts: { ...waiting.facts, code: "W 7/8", bankCode: null, accountMasked: null, createdAt: minutesAgo(42) },
    };
    expect(alertText(reminder, "lo", origin, now).split("\n")).toEqual([
      "⏰ ການຖອນຍັງລໍຖ້າຢູ່",
      "₭3.480.000 (฿6.000,00) · somchai",
      "W 7/8 · ລໍຖ້າ 42 ນາທີ",
      // the code is escaped so the link opens the right withdrawal
      `${origin}/admin/withdrawals/W%207%2F8`,
    ]);
  });

  it("a bank code the portal does not know is still shown as given, and a clock ahead of the portal never shows a negative wait", () => {
    const text = alertText(
      { ...waiting, facts: { ...waiting.facts, bankCode: "XYZBANK", accountMasked: null, createdAt: new Date(now + 5 * 60_000).toISOString() } },
      "vn",
      origin,
      now,
    );
    expect(text.split("\n")[2]).toBe("XYZBANK");
    expect(text).toContain("W1 · đã chờ 0 phút");
  });

  it("the daily summary: the day as dd/mm/yyyy, yesterday's money and players, what still waits, a link to the dashboard", () => {
    const summary: AlertEvent<"summary.daily"> = {
      id: "summary.daily:2026-11-26",
      kind: "summary.daily",
      facts: {
        date: "2026-11-26",
        depositCount: 12,
        depositLak: "4500000.00",
        withdrawCount: 3,
        withdrawLakPaid: "1200000.00",
        newPlayers: 5,
        firstDeposits: 2,
        waitingWithdrawals: 1,
        waitingDeposits: 0,
        unmatchedPayments: 4,
      },
    };
    expect(alertText(summary, "lo", origin, now).split("\n")).toEqual([
      "📊 ສະຫຼຸບປະຈຳວັນ 26/11/2026",
      "ຝາກ: 12 · ₭4.500.000",
      "ຖອນ (ຈ່າຍແລ້ວ): 3 · ₭1.200.000",
      "ຜູ້ຫຼິ້ນໃໝ່: 5 · ຝາກຄັ້ງທຳອິດ: 2",
      "ລໍຖ້າຢູ່: ຖອນ 1 · ຝາກ 0 · ການຊຳລະບໍ່ກົງ 4",
      `${origin}/admin`,
    ]);
    expect(alertText(summary, "cn", origin, now)).toContain("等待中：提款 1 · 存款 0 · 未匹配付款 4");
  });

  it("a payment that matched no order: amount, reason and channel on one line, its reference below, a link to the payments page", () => {
    const unmatched: AlertEvent<"payment.unmatched"> = {
      id: "payment.unmatched:P1",
      kind: "payment.unmatched",
      facts: { id: "P1", reason: "UNKNOWN_REFERENCE", amountLak: "250000.00", reference: "REF-991", channelCode: "BCEL-1", receivedAt: minutesAgo(1) },
    };
    expect(alertText(unmatched, "lo", origin, now).split("\n")).toEqual([
      "❓ ການຊຳລະທີ່ບໍ່ກົງກັບຄຳສັ່ງ",
      "₭250.000 · UNKNOWN_REFERENCE · BCEL-1",
      "REF-991",
      `${origin}/admin/payments`,
    ]);
    // with no amount, channel or reference known, only the reason is said (no "₭0", no empty line)
    const bare = alertText({ ...unmatched, facts: { ...unmatched.facts, amountLak: null, reference: null, channelCode: null } }, "lo", origin, now);
    expect(bare.split("\n")).toEqual(["❓ ການຊຳລະທີ່ບໍ່ກົງກັບຄຳສັ່ງ", "UNKNOWN_REFERENCE", `${origin}/admin/payments`]);
  });

  it("a forwarder credit held above its channel's cap links to the forwarder page where staff confirm it", () => {
    const held: AlertEvent = {
      id: "payment.held:H1",
      kind: "payment.held",
      facts: { id: "H1", amountLak: "9000000.00", channelCode: "LDB-2", receivedAt: minutesAgo(2) },
    };
    expect(alertText(held, "vn", origin, now).split("\n")).toEqual([
      "✋ Tiền vào vượt hạn mức tự động: chờ nhân viên xác nhận",
      "₭9.000.000 · LDB-2",
      `${origin}/admin/forwarder`,
    ]);
  });

  it("a bank debit that may pay several withdrawals names them and links to the first, where the cashier chooses", () => {
    const event: AlertEvent = {
      id: "withdrawal.debit-candidates:BCEL-1:forwarder:D1",
      kind: "withdrawal.debit-candidates",
      facts: { channelCode: "BCEL-1", transferId: "D1", amountLak: "500000.00", codes: ["W261202AAAAA", "W261202BBBBB"] },
    };
    expect(alertText(event, "cn", origin, now).split("\n")).toEqual([
      "🔎 一笔银行出账可能是 2 笔提款之一的付款：请员工选择",
      "₭500.000 · BCEL-1 · D1",
      "W261202AAAAA · W261202BBBBB",
      `${origin}/admin/withdrawals/W261202AAAAA`,
    ]);
  });

  it("a player's slip (decision 087) says the amount, player, order, ticket and reference, the other order of a conflict, and links to the queue", () => {
    const slip: AlertEvent<"deposit.slip"> = {
      id: "deposit.slip:S1",
      kind: "deposit.slip",
      facts: { orderCode: "D251201ABCDE", username: "somchai", amountLak: "100123.00", ticket: "T77", reference: "FT25335X", otherOrders: [] },
    };
    expect(alertText(slip, "lo", origin, now).split("\n")).toEqual([
      "🧾 ຜູ້ຫຼິ້ນສົ່ງສະລິບການໂອນ: ກວດສອບກ່ອນເຕີມເຄຣດິດ",
      "₭100.123 · somchai · D251201ABCDE",
      "T77 · FT25335X",
      `${origin}/admin/deposits/open`,
    ]);
    const conflict = alertText({ ...slip, facts: { ...slip.facts, otherOrders: ["D251130ZZZZZ"] } }, "cn", origin, now);
    expect(conflict.split("\n")).toContain("⚠️ 同一张凭证也在订单 D251130ZZZZZ 上");
  });

  it("paid deposits waiting for their provider link to the paid deposits list", () => {
    const text = alertText({ id: "deposits.waiting:x", kind: "deposits.waiting", facts: { count: 3, oldestMinutes: 17 } }, "cn", origin, now);
    expect(text.split("\n")).toEqual(["⏳ 3 笔已付款存款等待游戏商（最长 17 分钟）", `${origin}/admin/deposits?status=PAID`]);
  });

  it("a provider failing says its timeouts and errors; its recovery says how long the outage lasted, counted when sent", () => {
    const failing = alertText({ id: "pf", kind: "provider.failing", facts: { provider: "betflix", timeouts: 4, errors: 2 } }, "lo", origin, now);
    expect(failing.split("\n")).toEqual(["⚠️ betflix ຂັດຂ້ອງ: ໝົດເວລາ 4 · ຜິດພາດ 2 ໃນ 15 ນາທີ", `${origin}/admin`]);
    const recovered = alertText({ id: "pr", kind: "provider.recovered", facts: { provider: "betflix", since: minutesAgo(25) } }, "vn", origin, now);
    expect(recovered.split("\n")).toEqual(["✅ betflix đã hoạt động lại (sự cố 25 phút)", `${origin}/admin`]);
  });

  it("a silent forwarder says for how long, or that it never sent anything at all", () => {
    const silent = alertText(
      { id: "fs", kind: "forwarder.silent", facts: { channelCode: "BCEL-1", silenceMinutes: 30, lastMessageAt: minutesAgo(31) } },
      "lo",
      origin,
      now,
    );
    // the age is counted when the message goes, not when the event was raised
    expect(silent.split("\n")).toEqual(["📵 ຕົວສົ່ງຕໍ່ແຈ້ງເຕືອນຂອງ BCEL-1 ງຽບ 31 ນາທີ", `${origin}/admin/forwarder`]);
    const never = alertText(
      { id: "fn", kind: "forwarder.silent", facts: { channelCode: "BCEL-1", silenceMinutes: 30, lastMessageAt: null } },
      "cn",
      origin,
      now,
    );
    expect(never.split("\n")).toEqual(["📵 BCEL-1 的通知转发器从未发送过消息", `${origin}/admin/forwarder`]);
  });

  it("a staff login from a new device names the staff member, the IP and the start of the browser, with a link to the audit log", () => {
    const userAgent = `Mozilla/5.0 ${"x".repeat(200)}`;
    const text = alertText(
      { id: "nd", kind: "staff.new-device", facts: { username: "cashier1", ip: "203.0.113.9", userAgent, at: minutesAgo(1) } },
      "lo",
      origin,
      now,
    );
    const [title, device, link] = text.split("\n");
    expect(title).toBe("🔐 cashier1 ເຂົ້າລະບົບຫຼັງບ້ານຈາກອຸປະກອນໃໝ່");
    expect(device).toBe(`203.0.113.9 · ${userAgent.slice(0, 80)}`);
    expect(link).toBe(`${origin}/admin/audit`);
    // no browser known: the IP alone
    const ipOnly = alertText(
      { id: "nd2", kind: "staff.new-device", facts: { username: "cashier1", ip: "203.0.113.9", userAgent: null, at: minutesAgo(1) } },
      "lo",
      origin,
      now,
    );
    expect(ipOnly.split("\n")[1]).toBe("203.0.113.9");
  });

  it("an API token created, rotated or revoked says who did it; a change made through the API itself says API", () => {
    const change = (c: "created" | "rotated" | "revoked", by: string | null) =>
      alertText({ id: `t-${c}`, kind: "api-token.changed", facts: { change: c, name: "ledger sync", by, at: minutesAgo(1) } }, "vn", origin, now).split("\n");
    expect(change("created", "owner1")).toEqual(['🔑 owner1 đã tạo token API "ledger sync"', `${origin}/admin/audit`]);
    expect(change("rotated", "owner1")[0]).toBe('🔑 owner1 đã đổi token API "ledger sync"');
    expect(change("revoked", null)[0]).toBe('🔑 API đã thu hồi token API "ledger sync"');
  });

  it("a claim held for staff (decision 094) names the player, the reward and its amount, and links to the holds page", () => {
    const held = (kind: string, amount: string | null) =>
      ({
        id: "reward.held:7",
        kind: "reward.held",
        facts: { playerId: "p-2", username: "somchai2", kind, rewardKey: `${kind}:welcome`, amount, at: minutesAgo(1) },
      }) as const;
    expect(alertText(held("PROMOTION", "150.00"), "lo", origin, now).split("\n")).toEqual([
      "⏸️ ໂບນັດໂປຣໂມຊັນ ຂອງ somchai2 ຖືກກັກໄວ້ກວດສອບ: ບັນຊີທີ່ເຊື່ອມໂຍງໄດ້ຮັບກ່ອນ",
      `${formatMoney("150.00", "THB")} · PROMOTION:welcome`,
      `${origin}/admin/holds`,
    ]);
    expect(alertText(held("CASHBACK", null), "cn", origin, now).split("\n")).toEqual([
      "⏸️ somchai2 的返水已暂扣待审核：关联账户已先领取",
      "CASHBACK:welcome",
      `${origin}/admin/holds`,
    ]);
    expect(alertText(held("STREAK", null), "vn", origin, now).split("\n")[0]).toBe(
      "⏸️ Thưởng nạp liên tiếp của somchai2 bị giữ lại để kiểm tra: một tài khoản liên kết đã nhận trước",
    );
  });

  it("a registration burst says how many from one device or one address, and links to the new player's page", () => {
    const burst = (by: "device" | "address", count: number) =>
      ({ id: `b-${by}`, kind: "player.registration-burst", facts: { playerId: "p 3", username: "ring3", by, count, at: minutesAgo(1) } }) as const;
    expect(alertText(burst("device", 3), "lo", origin, now).split("\n")).toEqual([
      "👥 ring3: ການລົງທະບຽນທີ 3 ຈາກອຸປະກອນດຽວກັນໃນ 24 ຊົ່ວໂມງ",
      `${origin}/admin/players/p%203`,
    ]);
    expect(alertText(burst("address", 10), "cn", origin, now).split("\n")[0]).toBe("👥 ring3：同一 IP 地址一小时内第 10 次注册，该地址之后的注册需等待");
    expect(alertText(burst("device", 4), "vn", origin, now).split("\n")[0]).toBe("👥 ring3: lần đăng ký thứ 4 từ cùng một thiết bị trong 24 giờ");
  });

  it("the quiet hours' digest counts what was held and lists each message, with no link of its own", () => {
    const text = alertText({ id: "d", kind: "digest", facts: { count: 2, texts: ["first", "second"] } }, "lo", origin, now);
    expect(text).toBe("🔕 2 ແຈ້ງເຕືອນໃນຊ່ວງງຽບ\n\nfirst\n\nsecond");
  });

  it("the owner's test message names the agency and has no link", () => {
    expect(alertText({ id: "t", kind: "test", facts: { agencyName: "Demo Agency" } }, "cn", origin, now)).toBe(
      "✅ 来自 Demo Agency 的测试消息：提醒已送达本群",
    );
  });

  it("one event alone for a chat is sent as itself, with no count header", () => {
    expect(combinedText([waiting], "lo", origin, now)).toBe(alertText(waiting, "lo", origin, now));
  });

  it("a message cut at Telegram's limit counts the rest in the chat's language", () => {
    const long = combinedText(
      Array.from({ length: 60 }, (_, i) => ({ ...waiting, id: `w${i}`, facts: { ...waiting.facts, code: `W${i}`.padEnd(90, "0") } })),
      "cn",
      origin,
      now,
    );
    expect(long.length).toBeLessThanOrEqual(MAX_MESSAGE_LENGTH);
    expect(long.startsWith("🔔 60\n\n")).toBe(true);
    expect(long).toMatch(/… 另有 \d+ 条$/);
  });
});

describe("alerts in each of the owner's languages", () => {
  const origin = "https://x";
  const now = Date.parse("2026-11-27T03:00:00.000Z");
  const ago = new Date(now - 12 * 60_000).toISOString();
  // one event of every kind, with facts that must show in the text whatever the language
  const samples: [AlertEvent, string[]][] = [
    [waiting, ["W1", "somchai"]],
    [{ ...waiting, id: "r", kind: "withdrawal.reminder" }, ["W1", "somchai"]],
    [
      {
        id: "s",
        kind: "summary.daily",
        facts: {
          date: "2026-11-26",
          depositCount: 12,
          depositLak: "1.00",
          withdrawCount: 3,
          withdrawLakPaid: "1.00",
          newPlayers: 5,
          firstDeposits: 2,
          waitingWithdrawals: 7,
          waitingDeposits: 8,
          unmatchedPayments: 9,
        },
      },
      ["26/11/2026", "12", "7", "8", "9"],
    ],
    [
      { id: "u", kind: "payment.unmatched", facts: { id: "P", reason: "LATE", amountLak: "5.00", reference: "R9", channelCode: "C1", receivedAt: ago } },
      ["LATE", "R9", "C1"],
    ],
    [{ id: "h", kind: "payment.held", facts: { id: "H", amountLak: "5.00", channelCode: "C1", receivedAt: ago } }, ["C1"]],
    [{ id: "dw", kind: "deposits.waiting", facts: { count: 4, oldestMinutes: 33 } }, ["4", "33"]],
    [{ id: "pf", kind: "provider.failing", facts: { provider: "gclub", timeouts: 6, errors: 2 } }, ["gclub", "6", "2"]],
    [{ id: "pr", kind: "provider.recovered", facts: { provider: "gclub", since: ago } }, ["gclub", "12"]],
    [{ id: "fs", kind: "forwarder.silent", facts: { channelCode: "C1", silenceMinutes: 10, lastMessageAt: ago } }, ["C1", "12"]],
    [{ id: "fn", kind: "forwarder.silent", facts: { channelCode: "C1", silenceMinutes: 10, lastMessageAt: null } }, ["C1"]],
    [{ id: "nd", kind: "staff.new-device", facts: { username: "cashier1", ip: "203.0.113.9", userAgent: null, at: ago } }, ["cashier1", "203.0.113.9"]],
    ...(["created", "rotated", "revoked"] as const).map((change): [AlertEvent, string[]] => [
      { id: change, kind: "api-token.changed", facts: { change, name: "sync", by: "owner1", at: ago } },
      ["sync", "owner1"],
    ]),
    [{ id: "d", kind: "digest", facts: { count: 3, texts: ["one"] } }, ["3", "one"]],
    [{ id: "t", kind: "test", facts: { agencyName: "Demo Agency" } }, ["Demo Agency"]],
  ];

  it.each(samples.map(([event, facts]) => [`${event.kind} ${event.id}`, event, facts] as const))(
    "%s: each language says it in its own words, with the event's facts",
    (_name, event, facts) => {
      const texts = (["lo", "cn", "vn"] as const).map((language) => alertText(event, language, origin, now));
      for (const text of texts) for (const fact of facts) expect(text).toContain(fact);
      // a text left in another language (or the same words for all three) would read the same
      expect(new Set(texts).size).toBe(3);
    },
  );

  it("a cut message counts the rest in Vietnamese too", () => {
    const texts = Array.from({ length: 80 }, (_, i) => `${i} `.padEnd(100, "x"));
    expect(combinedText([waiting], "vn", origin, now)).not.toContain("🔔");
    const cut = alertText({ id: "d", kind: "digest", facts: { count: 80, texts } }, "vn", origin, now);
    expect(cut.length).toBeLessThanOrEqual(MAX_MESSAGE_LENGTH);
    expect(cut).toMatch(/… và \d+ nữa$/);
  });
});

describe("alert settings' rules", () => {
  it("only the six topics the owner can turn on are topics", () => {
    expect(["withdrawals", "payments", "providers", "forwarder", "security", "summary"].every(isAlertTopic)).toBe(true);
    expect(isAlertTopic("digest")).toBe(false);
    expect(isAlertTopic(1)).toBe(false);
  });

  it("quiet hours that start and end at the same minute are no quiet hours at all", () => {
    expect(inQuietHours(at("12:00"), "12:00", "12:00")).toBe(false);
    expect(inQuietHours(at("03:00"), "12:00", "12:00")).toBe(false);
  });

  it("the Vientiane clock is UTC+7 and wraps at midnight", () => {
    expect(vientianeMinutes(Date.parse("2026-11-27T16:59:00.000Z"))).toBe(23 * 60 + 59);
    expect(vientianeMinutes(Date.parse("2026-11-27T17:00:00.000Z"))).toBe(0);
  });

  it("a chat is a numeric id (a group's is negative) or an @channel name of 5 to 32 characters", () => {
    for (const ok of ["-1001234567890", "123456789", "@agency_staff"]) expect(CHAT_ID.test(ok), ok).toBe(true);
    for (const bad of ["@abc", "@1channel", "group", "-", "https://t.me/agency_staff", "-100 123"]) expect(CHAT_ID.test(bad), bad).toBe(false);
  });
});
