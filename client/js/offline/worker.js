// The offline game's engine: Pyodide in a Web Worker, running the project's own Python (the same shared/ core and
// computer players as the server, and the server's I/O-free table with server/table/offline.py in the place of the hub).
// The page talks to it as it talks to the server: it sends the same messages and gets the same answers. Every
// change's log entries are kept in IndexedDB (store.js) before its messages go to the page.
import { keep, startGame } from "./store.js";

const ENGINE = "/engine/python.json"; // our Python and the runtime it names (server/table/bundle.py)
const BOT_DELAY_MS = 600; // the pause before a computer player's move, as `hearts serve --bot-delay` has it
let py = null;
let solo = null;
let clock = null; // Python's time module: the offline table's clocks
let booting = null;
let warming = null; // the hard player's modules, loaded after the start
let tableId = null;
let botDelay = BOT_DELAY_MS;
let pace = 1; // the host's pace (slow, normal, fast) as a factor of the pause
const due = new Set(); // computer seats whose move is asked for
let chain = Promise.resolve(); // every call into Python, one after another

function post(msg) {
  self.postMessage(msg);
}

const PROGRESS_MS = 100; // how often the bytes of the runtime's files are told to the page while they come

/** Tell the page which step of the start is under way: "files", "runtime" (with its bytes) or "python". */
function progress(step, loaded = 0, total = 0) {
  post({ op: "progress", step, loaded, total });
}

/**
 * Count the bytes of the runtime's files (`runtime`: its folder and each file's size) as they arrive, so that the page
 * shows how far a first download (13.5 MB) is: returns the worker's fetch that counts what it streams (the answer
 * keeps its headers: the runtime's own loader streams it) and `imported(name)` for a file the loader imports whole.
 */
function countBytes(plain, runtime) {
  const sizes = runtime.sizes || {};
  const total = Object.values(sizes).reduce((a, b) => a + b, 0);
  let loaded = 0;
  let told = 0;
  const tell = (force) => {
    const now = performance.now();
    if (!force && now - told < PROGRESS_MS) return;
    told = now;
    progress("runtime", Math.min(loaded, total), total);
  };
  // the modules the runtime's loader imports (not fetched): counted whole once they have come
  const seen = new Set();
  const imported = (name) => {
    if (seen.has(name) || !(name in sizes)) return;
    seen.add(name);
    loaded += sizes[name];
    tell(true);
  };
  let watcher = null;
  if (typeof PerformanceObserver === "function") {
    watcher = new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        const path = new URL(entry.name).pathname;
        if (entry.initiatorType !== "fetch" && path.startsWith(runtime.base)) imported(path.slice(runtime.base.length));
      }
    });
    try {
      watcher.observe({ type: "resource", buffered: true });
    } catch {
      watcher = null; // no resource timing in this worker: the imported modules are not counted
    }
  }
  const fetcher = async (input, init) => {
    const res = await plain(input, init);
    const url = new URL(input instanceof Request ? input.url : String(input), self.location.href);
    if (!res.ok || !res.body || !url.pathname.startsWith(runtime.base)) return res;
    seen.add(url.pathname.slice(runtime.base.length));
    const counter = new TransformStream({
      transform(chunk, out) {
        loaded += chunk.byteLength;
        tell(false);
        out.enqueue(chunk);
      },
      flush() {
        tell(true);
      },
    });
    return new Response(res.body.pipeThrough(counter), { status: res.status, statusText: res.statusText, headers: res.headers });
  };
  return { fetcher, imported, stop: () => watcher && watcher.disconnect() };
}

