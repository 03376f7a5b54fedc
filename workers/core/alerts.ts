import { findBank } from "./banks";
import { formatMoney } from "./format";
import type { Language } from "./languages";
import { vientianeMinutes } from "./vientiane";

/**
 * Staff alerts (decision 057): what an event says, in the language the owner chose, and the rules
 * of when it goes. Pure: the queue, D1 and Telegram are services/alerts/alerts.ts's and the port's.
 */

/** What the owner turns on or off; each event kind belongs to one. */
export const ALERT_TOPICS = ["withdrawals", "payments", "providers", "forwarder", "security", "summary"] as const;
export type AlertTopic = (typeof ALERT_TOPICS)[number];

export function isAlertTopic(value: unknown): value is AlertTopic {
  return typeof value === "string" && (ALERT_TOPICS as readonly string[]).includes(value);
}

/** The facts each event kind carries (amounts as decimal strings, accounts already masked). */
export type AlertFacts = {
  "withdrawal.waiting": {
    code: string;
    username: string;
    credit: string;
    receivedLak: string;
    bankCode: string | null;
    accountMasked: string | null;
    createdAt: string;
  };
  "withdrawal.reminder": {
    code: string;
    username: string;
    credit: string;
    receivedLak: string;
    bankCode: string | null;
    accountMasked: string | null;
    createdAt: string;
  };
  /** a bank debit that may be the payout of several withdrawals (decision 084): the cashier chooses */
  "withdrawal.debit-candidates": { channelCode: string; transferId: string; amountLak: string; codes: string[] };
  "summary.daily": {
    date: string;
    depositCount: number;
    depositLak: string;
    withdrawCount: number;
    withdrawLakPaid: string;
    newPlayers: number;
    firstDeposits: number;
    waitingWithdrawals: number;
    waitingDeposits: number;
    unmatchedPayments: number;
  };
  "payment.unmatched": { id: string; reason: string; amountLak: string | null; reference: string | null; channelCode: string | null; receivedAt: string };
  "payment.held": { id: string; amountLak: string; channelCode: string; receivedAt: string };
  /** one bank transfer that two credits paid (decision 069): the owner settles the surplus */
  "payment.twice": { channelCode: string; transferId: string; amountLak: string; codes: string[] };
  /** a report that shared a credited transfer turned out to be a second payment: it waits in the queue */
  "payment.uncovered": { channelCode: string; transferId: string; amountLak: string; bankTime: string };
  /** a player added a transfer slip to a deposit (decision 087): a claim to check, never a credit */
  "deposit.slip": { orderCode: string; username: string; amountLak: string; ticket: string; reference: string; otherOrders: string[] };
  "deposits.waiting": { count: number; oldestMinutes: number };
  "provider.failing": { provider: string; timeouts: number; errors: number };
  "provider.recovered": { provider: string; since: string };
  "forwarder.silent": { channelCode: string; silenceMinutes: number; lastMessageAt: string | null };
  "staff.new-device": { username: string; ip: string | null; userAgent: string | null; at: string };
  "api-token.changed": { change: "created" | "rotated" | "revoked"; name: string; by: string | null; at: string };
  /** a player an owner's "flag" blocklist entry matched (decision 090): where, and which kinds of value */
  "player.blocklisted": { playerId: string; username: string | null; checkpoint: "registration" | "bank-add" | "bank-replace"; kinds: string[]; at: string };
  /** a claim held for staff (decision 094): a linked account had the same reward first; `kind` a hold kind (core/holds.ts) */
  "reward.held": { playerId: string; username: string | null; kind: string; rewardKey: string; amount: string | null; at: string };
  /** a registration flagged: its device's third account of the day or more, or the one that used up its address's hour */
  "player.registration-burst": { playerId: string; username: string | null; by: "device" | "address"; count: number; at: string };
  digest: { count: number; texts: string[] };
  test: { agencyName: string };
};
export type AlertKind = keyof AlertFacts;

