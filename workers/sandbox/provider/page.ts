/**
 * The sandbox's playable page (GET/POST /play/{provider}): balance, turnover, last round,
 * and a bet form that works without JavaScript. Links and the form are relative, so the
 * page also works when the portal proxies it under another path.
 */
export type PageLanguage = "lo" | "cn" | "vn" | "en";

const TEXT: Record<PageLanguage, Record<string, string>> = {
  lo: {
    balance: "ຍອດເງິນ",
    turnover: "ຍອດຫຼິ້ນ",
    amount: "ຈຳນວນເດີມພັນ",
    bet: "ເດີມພັນ",
    lastRound: "ຮອບລ່າສຸດ",
    win: "ໄດ້ຮັບ",
    insufficient: "ເຄຣດິດບໍ່ພໍ",
    invalidAmount: "ຈຳນວນບໍ່ຖືກຕ້ອງ",
    failed: "ຜູ້ໃຫ້ບໍລິການຂັດຂ້ອງ, ກະລຸນາລອງໃໝ່",
    expired: "ລິ້ງໝົດອາຍຸ ຫຼື ບໍ່ຖືກຕ້ອງ. ກະລຸນາເປີດເກມໃໝ່ຈາກໜ້າເວັບ.",
    back: "ກັບໄປໜ້າລວມເກມ",
  },
  cn: {
    balance: "余额",
    turnover: "流水",
    amount: "下注金额",
    bet: "下注",
    lastRound: "上一局",
    win: "赢得",
    insufficient: "余额不足",
    invalidAmount: "金额无效",
    failed: "供应商出错，请重试",
    expired: "链接无效或已过期，请从网站重新打开游戏。",
    back: "返回游戏大厅",
  },
  vn: {
    balance: "Số dư",
    turnover: "Doanh số cược",
    amount: "Số tiền cược",
    bet: "Cược",
    lastRound: "Ván trước",
    win: "Thắng",
    insufficient: "Không đủ tín dụng",
    invalidAmount: "Số tiền không hợp lệ",
    failed: "Nhà cung cấp gặp lỗi, vui lòng thử lại",
    expired: "Liên kết không hợp lệ hoặc đã hết hạn. Hãy mở lại trò chơi từ trang web.",
    back: "Quay lại sảnh trò chơi",
  },
  en: {
    balance: "Balance",
    turnover: "Turnover",
    amount: "Bet amount",
    bet: "Bet",
    lastRound: "Last round",
    win: "Win",
    insufficient: "Not enough credit",
    invalidAmount: "Invalid amount",
    failed: "Provider error, please try again",
    expired: "This link is invalid or has expired. Open the game again from the site.",
    back: "Back to the lobby",
  },
};

const HTML_LANG: Record<PageLanguage, string> = { lo: "lo", cn: "zh-CN", vn: "vi", en: "en" };

export function pageLanguage(lang: string | null | undefined): PageLanguage {
  return lang === "cn" || lang === "vn" || lang === "en" ? lang : "lo";
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}

const STYLE = `
  body{margin:0;font-family:system-ui,"Noto Sans Lao",sans-serif;background:#0f172a;color:#e2e8f0}
  main{max-width:26rem;margin:0 auto;padding:1rem}
  h1{font-size:1.25rem;margin:.5rem 0 1rem}
  .card{background:#1e293b;border-radius:.75rem;padding:1rem;margin-bottom:1rem}
  .big{font-size:2rem;font-weight:700}
  label{display:block;margin-bottom:.25rem}
  input{width:100%;box-sizing:border-box;font-size:1.25rem;padding:.5rem;border-radius:.5rem;border:1px solid #475569;background:#0f172a;color:inherit}
  button{font-size:1.1rem;padding:.6rem 1rem;border-radius:.5rem;border:0;background:#f59e0b;color:#111827;font-weight:700;margin-top:.5rem}
  .quick{display:flex;gap:.5rem;flex-wrap:wrap}
  .reels{display:flex;gap:.5rem;margin:.5rem 0}
  .reels span{flex:1;text-align:center;font-size:1.6rem;font-weight:700;background:#0f172a;border:2px solid #334155;border-radius:.5rem;padding:.6rem 0}
  .quick button{background:#334155;color:#e2e8f0;font-weight:400}
  .error{background:#7f1d1d;padding:.75rem;border-radius:.5rem;margin-bottom:1rem}
  .muted{color:#94a3b8;font-size:.9rem}
  .back{display:inline-flex;align-items:center;min-height:44px;padding:0 1rem;border-radius:.5rem;background:#334155;color:#f8fafc;font-weight:700;text-decoration:none}
  .back:focus-visible{outline:3px solid #f59e0b;outline-offset:2px}
`;