async function boot() {
  const started = performance.now();
  const phases = {};
  progress("files");
  const answer = await (await fetch(ENGINE)).text();
  const bundle = JSON.parse(answer);
  const key = await digest(answer); // names our Python and the runtime both: a snapshot holds them imported
  phases.bundle = performance.now() - started;
  progress("runtime");
  const plainFetch = self.fetch;
  const bytes = countBytes(plainFetch.bind(self), bundle.runtime);
  self.fetch = bytes.fetcher;
  let snapshot = "none";
  let cache = null; // where this start keeps its snapshot, when it makes one
  try {
    const { loadPyodide } = await import(bundle.runtime.base + "pyodide.mjs");
    bytes.imported("pyodide.mjs");
    const saved = key && (await readSnapshot(bundle.runtime, key));
    if (saved) {
      try {
        py = await loadPyodide({ indexURL: bundle.runtime.base, _loadSnapshot: saved });
        // the snapshot holds the random module's state as it was: every start would draw the same numbers
        py.runPython("import random; random.seed()");
        snapshot = "used";
      } catch {
        py = null;
        await dropSnapshot(bundle.runtime, key); // a snapshot that does not load is made again below
      }
    }
    if (!py) {
      cache = key && (await engineCache());
      py = await loadPyodide({ indexURL: bundle.runtime.base, _makeSnapshot: Boolean(cache) });
    }
  } finally {
    self.fetch = plainFetch;
    bytes.stop();
  }
  phases.runtime = performance.now() - started - phases.bundle;
  progress("python");
  for (const [path, text] of Object.entries(bundle.files)) {
    const parts = path.split("/");
    for (let i = 1; i < parts.length; i += 1) {
      const dir = "/engine/" + parts.slice(0, i).join("/");
      if (!py.FS.analyzePath(dir).exists) py.FS.mkdirTree(dir);
    }
    py.FS.writeFile("/engine/" + path, text);
  }
  // The hash is worked out from the files written just now, also when the modules came imported in a snapshot.
  const facts = JSON.parse(py.runPython(`
import json, sys
if "/engine" not in sys.path:
    sys.path.insert(0, "/engine")
from hartenjagen.server.table import offline as _solo
from hartenjagen.server.table.bundle import files_hash, shared_files
_loaded = sorted(n for n in sys.modules if n.startswith("hartenjagen.shared"))
_outside = [n for n in _loaded if not (getattr(sys.modules[n], "__file__", "") or "").startswith("/engine/hartenjagen/shared/")]
json.dumps({"hash": files_hash(shared_files()), "modules": len(_loaded), "outside": _outside, "python": sys.version.split()[0]})
`));
  if (cache) {
    // taken now, before any object of ours is handed to the page, and kept before the engine says it is ready: a page
    // closed at once would otherwise lose it (the first start takes that much longer, once)
    if (await keepSnapshot(cache, bundle.runtime, key, py.makeMemorySnapshot())) snapshot = "made";
  }
  solo = py.pyimport("hartenjagen.server.table.offline");
  clock = py.pyimport("time");
  phases.python = performance.now() - started - phases.bundle - phases.runtime;
  return {
    ...facts, phases, snapshot, expected: bundle.shared_hash, runtime: bundle.runtime.version, ms: performance.now() - started,
  };
}

// The started interpreter with our Python imported, as a memory snapshot (Pyodide's own): the next start restores it
// instead of starting Python and importing ours again. It is named by the hash of /engine/python.json (our files and
// the runtime's version) and kept gzipped beside the runtime's files, in the cache where the service worker keeps the
// engine: only where the person asked for the engine (never while the browser saves data). A new snapshot drops the
// older one, and a new runtime's files drop it with the old runtime's.

function snapshotPath(runtime, key) {
  return `${runtime.base}snapshot-${key}.gz`;
}