export const ALERT_KIND_TOPIC: Record<AlertKind, AlertTopic | null> = {
  "withdrawal.waiting": "withdrawals",
  "withdrawal.reminder": "withdrawals",
  "withdrawal.debit-candidates": "withdrawals",
  "summary.daily": "summary",
  "payment.unmatched": "payments",
  "payment.held": "payments",
  "payment.twice": "payments",
  "payment.uncovered": "payments",
  "deposit.slip": "payments",
  "deposits.waiting": "providers",
  "provider.failing": "providers",
  "provider.recovered": "providers",
  "forwarder.silent": "forwarder",
  "staff.new-device": "security",
  "api-token.changed": "security",
  "player.blocklisted": "security",
  "reward.held": "security",
  "player.registration-burst": "security",
  // a digest carries events already chosen; a test message is asked for by the owner
  digest: null,
  test: null,
};

/** One event of one agency, as raised: `id` names the event itself, so raising it twice is one event. */
export type AlertEvent<K extends AlertKind = AlertKind> = { id: string; kind: K; facts: AlertFacts[K] };

/** Telegram refuses a text longer than 4096 characters. */
export const MAX_MESSAGE_LENGTH = 4096;

type Texts = {
  waiting: string;
  reminder: string;
  debitCandidates: (count: number) => string;
  waitedMinutes: (minutes: number) => string;
  summary: string;
  deposits: string;
  withdrawals: string;
  newPlayers: string;
  firstDeposits: string;
  stillWaiting: (w: number, d: number, p: number) => string;
  digest: (count: number) => string;
  test: (agency: string) => string;
  more: (count: number) => string;
  unmatched: string;
  held: string;
  twice: string;
  uncovered: string;
  slip: string;
  slipConflict: (codes: string) => string;
  depositsWaiting: (count: number, minutes: number) => string;
  providerFailing: (provider: string, timeouts: number, errors: number) => string;
  providerRecovered: (provider: string, minutes: number) => string;
  forwarderSilent: (channel: string, minutes: number) => string;
  forwarderNever: (channel: string) => string;
  newDevice: (username: string) => string;
  apiToken: Record<"created" | "rotated" | "revoked", (name: string, by: string) => string>;
  blocklisted: (who: string, where: "registration" | "bank-add" | "bank-replace", kinds: string) => string;
  blocklistKinds: Record<string, string>;
  rewardHeld: (who: string, what: string) => string;
  holdKinds: Record<string, string>;
  registrationBurst: Record<"device" | "address", (who: string, count: number) => string>;
};

