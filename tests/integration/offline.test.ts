import { beforeAll, describe, expect, it } from "vitest";
import { fetchApp, seedDemo } from "../setup/seed";
import { nextPollDelay, QR_POLL } from "../../app/lib/offline";
import { MARK_JS_SCRIPT } from "../../app/lib/page-scripts";
import { litePartsIn } from "../setup/lite-script";
import { OFFLINE_ALERT } from "../../app/lib/lite/hooks";

beforeAll(seedDemo);

/** The <script>/<style> elements of a page: the opening tag's attributes and the text. */
function elements(html: string, tag: "script" | "style") {
  return [...html.matchAll(new RegExp(`<${tag}\\b([^>]*)>([\\s\\S]*?)</${tag}>`, "g"))].map((m) => ({ attrs: m[1]!, text: m[2]! }));
}

describe("a bad network (decision 028)", () => {
  it("QR polling backs off by half each time, from 3 s up to 15 s", () => {
    const delays: number[] = [];
    let delay: number | null = null;
    for (let i = 0; i < 7; i++) delays.push((delay = nextPollDelay(delay, QR_POLL.min, QR_POLL.max)));
    expect(delays).toEqual([3000, 4500, 6750, 10125, 15000, 15000, 15000]);
    // reset (null) starts again from the minimum
    expect(nextPollDelay(null, QR_POLL.min, QR_POLL.max)).toBe(3000);
  });

  it("the offline page: in the language asked for, under the response's nonce, nothing from the network but the font and icon", async () => {
    const cases = [
      ["lo", "lo", "ບໍ່ມີການເຊື່ອມຕໍ່ອິນເຕີເນັດ"],
      ["cn", "zh-CN", "网络连接已断开"],
      ["vn", "vi", "Mất kết nối mạng"],
    ] as const;
    for (const [lng, htmlLang, title] of cases) {
      const res = await fetchApp(`http://localhost/offline?lng=${lng}`);
      expect(res.status).toBe(200);
      expect(res.headers.get("Content-Type")).toContain("text/html");
      const html = await res.text();
      expect(html).toContain(`<html lang="${htmlLang}"`);
      expect(html).toContain(`<h1>${title}</h1>`);
      const csp = res.headers.get("Content-Security-Policy") ?? "";
      const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
      expect(nonce).toBeTruthy();
      for (const el of [...elements(html, "script"), ...elements(html, "style")]) expect(el.attrs).toBe(` nonce="${nonce}"`);
      expect(elements(html, "script")).toHaveLength(1);
      // no module script, no stylesheet link: it is shown from the cache, alone
      expect(html).not.toContain('type="module"');
      expect(html).not.toContain('rel="stylesheet"');
    }
  }, 90_000);
  it("an unknown language: the visitor's own", async () => {
    // no cookie: the agency's fallback, Lao
    expect(await (await fetchApp("http://localhost/offline?lng=xx")).text()).toContain('<html lang="lo"');
  });

  it("every page may register the service worker (worker-src) and carries the hidden 'nothing was sent' alert", async () => {
    const res = await fetchApp("http://localhost/login");
    expect(res.headers.get("Content-Security-Policy")).toContain("worker-src 'self'");
    const html = await res.text();
    expect(html).toMatch(/<p class="offline-alert" role="alert"[^>]* data-offline-alert="" data-testid="offline-alert" hidden="">/);
    // the lite page's inline script carries both pieces, bundled into its public part (decision
    // 066, minified: found by what they ask the browser for); the head's html.js marker is the
    // other inline script (decision 045)
    const [script, ...rest] = elements(html, "script").filter((s) => s.text !== MARK_JS_SCRIPT);
    expect(rest).toEqual([]);
    expect(litePartsIn(script!.text)).toContain("public");
    expect(script!.text).toContain("/sw.js?v="); // registerServiceWorker
    expect(script!.text).toContain(`"${OFFLINE_ALERT.attribute}"`); // guardOfflineSubmits finds the alert by it
  });
});