/** The first 16 hex digits of the SHA-256 of ``text``, or null where the page is not a secure context. */
async function digest(text) {
  if (typeof crypto === "undefined" || !crypto.subtle) return null;
  const hash = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
  return Array.from(hash.slice(0, 8), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** The cache that keeps the engine on this device, or null (the engine is not kept, or no cache here). */
async function engineCache() {
  if (typeof caches === "undefined" || typeof CompressionStream === "undefined") return null;
  try {
    for (const name of await caches.keys()) {
      const cache = await caches.open(name);
      if (await cache.match(ENGINE)) return cache;
    }
  } catch {
    // no cache storage in this worker
  }
  return null;
}

/** The kept snapshot of this runtime and our Python, or null. */
async function readSnapshot(runtime, key) {
  if (typeof caches === "undefined" || typeof DecompressionStream === "undefined") return null;
  try {
    const kept = await caches.match(snapshotPath(runtime, key));
    if (!kept) return null;
    const plain = kept.body.pipeThrough(new DecompressionStream("gzip"));
    return new Uint8Array(await new Response(plain).arrayBuffer());
  } catch {
    return null;
  }
}

/** Keep ``bytes`` as the snapshot of this runtime and our Python in the engine's cache, dropping any older one; true
 * once kept. */
async function keepSnapshot(cache, runtime, key, bytes) {
  try {
    const packed = new Blob([bytes]).stream().pipeThrough(new CompressionStream("gzip"));
    const path = snapshotPath(runtime, key);
    await cache.put(path, new Response(packed));
    for (const request of await cache.keys()) {
      const other = new URL(request.url).pathname;
      if (other !== path && /\/snapshot-[0-9a-f]+\.gz$/.test(other)) await cache.delete(request);
    }
    return true;
  } catch {
    return false; // no room on the device: the next start loads the runtime as this one did
  }
}

/** Forget a snapshot that did not load. */
async function dropSnapshot(runtime, key) {
  try {
    for (const name of await caches.keys()) await (await caches.open(name)).delete(snapshotPath(runtime, key));
  } catch {
    // nothing kept
  }
}

function call(fn) {
  const next = chain.then(fn);
  chain = next.catch(() => {});
  return next;
}

/** Carry out one outcome of the table: keep its entries, then show its messages; ask for computer moves. */
async function apply(outJson) {
  const out = JSON.parse(outJson);
  if (out.table_id) tableId = out.table_id;
  if (tableId && (out.entries.length || out.record)) await keep(tableId, out.entries, out.record);
  for (const text of out.messages) post({ op: "message", text });
  if (out.record) post({ op: "finished", record: out.record });
  pace = out.pace || 1;
  for (const seat of out.computers) {
    if (due.has(seat)) continue;
    due.add(seat);
    const asked = performance.now();
    setTimeout(() => call(() => computerMove(seat, asked)), 0);
  }
}

let table = null; // the Python OfflineTable object

/** A computer player thinks at once and shows its move when the pause since it was asked is over (as online). */
async function computerMove(seat, asked) {
  due.delete(seat);
  if (!table) return;
  const text = outcome(table.computer(seat));
  const rest = botDelay * pace - (performance.now() - asked);
  if (rest > 0) await new Promise((done) => setTimeout(done, rest));
  await apply(text);
}

/** The JSON text of a Python Outcome, the Python object let go. */
function outcome(proxy) {
  const text = proxy.to_json();
  proxy.destroy();
  return text;
}

async function handle(msg) {
  if (msg.op === "boot") {
    if (!booting) booting = boot();
    try {
      post({ op: "ready", ...(await booting) });
      // The hard player's modules load once the engine is ready, not within its first decision nor the start
      if (!warming) warming = setTimeout(() => call(() => py.runPython("import hartenjagen.shared.bots.hard")), 0);
    } catch (err) {
      post({ op: "failed", error: String(err && err.message ? err.message : err) });
    }
    return;
  }
  await booting;
  if (msg.op === "delay") {
    botDelay = msg.ms;
  } else if (msg.op === "create") {
    const fresh = solo.OfflineTable(clock, msg.name || "");
    const out = outcome(fresh.handle(msg.text));
    const joined = JSON.parse(out).messages.map((text) => JSON.parse(text)).find((m) => m.type === "joined");
    if (joined) {
      // a new game replaces the kept one (its first entries are kept by apply, below)
      await startGame({ table_id: JSON.parse(out).table_id, token: joined.seat_token, seat: joined.seat });
      if (table) table.destroy();
      table = fresh;
      due.clear();
    } else {
      fresh.destroy();
    }
    await apply(out);
  } else if (msg.op === "send") {
    if (!table) {
      post({ op: "message", text: JSON.stringify({ type: "error", code: "not_seated" }) });
      return;
    }
    await apply(outcome(table.handle(msg.text)));
  } else if (msg.op === "restore") {
    if (table) table.destroy();
    table = solo.OfflineTable(clock, msg.name || "");
    tableId = msg.table_id;
    due.clear();
    try {
      const entries = py.toPy(msg.entries);
      await apply(outcome(table.restore(msg.table_id, entries, msg.token)));
      entries.destroy();
    } catch (err) {
      table = null;
      tableId = null;
      post({ op: "damaged", table_id: msg.table_id, error: String(err && err.message ? err.message : err).slice(-300) });
    }
  } else if (msg.op === "stats") {
    post({ op: "stats", id: msg.id, stats: JSON.parse(solo.OfflineTable.stats(JSON.stringify(msg.records))) });
  } else if (msg.op === "decide") {
    // One computer decision from a view and a seed, as the offline table decides, timed here (the tests and
    // `hearts bench offline` use it).
    const commands = py.pyimport("hartenjagen.server.table.commands");
    const view = py.runPython("import json; json.loads").call(null, JSON.stringify(msg.view));
    const started = performance.now();
    const intent = commands.decide_here(msg.level, view, msg.seed);
    const ms = performance.now() - started;
    const text = py.runPython("import json; json.dumps").call(null, intent);
    post({ op: "decision", id: msg.id, intent: JSON.parse(text), ms });
  }
}

self.onmessage = (event) => {
  call(() => handle(event.data)).catch((err) => post({ op: "error", error: String(err && err.message ? err.message : err) }));
};