const TEXTS: Record<Language, Texts> = {
  lo: {
    waiting: "💸 ການຖອນລໍຖ້າພະນັກງານ",
    reminder: "⏰ ການຖອນຍັງລໍຖ້າຢູ່",
    debitCandidates: (n) => `🔎 ເງິນອອກຈາກບັນຊີອາດເປັນການຈ່າຍຂອງ ${n} ການຖອນ: ພະນັກງານເລືອກອັນທີ່ຖືກ`,
    waitedMinutes: (m) => `ລໍຖ້າ ${m} ນາທີ`,
    summary: "📊 ສະຫຼຸບປະຈຳວັນ",
    deposits: "ຝາກ",
    withdrawals: "ຖອນ (ຈ່າຍແລ້ວ)",
    newPlayers: "ຜູ້ຫຼິ້ນໃໝ່",
    firstDeposits: "ຝາກຄັ້ງທຳອິດ",
    stillWaiting: (w, d, p) => `ລໍຖ້າຢູ່: ຖອນ ${w} · ຝາກ ${d} · ການຊຳລະບໍ່ກົງ ${p}`,
    digest: (n) => `🔕 ${n} ແຈ້ງເຕືອນໃນຊ່ວງງຽບ`,
    test: (agency) => `✅ ຂໍ້ຄວາມທົດສອບຈາກ ${agency}: ແຈ້ງເຕືອນມາຮອດກຸ່ມນີ້ແລ້ວ`,
    more: (n) => `… ແລະ ອີກ ${n}`,
    unmatched: "❓ ການຊຳລະທີ່ບໍ່ກົງກັບຄຳສັ່ງ",
    held: "✋ ເງິນເຂົ້າເກີນຂີດຈຳກັດອັດຕະໂນມັດ: ລໍຖ້າພະນັກງານຢືນຢັນ",
    twice: "‼️ ການໂອນດຽວຖືກເຕີມເຄຣດິດສອງເທື່ອ: ເຈົ້າຂອງຕ້ອງແກ້ໄຂ",
    uncovered: "⚠️ ພົບການຈ່າຍຄັ້ງທີສອງທີ່ບໍ່ໄດ້ເຕີມເຄຣດິດ: ລໍຖ້າໃນລາຍການຊຳລະ",
    slip: "🧾 ຜູ້ຫຼິ້ນສົ່ງສະລິບການໂອນ: ກວດສອບກ່ອນເຕີມເຄຣດິດ",
    slipConflict: (codes) => `⚠️ ສະລິບດຽວກັນຢູ່ໃນຄຳສັ່ງ ${codes} ນຳ`,
    depositsWaiting: (n, m) => `⏳ ${n} ການຝາກຈ່າຍແລ້ວ ລໍຖ້າຜູ້ໃຫ້ບໍລິການ (ດົນສຸດ ${m} ນາທີ)`,
    providerFailing: (p, t, e) => `⚠️ ${p} ຂັດຂ້ອງ: ໝົດເວລາ ${t} · ຜິດພາດ ${e} ໃນ 15 ນາທີ`,
    providerRecovered: (p, m) => `✅ ${p} ກັບມາເຮັດວຽກແລ້ວ (ຂັດຂ້ອງ ${m} ນາທີ)`,
    forwarderSilent: (c, m) => `📵 ຕົວສົ່ງຕໍ່ແຈ້ງເຕືອນຂອງ ${c} ງຽບ ${m} ນາທີ`,
    forwarderNever: (c) => `📵 ຕົວສົ່ງຕໍ່ແຈ້ງເຕືອນຂອງ ${c} ຍັງບໍ່ເຄີຍສົ່ງຂໍ້ຄວາມ`,
    newDevice: (u) => `🔐 ${u} ເຂົ້າລະບົບຫຼັງບ້ານຈາກອຸປະກອນໃໝ່`,
    apiToken: {
      created: (n, b) => `🔑 ${b} ສ້າງໂທເຄັນ API "${n}"`,
      rotated: (n, b) => `🔑 ${b} ປ່ຽນລະຫັດໂທເຄັນ API "${n}"`,
      revoked: (n, b) => `🔑 ${b} ຍົກເລີກໂທເຄັນ API "${n}"`,
    },
    blocklisted: (u, w, k) =>
      `🚩 ${u} ກົງກັບບັນຊີດຳ (${k}) ${{ registration: "ຕອນລົງທະບຽນ", "bank-add": "ຕອນເພີ່ມບັນຊີທະນາຄານ", "bank-replace": "ຕອນປ່ຽນບັນຊີທະນາຄານ" }[w]}`,
    blocklistKinds: { bank: "ບັນຊີທະນາຄານ", holder: "ຊື່ເຈົ້າຂອງບັນຊີ", phone: "ເບີໂທ", device: "ອຸປະກອນ" },
    rewardHeld: (u, w) => `⏸️ ${w} ຂອງ ${u} ຖືກກັກໄວ້ກວດສອບ: ບັນຊີທີ່ເຊື່ອມໂຍງໄດ້ຮັບກ່ອນ`,
    holdKinds: { PROMOTION: "ໂບນັດໂປຣໂມຊັນ", CASHBACK: "ເງິນຄືນ", REFERRAL: "ລາຍໄດ້ແນະນຳໝູ່", CHECKIN: "ລາງວັນເຊັກອິນ", STREAK: "ລາງວັນຝາກຕໍ່ເນື່ອງ" },
    registrationBurst: {
      device: (u, n) => `👥 ${u}: ການລົງທະບຽນທີ ${n} ຈາກອຸປະກອນດຽວກັນໃນ 24 ຊົ່ວໂມງ`,
      address: (u, n) => `👥 ${u}: ການລົງທະບຽນທີ ${n} ຈາກທີ່ຢູ່ IP ດຽວກັນໃນໜຶ່ງຊົ່ວໂມງ: ການລົງທະບຽນຕໍ່ໄປຈາກບ່ອນນັ້ນຕ້ອງລໍຖ້າ`,
    },
  },
  cn: {
    waiting: "💸 提款等待员工处理",
    reminder: "⏰ 提款仍在等待",
    debitCandidates: (n) => `🔎 一笔银行出账可能是 ${n} 笔提款之一的付款：请员工选择`,
    waitedMinutes: (m) => `已等待 ${m} 分钟`,
    summary: "📊 每日汇总",
    deposits: "存款",
    withdrawals: "提款（已付）",
    newPlayers: "新玩家",
    firstDeposits: "首存",
    stillWaiting: (w, d, p) => `等待中：提款 ${w} · 存款 ${d} · 未匹配付款 ${p}`,
    digest: (n) => `🔕 免打扰时段内的 ${n} 条提醒`,
    test: (agency) => `✅ 来自 ${agency} 的测试消息：提醒已送达本群`,
    more: (n) => `… 另有 ${n} 条`,
    unmatched: "❓ 未匹配订单的付款",
    held: "✋ 超过自动上限的入账：等待员工确认",
    twice: "‼️ 同一笔转账被入账两次：需店主处理",
    uncovered: "⚠️ 发现未入账的第二笔付款：已在付款队列等待",
    slip: "🧾 玩家提交了转账凭证：核实后再入账",
    slipConflict: (codes) => `⚠️ 同一张凭证也在订单 ${codes} 上`,
    depositsWaiting: (n, m) => `⏳ ${n} 笔已付款存款等待游戏商（最长 ${m} 分钟）`,
    providerFailing: (p, t, e) => `⚠️ ${p} 故障：15 分钟内超时 ${t} · 错误 ${e}`,
    providerRecovered: (p, m) => `✅ ${p} 已恢复（故障 ${m} 分钟）`,
    forwarderSilent: (c, m) => `📵 ${c} 的通知转发器已静默 ${m} 分钟`,
    forwarderNever: (c) => `📵 ${c} 的通知转发器从未发送过消息`,
    newDevice: (u) => `🔐 ${u} 从新设备登录后台`,
    apiToken: {
      created: (n, b) => `🔑 ${b} 创建了 API 令牌“${n}”`,
      rotated: (n, b) => `🔑 ${b} 轮换了 API 令牌“${n}”`,
      revoked: (n, b) => `🔑 ${b} 撤销了 API 令牌“${n}”`,
    },
    blocklisted: (u, w, k) => `🚩 ${u} ${{ registration: "注册时", "bank-add": "添加银行账户时", "bank-replace": "更换银行账户时" }[w]}匹配黑名单（${k}）`,
    blocklistKinds: { bank: "银行账户", holder: "户名", phone: "电话", device: "设备" },
    rewardHeld: (u, w) => `⏸️ ${u} 的${w}已暂扣待审核：关联账户已先领取`,
    holdKinds: { PROMOTION: "优惠奖金", CASHBACK: "返水", REFERRAL: "推荐奖励", CHECKIN: "签到奖励", STREAK: "连续存款奖励" },
    registrationBurst: {
      device: (u, n) => `👥 ${u}：同一设备 24 小时内第 ${n} 次注册`,
      address: (u, n) => `👥 ${u}：同一 IP 地址一小时内第 ${n} 次注册，该地址之后的注册需等待`,
    },
  },
  vn: {
    waiting: "💸 Lệnh rút chờ nhân viên",
    reminder: "⏰ Lệnh rút vẫn đang chờ",
    debitCandidates: (n) => `🔎 Một khoản tiền ra có thể là khoản trả của ${n} lệnh rút: nhân viên chọn lệnh đúng`,
    waitedMinutes: (m) => `đã chờ ${m} phút`,
    summary: "📊 Tổng kết ngày",
    deposits: "Nạp",
    withdrawals: "Rút (đã trả)",
    newPlayers: "Người chơi mới",
    firstDeposits: "Nạp lần đầu",
    stillWaiting: (w, d, p) => `Đang chờ: rút ${w} · nạp ${d} · thanh toán chưa khớp ${p}`,
    digest: (n) => `🔕 ${n} cảnh báo trong giờ yên lặng`,
    test: (agency) => `✅ Tin nhắn thử từ ${agency}: cảnh báo đã đến nhóm này`,
    more: (n) => `… và ${n} nữa`,
    unmatched: "❓ Thanh toán không khớp lệnh nào",
    held: "✋ Tiền vào vượt hạn mức tự động: chờ nhân viên xác nhận",
    twice: "‼️ Một giao dịch được cộng điểm hai lần: chủ cần xử lý",
    uncovered: "⚠️ Phát hiện khoản thanh toán thứ hai chưa cộng điểm: đang chờ trong hàng thanh toán",
    slip: "🧾 Người chơi gửi biên lai chuyển khoản: kiểm tra trước khi cộng điểm",
    slipConflict: (codes) => `⚠️ Cùng biên lai này cũng có ở lệnh ${codes}`,
    depositsWaiting: (n, m) => `⏳ ${n} lệnh nạp đã trả đang chờ nhà cung cấp (lâu nhất ${m} phút)`,
    providerFailing: (p, t, e) => `⚠️ ${p} gặp sự cố: hết giờ ${t} · lỗi ${e} trong 15 phút`,
    providerRecovered: (p, m) => `✅ ${p} đã hoạt động lại (sự cố ${m} phút)`,
    forwarderSilent: (c, m) => `📵 Bộ chuyển tiếp của ${c} im lặng ${m} phút`,
    forwarderNever: (c) => `📵 Bộ chuyển tiếp của ${c} chưa từng gửi tin`,
    newDevice: (u) => `🔐 ${u} đăng nhập trang quản trị từ thiết bị mới`,
    apiToken: {
      created: (n, b) => `🔑 ${b} đã tạo token API "${n}"`,
      rotated: (n, b) => `🔑 ${b} đã đổi token API "${n}"`,
      revoked: (n, b) => `🔑 ${b} đã thu hồi token API "${n}"`,
    },
    blocklisted: (u, w, k) =>
      `🚩 ${u} trùng danh sách đen (${k}) ${{ registration: "khi đăng ký", "bank-add": "khi thêm tài khoản ngân hàng", "bank-replace": "khi đổi tài khoản ngân hàng" }[w]}`,
    blocklistKinds: { bank: "tài khoản ngân hàng", holder: "tên chủ tài khoản", phone: "số điện thoại", device: "thiết bị" },
    rewardHeld: (u, w) => `⏸️ ${w} của ${u} bị giữ lại để kiểm tra: một tài khoản liên kết đã nhận trước`,
    holdKinds: {
      PROMOTION: "Thưởng khuyến mãi",
      CASHBACK: "Hoàn tiền",
      REFERRAL: "Thưởng giới thiệu",
      CHECKIN: "Thưởng điểm danh",
      STREAK: "Thưởng nạp liên tiếp",
    },
    registrationBurst: {
      device: (u, n) => `👥 ${u}: lần đăng ký thứ ${n} từ cùng một thiết bị trong 24 giờ`,
      address: (u, n) => `👥 ${u}: lần đăng ký thứ ${n} từ cùng một địa chỉ IP trong một giờ: các lần đăng ký tiếp theo từ đó phải chờ`,
    },
  },
};

