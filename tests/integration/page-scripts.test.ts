import { beforeAll, describe, expect, it } from "vitest";
import { fetchApp, seedDemo } from "../setup/seed";
import { playerWithBank } from "../setup/money";
import { litePartsIn, markupOf } from "../setup/lite-script";
import { holdsStylesheet, MARK_JS_SCRIPT, pageScriptsOf, stylesheetCookie, wantsFingerprintField } from "../../app/lib/page-scripts";

beforeAll(seedDemo);

/** A text of the fingerprint collector that minifying keeps (lib/fingerprint-collect.ts). */
const FINGERPRINT_MARK = "WEBGL_debug_renderer_info";

/** The <script> elements of a page: the opening tag and the text. */
function scripts(html: string) {
  return [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)].map((m) => ({ attrs: m[1]!, text: m[2]! }));
}

describe("what each page ships (decision 021)", () => {
  it("the deepest route that says wins; a page whose routes say nothing gets the app", () => {
    expect(pageScriptsOf([{ handle: undefined }, { handle: { scripts: "lite" } }])).toBe("lite");
    expect(pageScriptsOf([{ handle: { scripts: "none" } }, { handle: { other: 1 } }])).toBe("none");
    expect(pageScriptsOf([{}, { handle: "x" }])).toBe("app");
    expect(wantsFingerprintField([{}, { handle: { scripts: "lite", fingerprintField: true } }])).toBe(true);
    expect(wantsFingerprintField([{}, { handle: { scripts: "lite" } }])).toBe(false);
  });

  it("a browser holds the stylesheet when its cookie names this build's file (decision 044)", () => {
    const href = "/assets/app-QDnLl0VN.css";
    expect(stylesheetCookie(href)).toBe("css=app-QDnLl0VN.css; path=/; max-age=2592000; samesite=lax");
    expect(holdsStylesheet("js=1; css=app-QDnLl0VN.css; session=x", href)).toBe(true);
    expect(holdsStylesheet("css=app-QDnLl0VN.css", href)).toBe(true);
    // another build's file, no cookie, a cookie whose name only ends in css
    expect(holdsStylesheet("css=app-older.css", href)).toBe(false);
    expect(holdsStylesheet(null, href)).toBe(false);
    expect(holdsStylesheet("xcss=app-QDnLl0VN.css", href)).toBe(false);
  });

  it("registration: the head's html.js marker and one inline script, under the CSP nonce, with the fingerprint collector and the form's checks; its messages as data", async () => {
    const res = await fetchApp("http://localhost/register");
    const html = await res.text();
    const nonce = /'nonce-([^']+)'/.exec(res.headers.get("Content-Security-Policy") ?? "")?.[1];
    expect(nonce).toBeTruthy();
    const [marker, messages, only, ...rest] = scripts(html);
    expect(rest).toEqual([]);
    // the validate part's messages (the root's `validation` group), data, not a script that runs
    expect(messages!.attrs).toContain('type="application/json"');
    expect(messages!.text).toContain('"validation":{');
    // decision 045: set in the head, before the body is parsed
    expect(marker).toEqual({ attrs: ` nonce="${nonce}"`, text: MARK_JS_SCRIPT });
    expect(html.indexOf(MARK_JS_SCRIPT)).toBeLessThan(html.indexOf("</head>"));
    expect(only!.attrs).toBe(` nonce="${nonce}"`);
    // the parts, bundled by the build (decision 066): the fingerprint part carries the collector
    expect(litePartsIn(only!.text)).toEqual(["public", "fingerprint", "validate"]);
    expect(only!.text).toContain(FINGERPRINT_MARK);
    expect(only!.text).not.toMatch(/:undefined\b/);
    expect(only!.text).toContain('"fingerprintField":true');
    expect(only!.text).toContain('"syncAgencyId":null');
    expect(html).toContain('name="fingerprint"');
    expect(html).toContain('data-availability="/api/v2/players/username/validate"');
    expect(html).toContain('data-scripts="lite"');
  });

  it("the landing page and login: the lite script without the collector; a page that hydrates: the app", async () => {
    for (const path of ["/", "/login"]) {
      const html = await (await fetchApp(`http://localhost${path}`)).text();
      const list = scripts(html);
      expect(
        list.map((s) => s.text === MARK_JS_SCRIPT),
        path,
      ).toEqual([true, false]);
      // (the landing's banner carousel marks the dot of the slide in view, decision 082)
      expect(litePartsIn(list[1]!.text), path).toEqual(path === "/" ? ["public", "carousel"] : ["public"]);
      expect(list[1]!.text, path).not.toContain(FINGERPRINT_MARK);
      expect(html, path).not.toContain('type="module"');
    }
    const notFound = await (await fetchApp("http://localhost/nowhere")).text();
    expect(notFound).toContain('data-scripts="app"');
    expect(notFound).toContain('type="module"');
    expect(notFound).not.toContain("function lite(");
  });

  it("a player's lite page: the change-password dialog's closed shell and its part; a page that hydrates and a visitor's page: neither (decision 052)", async () => {
    const p = await playerWithBank();
    const get = async (path: string) => (await fetchApp(`http://localhost${path}`, { headers: { Cookie: p.cookie } })).text();
    for (const path of ["/player/withdraw/history", "/"]) {
      const html = await get(path);
      expect(html, path).toMatch(/<dialog class="dialog" aria-labelledby="change-password-title" data-testid="password-dialog" data-password-dialog="">/);
      expect(html, path).not.toMatch(/<dialog[^>]* open/);
      expect(litePartsIn(html), path).toContain("passwordDialog");
      // the form is not in the page: the part fetches it from /player/password
      expect(markupOf(html), path).not.toContain('data-testid="password-form"');
    }
    // (a page that hydrates has React's dialog: no shell)
    const notFound = await get("/nowhere");
    expect(notFound).toContain('data-scripts="app"');
    expect(notFound).not.toContain("data-password-dialog");
    const visitor = await (await fetchApp("http://localhost/login")).text();
    expect(visitor).not.toContain("data-password-dialog");
    expect(litePartsIn(visitor)).not.toContain("passwordDialog");
  });
});
