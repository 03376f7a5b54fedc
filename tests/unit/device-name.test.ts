import { describe, expect, it } from "vitest";
import { deviceName } from "../../workers/core/device-name";

/** Real user-agents of the phones and computers players use (Android first: most of them). */
const SEEN: [string, string, string | null, string | null][] = [
  [
    "Chrome on a cheap Android phone",
    "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36",
    "Chrome",
    "Android",
  ],
  [
    "Safari on iPhone",
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1",
    "Safari",
    "iPhone",
  ],
  [
    "Chrome on iPhone (CriOS)",
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/124.0.6367.88 Mobile/15E148 Safari/604.1",
    "Chrome",
    "iPhone",
  ],
  ["Firefox on Windows", "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:125.0) Gecko/20100101 Firefox/125.0", "Firefox", "Windows"],
  [
    "Edge on Windows (says Chrome and Safari too)",
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36 Edg/124.0.2478.80",
    "Edge",
    "Windows",
  ],
  [
    "Samsung Internet on Android",
    "Mozilla/5.0 (Linux; Android 14; SAMSUNG SM-A546E) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/24.0 Chrome/117.0.0.0 Mobile Safari/537.36",
    "Samsung Internet",
    "Android",
  ],
  [
    "Facebook's in-app browser on Android",
    "Mozilla/5.0 (Linux; Android 13; RMX3511 Build/TP1A.220905.001; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/123.0.6312.118 Mobile Safari/537.36 [FB_IAB/FB4A;FBAV/459.0.0.51.100;]",
    "Facebook",
    "Android",
  ],
  [
    "Opera on Android",
    "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/122.0.0.0 Mobile Safari/537.36 OPR/81.0.4292.78931",
    "Opera",
    "Android",
  ],
  [
    "Safari on a Mac",
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15",
    "Safari",
    "macOS",
  ],
  [
    "Safari on iPad",
    "Mozilla/5.0 (iPad; CPU OS 16_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/16.6 Mobile/15E148 Safari/604.1",
    "Safari",
    "iPad",
  ],
  ["Chrome on Linux", "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36", "Chrome", "Linux"],
  [
    "Headless Chrome (a test browser): Chrome all the same",
    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/124.0.0.0 Safari/537.36",
    "Chrome",
    "Linux",
  ],
  ["a script", "curl/8.5.0", null, null],
];

describe("deviceName: a readable name instead of the user-agent", () => {
  it.each(SEEN)("%s", (_, userAgent, browser, system) => {
    expect(deviceName(userAgent)).toEqual({ browser, system });
  });
  it("no user-agent at all: nothing named", () => {
    for (const none of [null, undefined, "", "   "]) expect(deviceName(none)).toEqual({ browser: null, system: null });
  });
});