/** The link of an event's item at the agency's primary domain, or null when it has none. */
function alertLink(kind: AlertKind, facts: AlertFacts[AlertKind], origin: string): string | null {
  if (kind === "withdrawal.waiting" || kind === "withdrawal.reminder")
    return `${origin}/admin/withdrawals/${encodeURIComponent((facts as AlertFacts["withdrawal.waiting"]).code)}`;
  if (kind === "withdrawal.debit-candidates")
    return `${origin}/admin/withdrawals/${encodeURIComponent((facts as AlertFacts["withdrawal.debit-candidates"]).codes[0] ?? "")}`;
  if (kind === "staff.new-device" || kind === "api-token.changed") return `${origin}/admin/audit`;
  if (kind === "player.blocklisted" || kind === "player.registration-burst")
    return `${origin}/admin/players/${encodeURIComponent((facts as AlertFacts["player.blocklisted"]).playerId)}`;
  if (kind === "reward.held") return `${origin}/admin/holds`;
  if (kind === "payment.unmatched") return `${origin}/admin/payments`;
  if (kind === "payment.held") return `${origin}/admin/forwarder`;
  if (kind === "payment.twice") return `${origin}/admin/reconciliation`;
  if (kind === "payment.uncovered") return `${origin}/admin/payments`;
  if (kind === "deposit.slip") return `${origin}/admin/deposits/open`;
  if (kind === "deposits.waiting") return `${origin}/admin/deposits?status=PAID`;
  if (kind === "forwarder.silent") return `${origin}/admin/forwarder`;
  if (kind === "summary.daily" || kind === "provider.failing" || kind === "provider.recovered") return `${origin}/admin`;
  return null;
}

