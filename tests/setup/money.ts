import { env } from "cloudflare:workers";
import { addBankAccount, registerPlayer } from "../../workers/services/players";
import { walletOf } from "../../workers/services/wallets";
import { hmacHex } from "../../workers/ports/gateway";
import { fetchApp } from "./seed";
import { loginViaForm, PASSWORD, postForm, sessionFrom, uniqueName, uniquePhone } from "./players";

export const SANDBOX_WEBHOOK_SECRET = "sandbox-webhook-secret-demo-0001";
const PROVIDER_AUTH = `Basic ${btoa("demo-agent:sandbox-provider-secret-demo-0001")}`;

let ipCounter = 0;
/** A registered player with a LAK bank account and a logged-in session cookie. */
export async function playerWithBank() {
  ipCounter += 1;
  const username = uniqueName("dep");
  const ip = `10.60.${ipCounter % 250}.${(ipCounter * 13) % 250}`;
  const reg = await registerPlayer(env.DB, "demo", { username, password: PASSWORD, phone: uniquePhone() }, { ip, userAgent: null });
  if (!reg.ok) throw new Error(`register failed: ${reg.code}`);
  const accountNumber = `0101${String(Date.now()).slice(-7)}${String(ipCounter).padStart(2, "0")}`;
  const bank = await addBankAccount(env.DB, "demo", reg.playerId, { bankCode: "BCEL", accountNumber, accountName: "Test Player" });
  if (!bank.ok) throw new Error(`bank failed: ${bank.code}`);
  const cookie = sessionFrom(await loginViaForm(username, PASSWORD, { ip }))!;
  return { username, playerId: reg.playerId, cookie, wallet: walletOf(env, "demo", reg.playerId) };
}

export async function postDeposit(cookie: string, fields: { provider?: string; amount?: string; idempotencyKey?: string; channelCode?: string }) {
  return postForm(
    "/player/deposit",
    {
      intent: "create",
      provider: fields.provider ?? "askmebet",
      channelCode: fields.channelCode ?? "BCEL-QR",
      amount: fields.amount ?? "60000",
      idempotencyKey: fields.idempotencyKey ?? crypto.randomUUID(),
    },
    { cookie },
  );
}

export async function sandboxBank(path: string, init?: RequestInit) {
  return env.SANDBOX_BANK.fetch(`http://sandbox-bank${path}`, init);
}

export async function sandboxProvider(path: string, init?: RequestInit) {
  return env.SANDBOX_PROVIDER.fetch(`http://sandbox-provider${path}`, {
    ...init,
    headers: { Authorization: PROVIDER_AUTH, "Content-Type": "application/json", ...(init?.headers ?? {}) },
  });
}

export async function providerBalance(provider: string, username: string): Promise<string> {
  const res = await sandboxProvider(`/api/${provider}/balance?username=${encodeURIComponent(`demo_${username}`)}`);
  return ((await res.json()) as { data: { balance: string } }).data.balance;
}

/** Pays a QR payload at the sandbox bank, as a tester would on its pay page. */
export async function payQr(payload: string) {
  const res = await sandboxBank("/sandbox/pay", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ payload }) });
  return { status: res.status, body: (await res.json()) as { data?: { reference: string; transactionId: string }; error?: { code: string } } };
}

type Delivery = { id: string; url: string; headers: Record<string, string>; body: string };

/** The next webhook the bank wants to send (pull mode in tests), or null. */
export async function nextDelivery(opts: { now?: number; reference?: string } = {}): Promise<Delivery | null> {
  const query = new URLSearchParams();
  if (opts.now) query.set("now", String(opts.now));
  if (opts.reference) query.set("reference", opts.reference);
  const res = await sandboxBank(`/sandbox/deliveries/next${query.size ? `?${query}` : ""}`);
  return ((await res.json()) as { data: Delivery | null }).data;
}

export async function deliver(delivery: Delivery): Promise<Response> {
  const res = await fetchApp(delivery.url, { method: "POST", headers: delivery.headers, body: delivery.body });
  await sandboxBank(`/sandbox/deliveries/${delivery.id}/result`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ status: res.status }),
  });
  return res;
}

/** Hands every due webhook to the portal, as the bank would over the network. */
export async function pumpDeliveries(): Promise<number> {
  let count = 0;
  for (let d = await nextDelivery(); d; d = await nextDelivery()) {
    await deliver(d);
    count++;
  }
  return count;
}

/** A webhook signed like the gateway's (for forged / stale / mismatched cases). */
export async function signedWebhook(body: object, opts: { secret?: string; timestamp?: number } = {}) {
  const raw = JSON.stringify(body);
  const t = opts.timestamp ?? Math.floor(Date.now() / 1000);
  const v1 = await hmacHex(opts.secret ?? SANDBOX_WEBHOOK_SECRET, `${t}.${raw}`);
  return fetchApp("http://localhost/api/v2/payments/webhook", {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-Sandbox-Signature": `t=${t},v1=${v1}` },
    body: raw,
  });
}

export async function openOrder(cookie: string) {
  const res = await fetchApp("http://localhost/api/v2/players/deposits/open", { headers: { Cookie: cookie } });
  return ((await res.json()) as { orders: { code: string; amount: string; credit: string; status: string }[] }).orders[0] ?? null;
}

export async function qrPayloadOf(wallet: ReturnType<typeof walletOf>, code: string): Promise<string> {
  const order = await wallet.getDeposit(code);
  if (!order?.qrPayload) throw new Error("no QR payload");
  return order.qrPayload;
}

/** Puts credit straight into the player's provider wallet (as if a deposit had settled). */
export async function fundProvider(provider: string, username: string, amount: string) {
  const res = await sandboxProvider(`/api/${provider}/deposit`, {
    method: "POST",
    body: JSON.stringify({ username: `demo_${username}`, amount, transactionRef: `FUND${crypto.randomUUID().replace(/-/g, "").slice(0, 18)}` }),
  });
  if (!res.ok) throw new Error(`funding failed: ${res.status}`);
}

export async function postWithdraw(
  cookie: string,
  fields: { provider?: string; amount?: string; all?: boolean; idempotencyKey?: string; intent?: "review" | "confirm" },
) {
  const body: Record<string, string> = {
    intent: fields.intent ?? "confirm",
    provider: fields.provider ?? "askmebet",
    idempotencyKey: fields.idempotencyKey ?? crypto.randomUUID(),
  };
  if (fields.amount !== undefined) body.amount = fields.amount;
  if (fields.all) body.all = "on";
  return postForm("/player/withdraw", body, { cookie });
}

/** Lets an automatic payout run to its end (the sandbox bank pays this one at once). */
export async function payOutNow(wallet: ReturnType<typeof walletOf>, code: string) {
  await sandboxBank("/sandbox/payouts/config", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ processingMs: 0, referencePrefix: code }),
  });
  let t = Date.now();
  for (let i = 0; i < 6 && (await wallet.getWithdraw(code))!.status !== "SUCCESS"; i++) {
    await wallet.runDueWork(t);
    await sandboxBank("/sandbox/payouts");
    await pumpDeliveries();
    t += 60_000;
  }
}

/** A reward claim that was not paused by the offers rule (decision 091): these tests' players have no break or limit. */
export async function credited<R extends { kind: string }>(claim: Promise<R>): Promise<Extract<R, { reward: unknown }>> {
  const result = await claim;
  if (!("reward" in result)) throw new Error(`the reward claim was paused: ${JSON.stringify(result)}`);
  return result as Extract<R, { reward: unknown }>;
}
