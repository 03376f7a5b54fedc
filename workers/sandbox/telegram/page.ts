import { vientianeClock } from "../../core/vientiane";
import type { ChatMessages, ReceivedMessage } from "./telegram";

/**
 * The page a newcomer opens at the portal's /sandbox/telegram: what the demo agency's staff
 * would have received on their phones, per chat, newest first. Plain HTML, no scripts, no
 * external assets; every URL is relative (only `?chat=`), so it works under the portal's prefix.
 */
export const PAGE_CSP = "default-src 'none'; style-src 'unsafe-inline'; form-action 'none'; base-uri 'none'; frame-ancestors 'none'";

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}

// Colours: every pair at least 4.5:1 (WCAG AA): text #1b2733 on #fff 15.2:1, links #0b5394 on
// #fff 7.8:1 and on the page's #eef2f5 7.0:1, #fff on #0f5a8a 7.4:1, #4a5663 on #fff 7.5:1,
// the focus ring #b35c00 on #fff 4.7:1.
const STYLE = `
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans Lao","Phetsarath OT",sans-serif;background:#eef2f5;color:#1b2733}
header{background:#0f5a8a;color:#fff;padding:.75rem 1rem}
header h1{margin:0;font-size:1.15rem}
header p{margin:0;font-size:.875rem}
main{max-width:42rem;margin:0 auto;padding:1rem .75rem}
nav ul{list-style:none;margin:0 0 1rem;padding:0;display:flex;flex-wrap:wrap;gap:.5rem}
nav a{display:inline-block;padding:.5rem .75rem;border-radius:1rem;background:#fff;color:#0b5394;min-height:44px}
nav a[aria-current]{background:#0f5a8a;color:#fff;text-decoration:none}
section{background:#fff;border-radius:.5rem;padding:.75rem 1rem;margin:0 0 1rem;box-shadow:0 1px 2px rgba(0,0,0,.08)}
h2{margin:0 0 .5rem;font-size:1.05rem}
h2 small{display:block;font-weight:400;color:#4a5663}
ol{list-style:none;margin:0;padding:0}
li{border-top:1px solid #e1e7ec;padding:.6rem 0}
li:first-child{border-top:0}
.meta{margin:0;font-size:.85rem;color:#4a5663}
.text{margin:.25rem 0 0;white-space:pre-wrap;overflow-wrap:anywhere}
a{color:#0b5394}
a:focus-visible{outline:3px solid #b35c00;outline-offset:2px}
`;

function layout(content: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>Sandbox Telegram</title>
<style>${STYLE}</style>
</head>
<body>
<header><h1>Sandbox Telegram</h1><p>What the demo agency's staff would have received. No real Telegram: nothing leaves this computer.</p></header>
<main>
${content}
</main>
</body>
</html>`;
}

/** "27 Nov 2026, 14:05:07": a message's time in Vientiane. */
function vientianeTime(receivedAt: string): string {
  const local = vientianeClock(Date.parse(receivedAt));
  const months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
  const two = (n: number) => String(n).padStart(2, "0");
  return `${local.getUTCDate()} ${months[local.getUTCMonth()]} ${local.getUTCFullYear()}, ${two(local.getUTCHours())}:${two(local.getUTCMinutes())}:${two(local.getUTCSeconds())}`;
}

const URL_IN_TEXT = /https?:\/\/[^\s<>"']+/g;

/** The text escaped, with every http(s) link clickable (trailing punctuation left outside). */
function linkify(text: string): string {
  let out = "";
  let from = 0;
  for (const match of text.matchAll(URL_IN_TEXT)) {
    const url = match[0].replace(/[.,;:!?)\]]+$/, "");
    out += escapeHtml(text.slice(from, match.index)) + `<a href="${escapeHtml(url)}" rel="noreferrer">${escapeHtml(url)}</a>`;
    from = match.index + url.length;
  }
  return out + escapeHtml(text.slice(from));
}

/** The language of a message's text, for screen readers: the portal writes in lo, cn or vn. */
function languageOf(text: string): string | null {
  if (/[\u0e80-\u0eff]/.test(text)) return "lo";
  if (/[\u4e00-\u9fff]/.test(text)) return "zh";
  if (/[ăđơưĂĐƠƯ]/.test(text)) return "vi";
  return null;
}

function messageItem(message: ReceivedMessage): string {
  const lang = languageOf(message.text);
  return `<li><p class="meta"><time datetime="${escapeHtml(message.receivedAt)}">${vientianeTime(message.receivedAt)}</time> (Vientiane) · from @${escapeHtml(message.botUsername)} · message ${message.messageId}</p>
<p class="text"${lang ? ` lang="${lang}"` : ""} dir="auto">${linkify(message.text)}</p></li>`;
}

function chatSection(chat: ChatMessages): string {
  const id = `chat${chat.chatId.replace(/[^0-9]/g, "")}`;
  const list = chat.messages.length ? `<ol>${chat.messages.map(messageItem).join("\n")}</ol>` : "<p>No messages yet.</p>";
  return `<section aria-labelledby="${id}"><h2 id="${id}">${escapeHtml(chat.title)} <small>chat ${escapeHtml(chat.chatId)} · ${chat.messages.length} shown, newest first</small></h2>
${list}</section>`;
}

function chatMenu(chats: ChatMessages[], current: string | null): string {
  const link = (href: string, label: string, here: boolean) =>
    `<li><a href="${escapeHtml(href)}"${here ? ' aria-current="page"' : ""}>${escapeHtml(label)}</a></li>`;
  const items = [
    link("?", "All chats", current === null),
    ...chats.map((chat) => link(`?chat=${encodeURIComponent(chat.chatId)}`, chat.title, chat.chatId === current)),
  ];
  return `<nav aria-label="Chats"><ul>${items.join("")}</ul></nav>`;
}

/** The messages of every chat (or of `current` only), newest first. */
export function messagesPage(chats: ChatMessages[], current: string | null): string {
  const shown = current === null ? chats : chats.filter((chat) => chat.chatId === current);
  const body = shown.length ? shown.map(chatSection).join("\n") : "<section><h2>No such chat</h2><p>Choose a chat above.</p></section>";
  return layout(`${chatMenu(chats, current)}
${body}
<p><a href="${current === null ? "?" : `?chat=${encodeURIComponent(current)}`}">Refresh</a></p>`);
}