function minutesSince(iso: string, now: number): number {
  return Math.max(0, Math.floor((now - Date.parse(iso)) / 60_000));
}

function withdrawalLines(t: Texts, facts: AlertFacts["withdrawal.waiting"], now: number): string[] {
  const bank = facts.bankCode ? (findBank(facts.bankCode)?.code ?? facts.bankCode) : null;
  return [
    `${formatMoney(facts.receivedLak, "LAK")} (${formatMoney(facts.credit, "THB")}) · ${facts.username}`,
    [bank, facts.accountMasked].filter(Boolean).join(" ") || null,
    `${facts.code} · ${t.waitedMinutes(minutesSince(facts.createdAt, now))}`,
  ].filter((line): line is string => line !== null);
}

/** The message of one event, in `language`, at `now` (ages are counted when it is sent). */
export function alertText(event: AlertEvent, language: Language, origin: string, now: number): string {
  const t = TEXTS[language];
  const link = alertLink(event.kind, event.facts, origin);
  const lines: string[] = [];
  switch (event.kind) {
    case "withdrawal.waiting":
    case "withdrawal.reminder": {
      const facts = event.facts as AlertFacts["withdrawal.waiting"];
      lines.push(event.kind === "withdrawal.waiting" ? t.waiting : t.reminder, ...withdrawalLines(t, facts, now));
      break;
    }
    case "withdrawal.debit-candidates": {
      const f = event.facts as AlertFacts["withdrawal.debit-candidates"];
      lines.push(t.debitCandidates(f.codes.length), `${formatMoney(f.amountLak, "LAK")} · ${f.channelCode} · ${f.transferId}`, f.codes.join(" · "));
      break;
    }
    case "summary.daily": {
      const f = event.facts as AlertFacts["summary.daily"];
      lines.push(
        `${t.summary} ${f.date.split("-").reverse().join("/")}`,
        `${t.deposits}: ${f.depositCount} · ${formatMoney(f.depositLak, "LAK")}`,
        `${t.withdrawals}: ${f.withdrawCount} · ${formatMoney(f.withdrawLakPaid, "LAK")}`,
        `${t.newPlayers}: ${f.newPlayers} · ${t.firstDeposits}: ${f.firstDeposits}`,
        t.stillWaiting(f.waitingWithdrawals, f.waitingDeposits, f.unmatchedPayments),
      );
      break;
    }
    case "payment.unmatched": {
      const f = event.facts as AlertFacts["payment.unmatched"];
      lines.push(t.unmatched, [f.amountLak ? formatMoney(f.amountLak, "LAK") : null, f.reason, f.channelCode].filter(Boolean).join(" · "));
      if (f.reference) lines.push(f.reference);
      break;
    }
    case "payment.held": {
      const f = event.facts as AlertFacts["payment.held"];
      lines.push(t.held, `${formatMoney(f.amountLak, "LAK")} · ${f.channelCode}`);
      break;
    }
    case "payment.twice": {
      const f = event.facts as AlertFacts["payment.twice"];
      lines.push(t.twice, `${formatMoney(f.amountLak, "LAK")} · ${f.channelCode}`, f.codes.join(" + "));
      break;
    }
    case "payment.uncovered": {
      const f = event.facts as AlertFacts["payment.uncovered"];
      lines.push(t.uncovered, `${formatMoney(f.amountLak, "LAK")} · ${f.channelCode} · ${f.transferId}`);
      break;
    }
    case "deposit.slip": {
      const f = event.facts as AlertFacts["deposit.slip"];
      lines.push(t.slip, `${formatMoney(f.amountLak, "LAK")} · ${f.username} · ${f.orderCode}`, `${f.ticket} · ${f.reference}`);
      if (f.otherOrders.length > 0) lines.push(t.slipConflict(f.otherOrders.join(", ")));
      break;
    }
    case "deposits.waiting": {
      const f = event.facts as AlertFacts["deposits.waiting"];
      lines.push(t.depositsWaiting(f.count, f.oldestMinutes));
      break;
    }
    case "provider.failing": {
      const f = event.facts as AlertFacts["provider.failing"];
      lines.push(t.providerFailing(f.provider, f.timeouts, f.errors));
      break;
    }
    case "provider.recovered": {
      const f = event.facts as AlertFacts["provider.recovered"];
      lines.push(t.providerRecovered(f.provider, minutesSince(f.since, now)));
      break;
    }
    case "forwarder.silent": {
      const f = event.facts as AlertFacts["forwarder.silent"];
      lines.push(f.lastMessageAt === null ? t.forwarderNever(f.channelCode) : t.forwarderSilent(f.channelCode, minutesSince(f.lastMessageAt, now)));
      break;
    }
    case "staff.new-device": {
      const f = event.facts as AlertFacts["staff.new-device"];
      lines.push(t.newDevice(f.username), [f.ip, f.userAgent?.slice(0, 80)].filter(Boolean).join(" · "));
      break;
    }
    case "api-token.changed": {
      const f = event.facts as AlertFacts["api-token.changed"];
      lines.push(t.apiToken[f.change](f.name, f.by ?? "API"));
      break;
    }
    case "player.blocklisted": {
      const f = event.facts as AlertFacts["player.blocklisted"];
      lines.push(t.blocklisted(f.username ?? f.playerId.slice(0, 8), f.checkpoint, f.kinds.map((k) => t.blocklistKinds[k] ?? k).join(", ")));
      break;
    }
    case "reward.held": {
      const f = event.facts as AlertFacts["reward.held"];
      lines.push(t.rewardHeld(f.username ?? f.playerId.slice(0, 8), t.holdKinds[f.kind] ?? f.kind));
      lines.push([f.amount ? formatMoney(f.amount, "THB") : null, f.rewardKey].filter(Boolean).join(" · "));
      break;
    }
    case "player.registration-burst": {
      const f = event.facts as AlertFacts["player.registration-burst"];
      lines.push(t.registrationBurst[f.by](f.username ?? f.playerId.slice(0, 8), f.count));
      break;
    }
    case "digest": {
      const f = event.facts as AlertFacts["digest"];
      return fitMessage(t.digest(f.count), f.texts, t);
    }
    case "test":
      lines.push(t.test((event.facts as AlertFacts["test"]).agencyName));
      break;
  }
  if (link) lines.push(link);
  return lines.join("\n");
}

