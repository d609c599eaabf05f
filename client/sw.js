// The service worker: keeps the client's own files (HTML, CSS, JS, icons, manifest) so that the app
// installs on a home screen and the start page and the rules open offline.
// It never touches the websocket (/ws), the API (/api/...) or /healthz: those always go to the server.
// Online every file comes from the network (the server says no-cache) and the copy is refreshed;
// offline the last copy is served, and any page of the app (/, /t/CODE, /r/SHARE) gets index.html.

const CACHE = "hartenjagen-v1";
const SHELL = "/";

/** Paths that are answers of the server, not files of the client: never cached, never answered here. */
function isServerAnswer(path) {
  return path === "/ws" || path.startsWith("/ws/") || path.startsWith("/api/") || path === "/healthz";
}

/** The paths the server answers with index.html. */
function isPage(path) {
  return path === "/" || path === "/index.html" || path.startsWith("/t/") || path.startsWith("/r/");
}

/** The key a file is kept under: its path without a query; every page is the one shell. */
function keyOf(url) {
  const path = new URL(url, self.location.origin).pathname;
  return isPage(path) ? SHELL : path;
}

// What index.html, the manifest and the modules refer to: found by reading them, so that a new
// module is kept without a list here to maintain.
const REFS = [
  /\b(?:href|src)="(\/[^"#?]*)"/g, // index.html
  /\bfrom\s+"(\.{1,2}\/[^"]+)"/g, // import ... from "./x.js"
  /\bimport\s*\(?\s*"(\.{1,2}\/[^"]+)"/g, // import "./x.js", import("./x.js")
  /"src"\s*:\s*"([^"]+)"/g, // manifest icons
];

async function keepAll() {
  const cache = await caches.open(CACHE);
  const seen = new Set();
  const queue = [SHELL];
  while (queue.length) {
    const path = queue.shift();
    if (seen.has(path)) continue;
    seen.add(path);
    const res = await fetch(path, { cache: "no-cache" });
    if (!res.ok) continue; // a file that went away is simply not kept
    await cache.put(path, res.clone());
    if (!/(\.js|\.webmanifest|\/)$/.test(path)) continue;
    const text = await res.text();
    for (const pattern of REFS) {
      for (const [, ref] of text.matchAll(pattern)) {
        const url = new URL(ref, self.location.origin + path);
        if (url.origin === self.location.origin && !isServerAnswer(url.pathname)) queue.push(keyOf(url));
      }
    }
  }
}

self.addEventListener("install", (event) => {
  event.waitUntil(keepAll().then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) if (name !== CACHE) await caches.delete(name);
    await self.clients.claim();
  })());
});

async function networkFirst(request) {
  const key = keyOf(request.url);
  try {
    const res = await fetch(request);
    if (res.ok && res.type === "basic") {
      const copy = res.clone();
      caches.open(CACHE).then((cache) => cache.put(key, copy)).catch(() => {});
    }
    return res;
  } catch (err) {
    const kept = await caches.match(key);
    if (kept) return kept;
    throw err;
  }
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || isServerAnswer(url.pathname)) return; // the browser's own way
  if (request.mode === "navigate" && !isPage(url.pathname) && !url.pathname.includes(".")) return;
  event.respondWith(networkFirst(request));
});
