import { afterEach, describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { shardOf } from "../../workers/sandbox/shard";

// The sandbox game provider, reached like the portal reaches it: by service binding.
const BASE = "http://sandbox-provider";
const AUTH = "Basic " + btoa("demo-agent:sandbox-provider-secret-demo-0001");
const SECRET = "sandbox-provider-secret-demo-0001";

let counter = 0;
function uniqueUser(prefix = "sp"): string {
  counter += 1;
  return `${prefix}${Date.now().toString(36)}${counter}${Math.random().toString(36).slice(2, 6)}`;
}
function uniqueRef(prefix = "ref"): string {
  return `${prefix}-${crypto.randomUUID()}`;
}

// biome-ignore lint/suspicious/noExplicitAny: the sandbox's JSON answers, read loosely; the assertions check their shape
type Json = Record<string, any>;

async function call(method: string, path: string, body?: unknown, init: RequestInit = {}): Promise<{ status: number; body: Json }> {
  const headers: Record<string, string> = { Authorization: AUTH };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const res = await env.SANDBOX_PROVIDER.fetch(BASE + path, {
    method,
    headers: { ...headers, ...(init.headers as Record<string, string> | undefined) },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: init.signal,
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : {} };
}

const post = (path: string, body: unknown) => call("POST", path, body);
const get = (path: string) => call("GET", path);
const deposit = (p: string, username: string, amount: string, transactionRef = uniqueRef("dep")) =>
  post(`/api/${p}/deposit`, { username, amount, transactionRef });
const withdraw = (p: string, username: string, amount: string, transactionRef = uniqueRef("wd")) =>
  post(`/api/${p}/withdraw`, { username, amount, transactionRef });
const balance = async (p: string, username: string) => (await get(`/api/${p}/balance?username=${username}`)).body.data?.balance as string;
const status = async (p: string, ref: string) => (await get(`/api/${p}/transactions/${ref}`)).body.data as Json;

async function addFault(fault: Json): Promise<Json> {
  const res = await env.SANDBOX_PROVIDER.fetch(`${BASE}/sandbox/faults`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(fault),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as Json).data;
}
async function listFaults(): Promise<Json[]> {
  return ((await (await env.SANDBOX_PROVIDER.fetch(`${BASE}/sandbox/faults`)).json()) as Json).data;
}

// Faults are scoped to each test's username so they never touch another test's calls;
// the last test clears the leftovers globally.
const scoped: string[] = [];
afterEach(async () => {
  for (const username of scoped.splice(0)) await env.SANDBOX_PROVIDER.fetch(`${BASE}/sandbox/faults?username=${username}`, { method: "DELETE" });
});
function faultUser(prefix: string): string {
  const username = uniqueUser(prefix);
  scoped.push(username);
  return username;
}

async function hmacToken(payload: Json, secret = SECRET): Promise<string> {
  const b64 = (bytes: Uint8Array) =>
    btoa(String.fromCharCode(...bytes))
      .replace(/\+/g, "-")
      .replace(/\//g, "_")
      .replace(/=+$/, "");
  const body = b64(new TextEncoder().encode(JSON.stringify(payload)));
  const key = await crypto.subtle.importKey("raw", new TextEncoder().encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const sig = new Uint8Array(await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(body)));
  return `${body}.${b64(sig)}`;
}

describe("auth and routing", () => {
  it("refuses missing, wrong and malformed Basic credentials on /api/*", async () => {
    const user = uniqueUser();
    for (const header of [
      undefined,
      "Basic " + btoa("demo-agent:wrong"),
      "Basic " + btoa("other:sandbox-provider-secret-demo-0001"),
      "Bearer x",
      "Basic !!!",
    ]) {
      const res = await env.SANDBOX_PROVIDER.fetch(`${BASE}/api/askmebet/balance?username=${user}`, { headers: header ? { Authorization: header } : {} });
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ error: { code: "UNAUTHORIZED" } });
    }
    const refused = await env.SANDBOX_PROVIDER.fetch(`${BASE}/api/askmebet/deposit`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ username: user, amount: "10.00", transactionRef: uniqueRef() }),
    });
    expect(refused.status).toBe(401);
    expect(await balance("askmebet", user)).toBe("0.00");
  });

  it("answers 404 for an unknown provider or path", async () => {
    expect((await get(`/api/pgsoft/balance?username=${uniqueUser()}`)).status).toBe(404);
    expect((await get(`/api/askmebet/nothing`)).status).toBe(404);
    expect((await get(`/nothing`)).status).toBe(404);
  });
});