function layout(lang: PageLanguage, title: string, body: string): string {
  return `<!doctype html><html lang="${HTML_LANG[lang]}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body><main>${body}</main></body></html>`;
}

export type PlayView = {
  lang: PageLanguage;
  provider: string;
  username: string;
  token: string;
  balance: string;
  turnover: string;
  /** A fresh ref for the next bet, so a re-posted form cannot bet twice. */
  nextRef: string;
  lastRound: { bet: string; win: string; balance: string } | null;
  error: "insufficient" | "invalidAmount" | "failed" | null;
  /** Where "back to the lobby" leads (the launch's return URL), or null: no link. */
  lobbyUrl: string | null;
};

export function playPage(view: PlayView): string {
  const t = TEXT[view.lang];
  const title = `${view.provider} sandbox`;
  const error = view.error ? `<p class="error" role="alert">${escapeHtml(t[view.error]!)}</p>` : "";
  const last = view.lastRound
    ? `<div class="card" id="last-round"><div class="muted">${t.lastRound}</div><div class="reels" aria-hidden="true">${reels(
        view.lastRound.bet,
        view.lastRound.win,
      )
        .map((r) => `<span>${r}</span>`)
        .join("")}</div><div>${t.bet} <strong data-bet>${view.lastRound.bet}</strong> · ${t.win} <strong data-win>${view.lastRound.win}</strong></div></div>`
    : "";
  // First on the page, as a real game's "home" button: the way back to the portal's lobby.
  const back = view.lobbyUrl ? `<nav><a class="back" href="${escapeHtml(view.lobbyUrl)}" data-lobby-link>← ${escapeHtml(t.back!)}</a></nav>\n` : "";
  const quick = ["10.00", "50.00", "100.00"].map((amount) => `<button type="submit" name="quick" value="${amount}">${amount}</button>`).join("");
  return layout(
    view.lang,
    title,
    `${back}<h1>${escapeHtml(title)} · ${escapeHtml(view.username)}</h1>
${error}<div class="card"><div class="muted">${t.balance} (THB)</div><div class="big" id="balance">${view.balance}</div><div class="muted">${t.turnover}: <span id="turnover">${view.turnover}</span></div></div>
${last}<form method="post" class="card">
<input type="hidden" name="token" value="${escapeHtml(view.token)}">
<input type="hidden" name="ref" value="${escapeHtml(view.nextRef)}">
<label for="amount">${t.amount}</label>
<input id="amount" name="amount" inputmode="decimal" autocomplete="off" pattern="[0-9]+([.][0-9]{1,2})?" value="10.00">
<button type="submit">${t.bet}</button>
<div class="quick">${quick}</div>
</form>
<p class="muted">Sandbox game: deterministic rounds (0x, 0.5x, 1x, 2x, 3x by the bet's ref).</p>`,
  );
}

/**
 * The three reels of a round, drawn from its outcome (the round itself is decided by the
 * bet's ref): three 7s for 3x, three bars for 2x, cherries for 1x, a pair for 0.5x.
 */
function reels(bet: string, win: string): [string, string, string] {
  const ratio = Number(bet) > 0 ? Number(win) / Number(bet) : 0;
  if (ratio >= 3) return ["7", "7", "7"];
  if (ratio >= 2) return ["BAR", "BAR", "BAR"];
  if (ratio >= 1) return ["🍒", "🍒", "🍒"];
  if (ratio > 0) return ["🍋", "🍋", "7"];
  return ["🍋", "BAR", "7"];
}

export function expiredPage(lang: PageLanguage): string {
  return layout(lang, "Sandbox game", `<p class="error" role="alert">${escapeHtml(TEXT[lang].expired!)}</p>`);
}
