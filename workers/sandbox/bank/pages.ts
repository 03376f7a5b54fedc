import type { PayData, PayoutData, PayoutRecord, RecentQr } from "./bank";

/**
 * The tester's "banking app": plain HTML, no scripts, no external assets. Every URL is
 * relative, so the pages also work when the portal mounts the bank under a path prefix.
 */
function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}

const STYLE = `
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#eef2f5;color:#1b2733}
header{background:#0b5d3b;color:#fff;padding:.75rem 1rem}
header strong{font-size:1.1rem}
header span{opacity:.8;font-size:.85rem;display:block}
nav{background:#094b30;padding:.35rem 1rem;font-size:.9rem}
nav a{color:#fff;margin-right:1rem}
nav a[aria-current]{font-weight:700;text-decoration:none}
main{max-width:40rem;margin:0 auto;padding:1rem}
.card{background:#fff;border-radius:.5rem;padding:1rem;margin:0 0 1rem;box-shadow:0 1px 2px rgba(0,0,0,.08)}
label{display:block;font-weight:600;margin:.75rem 0 .25rem}
textarea{width:100%;font:14px/1.4 ui-monospace,Menlo,Consolas,monospace;padding:.5rem;border:1px solid #9aa7b2;border-radius:.25rem}
input[type=file]{width:100%}
button{margin-top:1rem;width:100%;padding:.75rem;font-size:1rem;font-weight:700;color:#fff;background:#0b5d3b;border:0;border-radius:.375rem;cursor:pointer}
form.inline{display:inline;margin:0}
form.inline button{margin:0 .25rem .25rem 0;width:auto;padding:.3rem .7rem;font-size:.85rem}
form.inline button.reject{background:#b71c1c}
button:focus-visible,a:focus-visible,textarea:focus-visible,input:focus-visible{outline:3px solid #f2a900;outline-offset:2px}
.ok{border-left:6px solid #1a8f4c}
.err{border-left:6px solid #c62828}
.err h2{color:#b71c1c}
.ok h2{color:#1a7a43}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem;margin:0}
dt{color:#52606d}
dd{margin:0;word-break:break-all;font-variant-numeric:tabular-nums}
table{width:100%;border-collapse:collapse;font-size:.9rem}
th,td{text-align:left;padding:.35rem .25rem;border-bottom:1px solid #e1e7ec}
td:nth-child(2){white-space:nowrap}
code{font-size:.85rem;word-break:break-all}
small{color:#52606d}
`;

type Section = "pay" | "payouts";

function layout(title: string, content: string, current: Section = "pay"): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)} · Sandbox Bank</title>
<style>${STYLE}</style>
</head>
<body>
<header><strong>Sandbox Bank</strong><span>Test payments only: no real money moves here.</span></header>
<nav><a href="pay"${current === "pay" ? ' aria-current="page"' : ""}>Pay a QR code</a><a href="payouts"${current === "payouts" ? ' aria-current="page"' : ""}>Payouts</a></nav>
<main>
${content}
</main>
</body>
</html>`;
}

/** Groups "50000.00" as "50,000.00 LAK" for people (the API keeps plain decimal strings). */
function displayKip(amount: string): string {
  const [whole = "0", fraction] = amount.split(".");
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return `${grouped}${fraction && !/^0+$/.test(fraction) ? "." + fraction : ""} LAK`;
}

function payForm(payload: string): string {
  return `<form class="card" method="post" enctype="multipart/form-data">
<h1 style="margin:0;font-size:1.25rem">Pay a LAO QR code</h1>
<label for="payload">QR payload (the text inside the QR code)</label>
<textarea id="payload" name="payload" rows="6" spellcheck="false" autocomplete="off" placeholder="00020101021238...6304ABCD">${escapeHtml(payload)}</textarea>
<label for="file">…or upload a text file that contains it</label>
<input id="file" name="file" type="file" accept=".txt,text/plain">
<button type="submit">Pay</button>
</form>`;
}

function recentTable(recent: RecentQr[]): string {
  if (recent.length === 0) return "";
  const rows = recent
    .map(
      (qr) =>
        `<tr><td><code>${escapeHtml(qr.reference)}</code></td><td>${escapeHtml(displayKip(qr.amount))}</td><td>${qr.status}</td><td>${
          qr.status === "PENDING" ? `<a href="pay?payload=${encodeURIComponent(qr.payload)}">Use</a>` : ""
        }</td></tr>`,
    )
    .join("");
  return `<section class="card"><h2 style="margin-top:0;font-size:1.05rem">Recent QR codes</h2>
<table><thead><tr><th>Reference</th><th>Amount</th><th>Status</th><th><span style="position:absolute;left:-9999px">Action</span></th></tr></thead><tbody>${rows}</tbody></table>
<small>“Use” fills the form with that QR's payload, as if you had scanned it.</small></section>`;
}

export function payPage(payload: string, recent: RecentQr[]): string {
  return layout("Pay a QR code", payForm(payload) + recentTable(recent));
}