describe("wallets: member, balance, deposit, withdraw", () => {
  it("creates a member idempotently and reads 0.00 for an unknown one", async () => {
    const user = uniqueUser();
    expect(await get(`/api/betflix/balance?username=${user}`)).toEqual({ status: 200, body: { data: { username: user, balance: "0.00", currency: "THB" } } });
    const first = await post("/api/betflix/member", { username: user });
    expect(first).toEqual({ status: 200, body: { data: { username: user, balance: "0.00", currency: "THB" } } });
    await deposit("betflix", user, "5");
    const again = await post("/api/betflix/member", { username: user });
    expect(again.body.data.balance).toBe("5.00");
  });

  it("deposits and withdraws in exact minor units", async () => {
    const user = uniqueUser();
    const d1 = await deposit("askmebet", user, "100.10");
    expect(d1.status).toBe(200);
    expect(d1.body.data).toMatchObject({ status: "SUCCESS", beforeBalance: "0.00", balance: "100.10" });
    expect(d1.body.data.txId).toMatch(/^AMB\d{8}$/);
    const d2 = await deposit("askmebet", user, "0.20");
    expect(d2.body.data).toMatchObject({ beforeBalance: "100.10", balance: "100.30" });
    const w = await withdraw("askmebet", user, "0.3");
    expect(w.status).toBe(200);
    expect(w.body.data).toMatchObject({ status: "SUCCESS", beforeBalance: "100.30", balance: "100.00" });
    expect(w.body.data.txId).not.toBe(d1.body.data.txId);
    expect(await balance("askmebet", user)).toBe("100.00");
  });

  it("refuses bad amounts, usernames and refs without recording anything", async () => {
    const user = uniqueUser();
    const ref = uniqueRef();
    for (const amount of ["0", "0.00", "-5", "1.234", "1e3", "abc", "", " 1", 10, null]) {
      const res = await post("/api/askmebet/deposit", { username: user, amount, transactionRef: ref });
      expect(res.status, String(amount)).toBe(400);
      expect(res.body.error.code).toBe("INVALID_AMOUNT");
    }
    expect((await post("/api/askmebet/deposit", { username: "bad user", amount: "1.00", transactionRef: ref })).status).toBe(400);
    expect((await post("/api/askmebet/deposit", { username: user, amount: "1.00" })).status).toBe(400);
    expect((await post("/api/askmebet/deposit", { username: user, amount: "1.00", transactionRef: "has space" })).status).toBe(400);
    expect((await status("askmebet", ref)).status).toBe("NOT_FOUND");
    expect(await balance("askmebet", user)).toBe("0.00");
  });

  it("accepts form-encoded bodies (betflix style) as well as JSON", async () => {
    const user = uniqueUser();
    const res = await env.SANDBOX_PROVIDER.fetch(`${BASE}/api/betflix/deposit`, {
      method: "POST",
      headers: { Authorization: AUTH, "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ username: user, amount: "3.50", transactionRef: uniqueRef() }),
    });
    expect(res.status).toBe(200);
    expect(await balance("betflix", user)).toBe("3.50");
  });

  it("keeps separate wallets per provider", async () => {
    const user = uniqueUser();
    await deposit("gclub", user, "30.00");
    await deposit("gclub_live", user, "7.00");
    expect(await balance("gclub", user)).toBe("30.00");
    expect(await balance("gclub_live", user)).toBe("7.00");
    expect(await balance("alphabet", user)).toBe("0.00");
    // The same ref at two providers is two transactions.
    const ref = uniqueRef();
    expect((await deposit("alphabet", user, "1.00", ref)).body.data.txId).toMatch(/^ALP/);
    expect((await deposit("betflix", user, "2.00", ref)).body.data.txId).toMatch(/^BFX/);
    const wallets = ((await (await env.SANDBOX_PROVIDER.fetch(`${BASE}/sandbox/wallets?provider=gclub`)).json()) as Json).data as Json[];
    expect(wallets.filter((w) => w.username === user)).toEqual([{ provider: "gclub", username: user, balance: "30.00", turnover: "0.00", currency: "THB" }]);
  });
});

describe("at most once per transactionRef", () => {
  it("credits once when the same deposit is sent 50 times concurrently, with identical answers", async () => {
    const user = uniqueUser();
    const ref = uniqueRef();
    const answers = await Promise.all(Array.from({ length: 50 }, () => deposit("askmebet", user, "10.00", ref)));
    expect(new Set(answers.map((a) => a.status))).toEqual(new Set([200]));
    const first = JSON.stringify(answers[0]!.body);
    for (const answer of answers) expect(JSON.stringify(answer.body)).toBe(first);
    expect(answers[0]!.body.data).toMatchObject({ beforeBalance: "0.00", balance: "10.00" });
    expect(await balance("askmebet", user)).toBe("10.00");
    // A later repeat still answers the first result, even after the balance moved.
    await deposit("askmebet", user, "1.00");
    expect(JSON.stringify((await deposit("askmebet", user, "10.00", ref)).body)).toBe(first);
    expect(await balance("askmebet", user)).toBe("11.00");
  });

  it("answers 409 REF_CONFLICT for the same ref with another username, amount or direction", async () => {
    const user = uniqueUser();
    const ref = uniqueRef();
    await deposit("betflix", user, "20.00", ref);
    for (const res of [
      await deposit("betflix", user, "20.01", ref),
      await deposit("betflix", uniqueUser(), "20.00", ref),
      await withdraw("betflix", user, "20.00", ref),
      await post("/api/betflix/bet", { username: user, amount: "20.00", transactionRef: ref }),
    ]) {
      expect(res.status).toBe(409);
      expect(res.body.error.code).toBe("REF_CONFLICT");
    }
    // "20" and "20.00" are the same amount.
    expect((await deposit("betflix", user, "20", ref)).status).toBe(200);
    expect(await balance("betflix", user)).toBe("20.00");
  });

  it("sharded per member (decision 024): one ref raced by two members applies once; txIds stay unique; status by ref finds every member's", async () => {
    const [a, b] = [uniqueUser(), uniqueUser()];
    const ref = uniqueRef();
    const raced = await Promise.all([deposit("askmebet", a, "7.00", ref), deposit("askmebet", b, "7.00", ref)]);
    expect(raced.map((r) => r.status).sort()).toEqual([200, 409]);
    const winner = raced[0]!.status === 200 ? a : b;
    expect([await balance("askmebet", a), await balance("askmebet", b)].sort()).toEqual(["0.00", "7.00"]);
    expect((await status("askmebet", ref)).username).toBe(winner);
    const users = Array.from({ length: 12 }, () => uniqueUser());
    const refs = users.map(() => uniqueRef());
    const done = await Promise.all(users.map((u, i) => deposit("askmebet", u, "1.00", refs[i])));
    const txIds = done.map((r) => r.body.data.txId as string);
    expect(new Set(txIds).size).toBe(users.length);
    for (const id of txIds) expect(id).toMatch(/^AMB\d{8}$/);
    for (const [i, u] of users.entries()) expect(await status("askmebet", refs[i]!)).toMatchObject({ status: "SUCCESS", username: u, txId: txIds[i] });
  });

  it("records an insufficient withdraw as FAILED, for good", async () => {
    const user = uniqueUser();
    await deposit("alphabet", user, "5.00");
    const ref = uniqueRef();
    const res = await withdraw("alphabet", user, "5.01", ref);
    expect(res).toEqual({ status: 400, body: { error: { code: "INSUFFICIENT_BALANCE", transactionRef: ref } } });
    await deposit("alphabet", user, "100.00");
    // The repeat answers the same failure, although the balance would now cover it.
    expect(await withdraw("alphabet", user, "5.01", ref)).toEqual(res);
    expect(await status("alphabet", ref)).toMatchObject({
      transactionRef: ref,
      status: "FAILED",
      direction: "WITHDRAW",
      amount: "5.01",
      code: "INSUFFICIENT_BALANCE",
    });
    expect(await balance("alphabet", user)).toBe("105.00");
    // A withdraw from an unknown member fails the same way.
    expect((await withdraw("alphabet", uniqueUser(), "1.00")).body.error.code).toBe("INSUFFICIENT_BALANCE");
  });

  it("answers the status query with SUCCESS, FAILED and NOT_FOUND", async () => {
    const user = uniqueUser();
    const okRef = uniqueRef();
    const ok = await deposit("gclub", user, "12.34", okRef);
    expect(await status("gclub", okRef)).toMatchObject({
      transactionRef: okRef,
      status: "SUCCESS",
      direction: "DEPOSIT",
      username: user,
      amount: "12.34",
      txId: ok.body.data.txId,
      balance: "12.34",
      beforeBalance: "0.00",
    });
    const failedRef = uniqueRef();
    await withdraw("gclub", user, "99.00", failedRef);
    expect(await status("gclub", failedRef)).toMatchObject({ status: "FAILED", direction: "WITHDRAW", amount: "99.00" });
    const missing = uniqueRef();
    expect(await status("gclub", missing)).toEqual({ transactionRef: missing, status: "NOT_FOUND" });
    // Another provider does not know the ref.
    expect((await status("gclub_live", okRef)).status).toBe("NOT_FOUND");
  });
});

describe("game rounds and turnover", () => {
  it("takes the bet, pays a deterministic win, counts turnover, and is idempotent by ref", async () => {
    const user = uniqueUser();
    await deposit("askmebet", user, "1000.00");
    const wins = new Set<string>();
    let expected = 100_000n; // minor units
    for (let i = 0; i < 12; i++) {
      const ref = uniqueRef("bet");
      const res = await post("/api/askmebet/bet", { username: user, amount: "10.00", transactionRef: ref });
      expect(res.status).toBe(200);
      const { bet, win, balance: after } = res.body.data;
      expect(bet).toBe("10.00");
      expect(["0.00", "5.00", "10.00", "20.00", "30.00"]).toContain(win);
      wins.add(win);
      expected = expected - 1000n + BigInt(win.replace(".", ""));
      expect(BigInt(after.replace(".", ""))).toBe(expected);
      // The repeat is the same round.
      expect((await post("/api/askmebet/bet", { username: user, amount: "10.00", transactionRef: ref })).body).toEqual(res.body);
    }
    expect(wins.size).toBeGreaterThan(1);
    expect((await get(`/api/askmebet/turnover?username=${user}`)).body.data).toEqual({ username: user, turnover: "120.00", currency: "THB" });
    expect((await get(`/api/betflix/turnover?username=${user}`)).body.data.turnover).toBe("0.00");
  });

  it("refuses a bet above the balance and records it FAILED", async () => {
    const user = uniqueUser();
    await deposit("betflix", user, "3.00");
    const ref = uniqueRef("bet");
    const res = await post("/api/betflix/bet", { username: user, amount: "3.01", transactionRef: ref });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("INSUFFICIENT_BALANCE");
    expect((await status("betflix", ref)).status).toBe("FAILED");
    expect((await get(`/api/betflix/turnover?username=${user}`)).body.data.turnover).toBe("0.00");
  });
});

describe("faults", () => {
  it("slow: applies the operation, answers late; a caller that gave up finds it by status", async () => {
    const user = faultUser("slow");
    await addFault({ provider: "askmebet", op: "deposit", mode: "slow", delayMs: 300, count: 2, username: user });
    const started = Date.now();
    const res = await deposit("askmebet", user, "10.00");
    expect(Date.now() - started).toBeGreaterThanOrEqual(280);
    expect(res.status).toBe(200);
    expect(await balance("askmebet", user)).toBe("10.00");

    // The portal's timeout is shorter than the delay: from its side the outcome is unknown.
    const ref = uniqueRef();
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), 100);
    await expect(
      call("POST", "/api/askmebet/deposit", { username: user, amount: "5.00", transactionRef: ref }, { signal: controller.signal }),
    ).rejects.toThrow();
    clearTimeout(timer);
    expect(await status("askmebet", ref)).toMatchObject({ status: "SUCCESS", balance: "15.00" });
    expect(await balance("askmebet", user)).toBe("15.00");
  });

  it("error-after: applies, then answers 500; the status query and a repeat show it applied once", async () => {
    const user = faultUser("eafter");
    await deposit("betflix", user, "50.00");
    await addFault({ provider: "betflix", op: "withdraw", mode: "error-after", count: 1, username: user });
    const ref = uniqueRef();
    const res = await withdraw("betflix", user, "20.00", ref);
    expect(res.status).toBe(500);
    expect(res.body.error.code).toBe("PROVIDER_ERROR");
    expect(await balance("betflix", user)).toBe("30.00");
    expect(await status("betflix", ref)).toMatchObject({ status: "SUCCESS", direction: "WITHDRAW", balance: "30.00" });
    const again = await withdraw("betflix", user, "20.00", ref);
    expect(again.body.data).toMatchObject({ status: "SUCCESS", beforeBalance: "50.00", balance: "30.00" });
    expect(await balance("betflix", user)).toBe("30.00");
  });

  it("error-before: answers 500 without applying; the same ref can be sent again", async () => {
    const user = faultUser("ebefore");
    await addFault({ provider: "gclub", op: "deposit", mode: "error-before", count: 1, username: user });
    const ref = uniqueRef();
    expect((await deposit("gclub", user, "8.00", ref)).status).toBe(500);
    expect(await balance("gclub", user)).toBe("0.00");
    expect((await status("gclub", ref)).status).toBe("NOT_FOUND");
    const retry = await deposit("gclub", user, "8.00", ref);
    expect(retry.status).toBe(200);
    expect(await balance("gclub", user)).toBe("8.00");
  });

  it("refuse: answers 400 REFUSED without applying and records the ref FAILED for good", async () => {
    const user = faultUser("refuse");
    await addFault({ provider: "alphabet", op: "deposit", mode: "refuse", count: 1, username: user });
    const ref = uniqueRef();
    const res = await deposit("alphabet", user, "9.00", ref);
    expect(res).toEqual({ status: 400, body: { error: { code: "REFUSED", transactionRef: ref } } });
    expect(await balance("alphabet", user)).toBe("0.00");
    expect(await status("alphabet", ref)).toMatchObject({ status: "FAILED", code: "REFUSED" });
    // The fault is used up, but the ref stays FAILED.
    expect((await deposit("alphabet", user, "9.00", ref)).body.error.code).toBe("REFUSED");
    expect(await balance("alphabet", user)).toBe("0.00");
    // Reads can be refused too.
    await addFault({ provider: "alphabet", op: "balance", mode: "refuse", count: 1, username: user });
    expect((await get(`/api/alphabet/balance?username=${user}`)).body.error.code).toBe("REFUSED");
  });

  it("faults the status query and the balance read", async () => {
    const user = faultUser("reads");
    const ref = uniqueRef();
    await deposit("gclub_live", user, "4.00", ref);
    await addFault({ provider: "gclub_live", op: "status", mode: "error-before", count: 1, username: user });
    await addFault({ provider: "gclub_live", op: "balance", mode: "error-after", count: 1, username: user });
    expect((await get(`/api/gclub_live/transactions/${ref}`)).status).toBe(500);
    expect((await status("gclub_live", ref)).status).toBe("SUCCESS");
    expect((await get(`/api/gclub_live/balance?username=${user}`)).status).toBe(500);
    expect(await balance("gclub_live", user)).toBe("4.00");
  });

  it("count: fires on the next N matching calls only, and only for the matching provider and op", async () => {
    const user = faultUser("count");
    await addFault({ provider: "askmebet", op: "deposit", mode: "error-before", count: 2, username: user });
    const statuses: number[] = [];
    for (let i = 0; i < 2; i++) statuses.push((await deposit("betflix", user, "1.00")).status); // other provider
    statuses.push((await withdraw("askmebet", user, "1.00")).status); // other op (400: no credit)
    for (let i = 0; i < 4; i++) statuses.push((await deposit("askmebet", user, "1.00")).status);
    expect(statuses).toEqual([200, 200, 400, 500, 500, 200, 200]);
    expect(await balance("askmebet", user)).toBe("2.00");
    expect((await listFaults()).filter((f) => f.username === user)).toEqual([]);
  });

  it("rate: fires on that share of matching calls (deterministic, evenly spread)", async () => {
    const user = faultUser("rate");
    const fault = await addFault({ provider: "*", op: "*", mode: "error-before", rate: 0.5, username: user });
    expect(fault).toMatchObject({ provider: "*", op: "*", mode: "error-before", rate: 0.5, count: null, delayMs: 15000 });
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) statuses.push((await deposit(i % 2 ? "gclub" : "askmebet", user, "1.00")).status);
    expect(statuses).toEqual([200, 500, 200, 500, 200, 500, 200, 500, 200, 500]);
    const listed = (await listFaults()).find((f) => f.id === fault.id)!;
    expect(listed).toMatchObject({ seen: 10, fired: 5 });
    // rate with count: at most count firings.
    const user2 = faultUser("ratecount");
    await addFault({ op: "deposit", mode: "error-before", rate: 1, count: 3, username: user2 });
    const s2: number[] = [];
    for (let i = 0; i < 5; i++) s2.push((await deposit("alphabet", user2, "1.00")).status);
    expect(s2).toEqual([500, 500, 500, 200, 200]);
    // rate 0 never fires.
    const user3 = faultUser("rate0");
    await addFault({ op: "*", mode: "error-before", rate: 0, username: user3 });
    expect((await deposit("alphabet", user3, "1.00")).status).toBe(200);
  });

  it("validates fault definitions", async () => {
    for (const bad of [
      { op: "dance", mode: "slow" },
      { op: "deposit", mode: "explode" },
      { op: "deposit", mode: "slow", provider: "pgsoft" },
      { op: "deposit", mode: "slow", rate: 2 },
      { op: "deposit", mode: "slow", count: 0 },
      { op: "deposit", mode: "slow", delayMs: -1 },
    ]) {
      const res = await env.SANDBOX_PROVIDER.fetch(`${BASE}/sandbox/faults`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(bad),
      });
      expect(res.status, JSON.stringify(bad)).toBe(400);
    }
  });

  it("clears faults by id, by username, and all at once", async () => {
    const user = uniqueUser("clear");
    const a = await addFault({ op: "deposit", mode: "error-before", username: user });
    await addFault({ op: "withdraw", mode: "error-before", username: user });
    expect((await env.SANDBOX_PROVIDER.fetch(`${BASE}/sandbox/faults/${a.id}`, { method: "DELETE" })).status).toBe(200);
    expect((await deposit("askmebet", user, "1.00")).status).toBe(200);
    expect((await withdraw("askmebet", user, "1.00")).status).toBe(500);
    await env.SANDBOX_PROVIDER.fetch(`${BASE}/sandbox/faults?username=${user}`, { method: "DELETE" });
    expect((await withdraw("askmebet", user, "1.00")).status).toBe(200);

    await addFault({ op: "*", mode: "error-before", username: user });
    await addFault({ provider: "gclub", op: "balance", mode: "refuse", username: user });
    expect((await listFaults()).filter((f) => f.username === user)).toHaveLength(2);
    const cleared = await env.SANDBOX_PROVIDER.fetch(`${BASE}/sandbox/faults`, { method: "DELETE" });
    expect(cleared.status).toBe(200);
    expect(await listFaults()).toEqual([]);
    expect((await deposit("askmebet", user, "1.00")).status).toBe(200);
  });
});

