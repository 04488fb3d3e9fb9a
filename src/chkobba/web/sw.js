// The service worker (served at /sw.js by chkobba/web/pwa.py, which fills in VERSION,
// FILES and SHELLS). It keeps the pages' shells, scripts, style sheets, catalogues and
// icons from its installation, and each card image once drawn, in a cache named after
// the release: a reload or a network blip keeps the page on screen while it reconnects.
// The game itself (the API, the WebSocket) always goes to the server.

const VERSION = "__VERSION__";
const FILES = __FILES__;
/** Each page's address (exact, or a start ending in "/") and the shell it is drawn from. */
const SHELLS = __SHELLS__;

self.addEventListener("install", (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(VERSION);
      // Fresh copies: the browser's HTTP cache may hold the previous release's files.
      await cache.addAll(FILES.map((url) => new Request(url, { cache: "reload" })));
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name !== VERSION && name.startsWith("chkobba-")) await caches.delete(name);
      }
      await self.clients.claim();
    })(),
  );
});

/** The shell file of a page's address, or null for an address that is not a page. */
function shellOf(path) {
  for (const [start, file] of Object.entries(SHELLS)) {
    if (path === start) return file;
    if (start !== "/" && path.startsWith(start.endsWith("/") ? start : `${start}/`)) return file;
  }
  return null;
}

/** A page: from the network (a new release shows at once), else its shell from the cache. */
async function page(request) {
  try {
    return await fetch(request);
  } catch (err) {
    const shell = shellOf(new URL(request.url).pathname);
    const kept = shell && (await caches.match(shell, { cacheName: VERSION }));
    if (kept) return kept;
    throw err;
  }
}

/** A static file or a card image: from the cache, else fetched and kept. */
async function kept(request) {
  const cache = await caches.open(VERSION);
  const hit = await cache.match(request, { ignoreSearch: true });
  if (hit) return hit;
  const response = await fetch(request);
  if (response.ok) cache.put(request, response.clone());
  return response;
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    event.respondWith(page(request));
  } else if (url.pathname.startsWith("/static/") || url.pathname.startsWith("/cards/")
             || url.pathname === "/manifest.webmanifest") {
    event.respondWith(kept(request));
  }
});
