/*
 * The portal's service worker (issue 18, docs/decisions/028-offline.md). Plain JavaScript in
 * public/: the browser fetches it as is, at /sw.js?v=<build>, where <build> is React Router's
 * manifest version (a hash of every client chunk's name), so each build installs a new worker
 * with a new cache and the old one is deleted.
 *
 * What it keeps: the hashed /assets/* files (cache first: a hashed name never changes), the
 * fonts, public images and the agency's /brand/* images (served from the cache, refreshed in
 * the background), and the offline page in lo, cn and vn (fetched without cookies at install).
 * What it never keeps: a page's HTML, a `.data` answer, /api, anything not GET. Navigations go
 * to the network; only when the network fails does the player get the offline page in their
 * language (the last one a page told us, else Lao).
 */
const VERSION = new URL(self.location.href).searchParams.get("v") || "0";
const CACHE = "portal-" + VERSION;
const LANGUAGES = ["lo", "cn", "vn"];
const OFFLINE = (lng) => "/offline?lng=" + lng;
const LANGUAGE_KEY = "/__sw/language";
const PRECACHE = LANGUAGES.map(OFFLINE).concat(["/fonts/noto-sans-lao-400.woff2", "/fonts/noto-sans-lao-700.woff2", "/favicon.svg"]);
// A font is asked for with CORS (an Origin header) and stored without: the answer may vary on it.
const MATCH = { ignoreVary: true };

self.addEventListener("install", (event) => {
  // Where the browser supports it (Chromium's static routing), the requests this worker never
  // touches go straight to the network without starting it: a worker that must boot for every
  // `.data` or form post would slow each of them on a cheap phone.
  try {
    if (event.addRoutes) {
      event
        .addRoutes([
          { condition: { requestMethod: "POST" }, source: "network" },
          { condition: { urlPattern: { pathname: "/*.data" } }, source: "network" },
          { condition: { urlPattern: { pathname: "/api/*" } }, source: "network" },
        ])
        .catch(() => {});
    }
  } catch {
    // an older browser's idea of the routes: the fetch handler below applies the same rules
  }
  event.waitUntil(
    caches
      .open(CACHE)
      // without cookies: the offline page is the same for every visitor of the agency
      .then((cache) => cache.addAll(PRECACHE.map((url) => new Request(url, { credentials: "omit" }))))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((key) => key.startsWith("portal-") && key !== CACHE).map((key) => caches.delete(key))))
      .then(() => self.clients.claim()),
  );
});

// A page says which language the player reads (html[data-locale]): the offline page follows it.
self.addEventListener("message", (event) => {
  const lng = event.data && event.data.lng;
  if (LANGUAGES.includes(lng)) event.waitUntil(caches.open(CACHE).then((cache) => cache.put(LANGUAGE_KEY, new Response(lng))));
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return; // never a POST
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    event.respondWith(fetch(request).catch(() => offlinePage()));
    return;
  }
  if (url.pathname.startsWith("/assets/")) {
    event.respondWith(cacheFirst(request, event));
    return;
  }
  if (/^\/(fonts|promotions|brand)\//.test(url.pathname) || url.pathname === "/logo.svg" || url.pathname === "/favicon.svg") {
    event.respondWith(staleWhileRevalidate(request, event));
  }
  // everything else (.data, /api, /locales, the manifest, ...) is the browser's business
});

async function offlinePage() {
  const cache = await caches.open(CACHE);
  const stored = await cache.match(LANGUAGE_KEY);
  const lng = stored ? await stored.text() : "lo";
  return (await cache.match(OFFLINE(lng))) || (await cache.match(OFFLINE("lo"))) || Response.error();
}

// Stores are handed to event.waitUntil, never awaited before answering: the page gets its
// response at once, and a slow or stuck cache write cannot hold a page's load.
async function cacheFirst(request, event) {
  const cache = await caches.open(CACHE);
  const hit = await cache.match(request, MATCH);
  if (hit) return hit;
  const response = await fetch(request);
  if (response.ok && response.type === "basic") event.waitUntil(cache.put(request, response.clone()).catch(() => {}));
  return response;
}

async function staleWhileRevalidate(request, event) {
  const cache = await caches.open(CACHE);
  const hit = await cache.match(request, MATCH);
  const fresh = fetch(request).then((response) => {
    if (response.ok && response.type === "basic") event.waitUntil(cache.put(request, response.clone()).catch(() => {}));
    return response;
  });
  if (hit) {
    event.waitUntil(fresh.catch(() => {}));
    return hit;
  }
  return fresh;
}