describe("launch and the playable page", () => {
  async function launch(p: string, username: string, lang = "lo"): Promise<string> {
    const res = await get(`/api/${p}/launch?username=${username}&lang=${lang}`);
    expect(res.status).toBe(200);
    expect(res.body.data.url).toMatch(new RegExp(`^/play/${p}\\?token=[A-Za-z0-9_%.-]+$`));
    return res.body.data.url;
  }
  const page = (path: string, init?: RequestInit) => env.SANDBOX_PROVIDER.fetch(BASE + path, { redirect: "manual", ...init });

  it("requires auth to launch; the page needs no auth header but a valid token", async () => {
    const user = uniqueUser();
    expect((await env.SANDBOX_PROVIDER.fetch(`${BASE}/api/askmebet/launch?username=${user}`)).status).toBe(401);
    await deposit("askmebet", user, "42.50");
    const url = await launch("askmebet", user);
    const res = await page(url);
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toContain("text/html");
    const html = await res.text();
    expect(html).toContain(user);
    expect(html).toContain('<div class="big" id="balance">42.50</div>');
    expect(html).toContain("ຍອດເງິນ");
    expect(html).not.toMatch(/<script|https?:\/\//);
  });

  it("places a bet from a plain form post and shows the round", async () => {
    const user = uniqueUser();
    await deposit("gclub", user, "100.00");
    const url = await launch("gclub", user, "vn");
    const html = await (await page(url)).text();
    expect(html).toContain("Số dư");
    const token = decodeURIComponent(url.split("token=")[1]!);
    const ref = /name="ref" value="([^"]+)"/.exec(html)![1]!;
    const form = new URLSearchParams({ token, ref, amount: "25.00" });
    const posted = await page(url, { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: form });
    expect(posted.status).toBe(303);
    const location = posted.headers.get("Location")!;
    expect(location).toMatch(/^\?token=.+&round=/);
    const round = await status("gclub", ref);
    expect(round).toMatchObject({ status: "SUCCESS", direction: "BET", amount: "25.00" });
    const after = await (await page(`/play/gclub${location}`)).text();
    expect(after).toContain(`<div class="big" id="balance">${round.balance}</div>`);
    expect(after).toContain(`<strong data-win>${round.win}</strong>`);
    // A re-posted form (back button, double tap) is the same round.
    expect((await page(url, { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: form })).status).toBe(303);
    expect((await get(`/api/gclub/turnover?username=${user}`)).body.data.turnover).toBe("25.00");
    // Not enough credit: the page says so.
    const big = await page(url, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ token, ref: uniqueRef(), amount: "1000.00" }),
    });
    expect(big.status).toBe(400);
    expect(await big.text()).toContain("Không đủ tín dụng");
  });

  it("the page leads back to the return URL the launch gave; none, or one that is not a web address, gives no link", async () => {
    const user = uniqueUser();
    const back = async (returnUrl: string | null) => {
      const res = await get(`/api/askmebet/launch?username=${user}&lang=cn${returnUrl === null ? "" : `&returnUrl=${encodeURIComponent(returnUrl)}`}`);
      const html = await (await page(res.body.data.url)).text();
      return /<a class="back" href="([^"]*)" data-lobby-link>← 返回游戏大厅<\/a>/.exec(html)?.[1] ?? null;
    };
    expect(await back("https://portal.example/player/game/askmebet?tab=Slot&q=a")).toBe("https://portal.example/player/game/askmebet?tab=Slot&amp;q=a");
    expect(await back("/player/game/askmebet?tab=Fishing")).toBe("/player/game/askmebet?tab=Fishing");
    expect(await back(null)).toBeNull();
    expect(await back("javascript:alert(1)")).toBeNull();
    expect(await back("//evil.example/")).toBeNull();
    expect(await back(`https://portal.example/${"x".repeat(600)}`)).toBeNull();
  });

  it("refuses tampered, foreign, wrongly signed and expired tokens", async () => {
    const user = uniqueUser();
    const url = await launch("betflix", user);
    const token = decodeURIComponent(url.split("token=")[1]!);
    const [body, sig] = token.split(".") as [string, string];
    const claims = JSON.parse(atob(body.replace(/-/g, "+").replace(/_/g, "/")));
    expect(claims).toMatchObject({ u: user, p: "betflix", l: "lo" });
    expect(claims.exp * 1000 - Date.now()).toBeGreaterThan(14 * 60 * 1000);
    expect(claims.exp * 1000 - Date.now()).toBeLessThanOrEqual(15 * 60 * 1000);

    expect((await page(`/play/betflix?token=${encodeURIComponent(await hmacToken(claims))}`)).status).toBe(200);
    const bad = [
      "",
      "garbage",
      `${body}.${sig.slice(0, -2)}AA`, // signature changed
      `${(await hmacToken({ ...claims, u: "someone-else" })).split(".")[0]}.${sig}`, // payload changed
      await hmacToken(claims, "another-secret"),
      await hmacToken({ ...claims, exp: Math.floor(Date.now() / 1000) - 1 }), // expired
    ];
    for (const t of bad) {
      const res = await page(`/play/betflix?token=${encodeURIComponent(t)}`);
      expect(res.status, t).toBe(401);
      expect(await res.text()).toContain("ລິ້ງໝົດອາຍຸ");
    }
    // A token for betflix does not open gclub.
    expect((await page(`/play/gclub?token=${encodeURIComponent(token)}`)).status).toBe(401);
    // A post with an expired token places no bet.
    await deposit("betflix", user, "10.00");
    const expired = await hmacToken({ ...claims, exp: Math.floor(Date.now() / 1000) - 1 });
    const post = await page(`/play/betflix`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ token: expired, ref: uniqueRef(), amount: "5.00" }),
    });
    expect(post.status).toBe(401);
    expect(await balance("betflix", user)).toBe("10.00");
  });
});

