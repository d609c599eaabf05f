// The service worker: keeps the client's own files (HTML, CSS, JS, icons, manifest) so that the app
// installs on a home screen and the start page and the rules open offline, and, when the page asks for it
// (`keep_engine`: the app was installed, the person played offline or against computer players, never while the
// browser asks to save data), the offline game's engine: the project's Python (/engine/python.json) and the Python
// runtime it names (/runtime/..., 13.5 MB, kept until its version changes), so that a game against computer players
// plays with no network at all. A first visit does not fetch the engine; once kept, a new version keeps it up to date.
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
  return path === "/" || path === "/index.html" || path === "/offline" || path.startsWith("/t/") || path.startsWith("/r/");
}

const ENGINE = "/engine/python.json"; // the offline game's Python, with the runtime's files it needs
const RUNTIME = "/runtime/"; // the runtime's folder names its version: a kept copy never goes stale

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
  /\bnew URL\(\s*"(\.{1,2}\/[^"]+)"/g, // new URL("./offline/worker.js", import.meta.url): the worker
];

/** Whether the browser asks to save data (then the engine is never fetched unasked). */
function savingData() {
  const connection = self.navigator && self.navigator.connection;
  return Boolean(connection && connection.saveData);
}

/** Keep the offline game's engine: its Python, then each runtime file not kept yet; true once all are kept. */
async function keepEngine(cache) {
  const res = await fetch(ENGINE, { cache: "no-cache" });
  if (!res.ok) return false; // a server without the engine: the rest of the app still works offline
  await cache.put(ENGINE, res.clone());
  const { runtime } = await res.json();
  for (const request of await cache.keys()) {  // an older runtime's files, after an update
    const path = new URL(request.url).pathname;
    if (path.startsWith(RUNTIME) && !path.startsWith(runtime.base)) await cache.delete(request);
  }
  let kept = true;
  for (const name of runtime.files) {
    const path = runtime.base + name;
    if (await cache.match(path)) continue;
    const file = await fetch(path);
    if (file.ok) await cache.put(path, file);
    else kept = false;
  }
  return kept;
}

/** Keep the engine as the page asked, then tell every page whether it is kept (they say "Ready to play..."). */
async function keepEngineAsked() {
  let kept = false;
  try {
    kept = await keepEngine(await caches.open(CACHE));
  } finally {
    for (const client of await self.clients.matchAll({ includeUncontrolled: true })) {
      client.postMessage({ op: "engine_kept", kept });
    }
  }
}

async function keepAll() {
  const cache = await caches.open(CACHE);
  // the engine only where it was kept before (the person asked for it then): a new version keeps it up to date
  if (!savingData() && (await cache.match(ENGINE))) await keepEngine(cache);
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

// The page asks for the engine: the app was installed, or the person played offline or against computer players.
self.addEventListener("message", (event) => {
  if (event.data && event.data.op === "keep_engine") event.waitUntil(keepEngineAsked());
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

/** The runtime's files: the kept copy when there is one (it cannot change under its versioned path). */
async function keptFirst(request) {
  const key = keyOf(request.url);
  const kept = await caches.match(key);
  if (kept) return kept;
  const res = await fetch(request);
  if (res.ok && res.type === "basic") {
    const copy = res.clone();
    caches.open(CACHE).then((cache) => cache.put(key, copy)).catch(() => {});
  }
  return res;
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || isServerAnswer(url.pathname)) return; // the browser's own way
  if (request.mode === "navigate" && !isPage(url.pathname) && !url.pathname.includes(".")) return;
  event.respondWith(url.pathname.startsWith(RUNTIME) ? keptFirst(request) : networkFirst(request));
});
