import { env } from "cloudflare:workers";
import { fetchApp } from "./seed";
import { postForm } from "./players";
import { createStaff, staffLogin } from "./staff";

/**
 * The agency's bank reports as the outside sends them, over HTTP: the phone's signed forwarder
 * post (SmsForwarder) and a statement import through the back office's page, with the staff
 * sessions that set them up, and a bank day's reconciliation lines as the page lists them.
 */

export type Staff = { cookie: string };
const PAGE = "http://localhost";

export async function newStaff(agencyId: string, role: "owner" | "cashier", username: string): Promise<Staff> {
  const password = `${role}-pass-${username}`;
  const s = await createStaff(env, { agencyId, username, password, role });
  return { cookie: await staffLogin(env, { username, password, totpSecret: s.totpSecret }) };
}

export const staffGet = (path: string, staff: Staff) => fetchApp(`${PAGE}${path}`, { headers: { Cookie: staff.cookie }, redirect: "manual" });
export const staffPost = (path: string, staff: Staff, fields: Record<string, string>) => postForm(path, fields, { cookie: staff.cookie });

export type Forwarder = { token: string; secret: string };

/** The owner creates the phone's forwarder of a channel: its URL's token and its secret, as the page shows them once. */
export async function createForwarder(owner: Staff, channel: string): Promise<Forwarder> {
  const res = await staffPost("/admin/forwarder", owner, { intent: "create", channelCode: channel });
  const html = await res.text();
  const inputValue = (testId: string) => /value="([^"]+)"/.exec(new RegExp(`<input[^>]*data-testid="${testId}"[^>]*>`).exec(html)?.[0] ?? "")?.[1];
  const url = inputValue("forwarder-url");
  const secret = inputValue("forwarder-secret");
  if (!url || !secret) throw new Error(`forwarder not created: ${res.status}`);
  return { token: url.slice(url.lastIndexOf("/") + 1), secret };
}

/** SmsForwarder's sign: base64(HMAC-SHA256(secret, "<timestamp>\n<secret>")), URL-encoded. */
async function phoneSign(secret: string, timestamp: string): Promise<string> {
  const enc = new TextEncoder();
  const key = await crypto.subtle.importKey("raw", enc.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, enc.encode(`${timestamp}\n${secret}`)));
  return encodeURIComponent(btoa(String.fromCharCode(...mac)));
}

/** One forwarded message from sender BCEL. */
export async function phonePost(fwd: Forwarder, content: string, timestamp: string) {
  const body = new URLSearchParams({ from: "BCEL", content, timestamp, sign: await phoneSign(fwd.secret, timestamp) });
  const res = await fetchApp(`${PAGE}/api/forwarder/${fwd.token}`, { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body });
  return { status: res.status, body: (await res.json()) as { ok: boolean; result?: string; error?: string } };
}

/** A statement import through the page: upload, the mapping the first time (Date, Description, Debit, Credit and Ref when given), confirm. */
export async function importStatement(staff: Staff, channel: string, csv: string, withIds: boolean): Promise<void> {
  const form = new FormData();
  form.set("intent", "upload");
  form.set("channel", channel);
  form.set("file", new File([csv], "statement.csv", { type: "text/csv" }));
  const uploaded = await fetchApp(`${PAGE}/admin/deposits/import`, {
    method: "POST",
    body: form,
    headers: { Cookie: staff.cookie, Origin: PAGE },
    redirect: "manual",
  });
  if (uploaded.status !== 302) throw new Error(`upload answered ${uploaded.status}`);
  const upload = new URL(uploaded.headers.get("Location")!, PAGE).searchParams.get("upload")!;
  const page = await (await staffGet(`/admin/deposits/import?upload=${upload}`, staff)).text();
  if (page.includes('data-step="map"')) {
    const mapping: Record<string, string> = {
      intent: "save",
      upload,
      headerRow: "0",
      date: "Date",
      description: "Description",
      amountMode: "split",
      debit: "Debit",
      credit: "Credit",
      dateFormat: "DD/MM/YYYY HH:mm",
      numberFormat: "1,234.56",
    };
    if (withIds) mapping.transactionId = "Ref";
    const saved = await postForm(`/admin/deposits/import?upload=${upload}`, mapping, { cookie: staff.cookie });
    if (saved.status !== 302) throw new Error(`mapping answered ${saved.status}`);
  }
  const applied = await postForm(`/admin/deposits/import?upload=${upload}`, { intent: "apply", upload }, { cookie: staff.cookie });
  if (applied.status !== 302 || applied.headers.get("Location")?.includes("remap"))
    throw new Error(`apply answered ${applied.status} ${applied.headers.get("Location")}`);
}

/** Every page of a bank day's reconciliation (followed by their "next" links, decision 074), joined. */
export async function reconciliationHtml(staff: Staff, day: string): Promise<{ html: string; firstPage: string }> {
  let path: string | null = `/admin/reconciliation?day=${day}`;
  const pages: string[] = [];
  while (path) {
    const text = await (await staffGet(path, staff)).text();
    pages.push(text);
    const next = /href="([^"]+)"[^>]*data-testid="next-page"|data-testid="next-page"[^>]*href="([^"]+)"/.exec(text);
    path = next ? (next[1] ?? next[2]!).replaceAll("&amp;", "&").split("#")[0]! : null;
  }
  return { html: pages.join("\n"), firstPage: pages[0]! };
}