describe("nothing global on a fault-free transfer (decision 024)", () => {
  // Which ref shard a ref lands in, as workers/sandbox/shard.ts picks it (16 per provider).
  const shardRefs = () => {
    const refs = new Map<number, string>();
    while (refs.size < 16) {
      const ref = uniqueRef("mir");
      refs.set(shardOf(ref, 16), ref);
    }
    return [...refs.values()];
  };

  it("a fault reaches every ref shard of its provider at once, and none of another provider; cleared, it is gone from all", async () => {
    const user = faultUser("mir");
    await deposit("askmebet", user, "100.00");
    const fault = await addFault({ provider: "askmebet", op: "deposit", mode: "error-before", username: user });
    // one deposit per shard: each shard's copy says "a fault is set", so each call finds the fault
    for (const ref of shardRefs()) expect((await deposit("askmebet", user, "1.00", ref)).status, ref).toBe(500);
    expect((await deposit("betflix", user, "1.00")).status).toBe(200);
    // error-before left nothing behind: the same refs are free afterwards
    await env.SANDBOX_PROVIDER.fetch(`${BASE}/sandbox/faults/${fault.id}`, { method: "DELETE" });
    for (const ref of shardRefs()) expect((await deposit("askmebet", user, "1.00", ref)).status, ref).toBe(200);
    expect(await balance("askmebet", user)).toBe("116.00");
  });

  it("the wallet list reads the members from the ref shards; a member that only failed has no wallet to list", async () => {
    const rich = uniqueUser("dir");
    const poor = uniqueUser("dir");
    await deposit("alphabet", rich, "3.00");
    expect((await withdraw("alphabet", poor, "1.00")).status).toBe(400);
    const wallets = ((await (await env.SANDBOX_PROVIDER.fetch(`${BASE}/sandbox/wallets?provider=alphabet`)).json()) as Json).data as Json[];
    expect(wallets.filter((w) => w.username === rich || w.username === poor)).toEqual([
      { provider: "alphabet", username: rich, balance: "3.00", turnover: "0.00", currency: "THB" },
    ]);
  });
});