/**
 * Several messages as one (a queue batch for one chat, or the quiet hours' digest): a header,
 * then each message, cut at Telegram's 4096 characters with a count of what did not fit.
 */
export function fitMessage(header: string, texts: string[], t: Pick<Texts, "more"> = TEXTS.lo): string {
  const separator = "\n\n";
  let text = header;
  for (let i = 0; i < texts.length; i++) {
    const next = `${text}${separator}${texts[i]}`;
    const rest = texts.length - i - 1;
    const reserve = rest > 0 ? separator.length + t.more(rest).length : 0;
    if (next.length + reserve > MAX_MESSAGE_LENGTH) return `${text}${separator}${t.more(texts.length - i)}`;
    text = next;
  }
  return text;
}

/** Several events for one chat in one message (more than a group takes in a minute otherwise). */
export function combinedText(events: AlertEvent[], language: Language, origin: string, now: number): string {
  if (events.length === 1) return alertText(events[0], language, origin, now);
  const t = TEXTS[language];
  return fitMessage(
    `🔔 ${events.length}`,
    events.map((e) => alertText(e, language, origin, now)),
    t,
  );
}

const HH_MM = /^([01]\d|2[0-3]):([0-5]\d)$/;

/** "22:30" -> minutes after midnight, or null. */
export function minutesOfDay(text: string | null | undefined): number | null {
  const match = text ? HH_MM.exec(text) : null;
  return match ? Number(match[1]) * 60 + Number(match[2]) : null;
}

// The Vientiane clock's minutes after midnight, for the alerts' callers that import it from here.
export { vientianeMinutes };

/** Whether `now` falls in quiet hours [start, end) on Vientiane's clock; start > end wraps midnight. */
export function inQuietHours(now: number, start: string | null, end: string | null): boolean {
  const from = minutesOfDay(start);
  const to = minutesOfDay(end);
  if (from === null || to === null || from === to) return false;
  const at = vientianeMinutes(now);
  return from < to ? at >= from && at < to : at >= from || at < to;
}

/**
 * Seconds before the next try of a message Telegram did not take (no answer, 5xx): 30 s,
 * then doubling, at most 15 minutes. A 429 waits what Telegram asked instead.
 */
export function retryDelaySeconds(attempts: number): number {
  return Math.min(30 * 2 ** Math.max(0, attempts - 1), 900);
}

/** A chat id as Telegram takes it: a number (a group's is negative) or an @channel name. */
export const CHAT_ID = /^(-?\d{1,20}|@[A-Za-z][A-Za-z0-9_]{4,31})$/;
