// Thirty's service worker, served at /sw.js so that it covers every page. It keeps the last
// copy of each game page this phone opened, and of the files those pages use, and shows them
// when the connection drops (the page itself then says it is offline). Everything is asked of
// the network first, so a phone that is online always sees the game as it is now.
"use strict";
const CACHE = "thirty-2";  // renamed: the new worker drops what an older one kept (a chart a turn)
const GAME_PAGE = /^\/g\/[^/]+\/$/;
const KEPT_FILES = /^\/(static\/|g\/[^/]+\/chart\.svg$|manifest\.webmanifest$)/;

self.addEventListener("install", () => self.skipWaiting());

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name !== CACHE) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate" && GAME_PAGE.test(url.pathname)) {
    // One copy per game, whatever the query string (?new=1 after creating it).
    event.respondWith(networkFirst(request, url.origin + url.pathname));
  } else if (KEPT_FILES.test(url.pathname)) {
    event.respondWith(networkFirst(request, keptAs(url, request)));
  }
});

// A game's chart is kept once per size and language: the newest one this phone fetched. Its
// address names the version, which every turn changes: each would otherwise be kept for
// good, and a page kept at a later turn than its last fetched chart (a phone fetches the
// chart only when it is on the screen) would show none without a connection.
function keptAs(url, request) {
  if (!url.pathname.endsWith("/chart.svg")) return request;
  const key = new URL(url);
  key.searchParams.delete("v");
  return key.href;
}

// A page that received a live update asks for a fresh copy of itself to keep, so that a
// reload without a connection shows the game as this phone last saw it.
self.addEventListener("message", (event) => {
  const path = event.data && event.data.refresh;
  if (typeof path !== "string" || !GAME_PAGE.test(path)) return;
  const url = new URL(path, self.location.origin);
  event.waitUntil(networkFirst(new Request(url, { credentials: "same-origin" }), url.href)
    .catch(() => undefined));
});

async function networkFirst(request, key) {
  const cache = await caches.open(CACHE);
  try {
    const response = await fetch(request);
    if (response.ok) await cache.put(key, response.clone());
    return response;
  } catch (error) {
    const kept = await cache.match(key, { ignoreVary: true });
    if (kept) return kept;
    throw error;
  }
}