export function paidPage(data: PayData): string {
  return layout(
    "Payment successful",
    `<section class="card ok" role="status">
<h2 style="margin-top:0">Payment successful</h2>
<dl>
<dt>Paid to</dt><dd>${escapeHtml(data.merchantName)}</dd>
<dt>Amount</dt><dd>${escapeHtml(displayKip(data.amount))}</dd>
<dt>Reference</dt><dd><code>${escapeHtml(data.reference)}</code></dd>
<dt>Transaction</dt><dd><code>${escapeHtml(data.transactionId)}</code></dd>
<dt>Paid at</dt><dd>${escapeHtml(data.paidAt.replace("T", " ").replace(/\.\d+Z$/, " UTC"))}</dd>
</dl>
<p style="margin-bottom:0">The merchant is being notified. <a href="pay">Pay another QR code</a></p>
</section>`,
  );
}

export function refusedPage(code: string, message: string, payload: string, recent: RecentQr[]): string {
  return layout(
    "Payment refused",
    `<section class="card err" role="alert">
<h2 style="margin-top:0">Payment refused</h2>
<p>${escapeHtml(message)}</p>
<small>Code: <code>${escapeHtml(code)}</code></small>
</section>` +
      payForm(payload) +
      recentTable(recent),
  );
}

export const PAGE_CSP = "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

/** A line above the payout list: what the last Pay / Reject did, or why it was refused. */
export type PayoutNotice = { kind: "done"; payout: PayoutData } | { kind: "error"; reference: string; code: string; message: string };

function when(isoTime: string): string {
  return isoTime.replace("T", " ").replace(/\.\d+Z$/, " UTC");
}

function payoutNotice(notice: PayoutNotice | null): string {
  if (!notice) return "";
  if (notice.kind === "error") {
    return `<section class="card err" role="alert"><h2 style="margin-top:0">Not done</h2><p>${escapeHtml(notice.message)}</p>
<small>Code: <code>${escapeHtml(notice.code)}</code>${notice.reference ? ` · Reference <code>${escapeHtml(notice.reference)}</code>` : ""}</small></section>`;
  }
  const p = notice.payout;
  const paid = p.status === "PAID";
  return `<section class="card ${paid ? "ok" : "err"}" role="status"><h2 style="margin-top:0">${paid ? "Payout paid" : p.status === "REJECTED" ? "Payout rejected" : "Payout processing"}</h2>
<dl>
<dt>Reference</dt><dd><code>${escapeHtml(p.reference)}</code></dd>
<dt>Amount</dt><dd>${escapeHtml(displayKip(p.amount ?? "0"))}</dd>
${p.transactionId ? `<dt>Transaction</dt><dd><code>${escapeHtml(p.transactionId)}</code></dd>` : ""}
${p.reason ? `<dt>Reason</dt><dd><code>${escapeHtml(p.reason)}</code></dd>` : ""}
</dl>
<p style="margin-bottom:0">The merchant is being notified.</p></section>`;
}

function payoutActions(payout: PayoutRecord): string {
  if (payout.status !== "PROCESSING")
    return payout.transactionId ? `<code>${escapeHtml(payout.transactionId)}</code>` : payout.reason ? `<code>${escapeHtml(payout.reason)}</code>` : "";
  const ref = escapeHtml(payout.reference);
  return `<form class="inline" method="post" action="payouts"><input type="hidden" name="reference" value="${ref}"><button type="submit" name="outcome" value="PAID" aria-label="Pay ${ref}">Pay</button></form>
<form class="inline" method="post" action="payouts"><input type="hidden" name="reference" value="${ref}"><button type="submit" class="reject" name="outcome" value="REJECTED" aria-label="Reject ${ref}">Reject</button></form>`;
}

/** The tester's payout desk: recent payouts, and Pay / Reject for those still processing. */
export function payoutsPage(recent: PayoutRecord[], notice: PayoutNotice | null = null): string {
  const rows = recent
    .map((payout) => {
      const status =
        payout.status === "PROCESSING"
          ? payout.dueAt === null
            ? "PROCESSING (held)"
            : `PROCESSING (until ${escapeHtml(when(payout.dueAt))}${payout.plannedOutcome === "REJECTED" ? ", then REJECTED" : ""})`
          : payout.status;
      return `<tr><td><code>${escapeHtml(payout.reference)}</code><br><small>${escapeHtml(when(payout.createdAt))}</small></td><td>${escapeHtml(displayKip(payout.amount))}</td><td>${escapeHtml(payout.bankCode)} <code>${escapeHtml(
        payout.accountMasked,
      )}</code><br><small>${escapeHtml(payout.accountName)}</small></td><td>${status}</td><td>${payoutActions(payout)}</td></tr>`;
    })
    .join("");
  const table = recent.length
    ? `<table><thead><tr><th>Reference</th><th>Amount</th><th>To</th><th>Status</th><th><span style="position:absolute;left:-9999px">Action</span></th></tr></thead><tbody>${rows}</tbody></table>`
    : "<p>No payouts yet. Withdrawals the portal sends to this bank appear here.</p>";
  return layout(
    "Payouts",
    payoutNotice(notice) +
      `<section class="card"><h1 style="margin:0 0 .5rem;font-size:1.25rem">Payouts</h1>
${table}
<small>A payout is paid automatically after the bank's processing time, unless it is held (fault <code>payout-hold</code>). <b>Pay</b> or <b>Reject</b> completes a processing payout now; the merchant gets a signed callback either way. <a href="payouts">Refresh</a></small></section>`,
    "payouts",
  );
}
