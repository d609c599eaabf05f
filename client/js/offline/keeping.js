// Whether this device keeps the offline game's engine (the project's Python and the 13.5 MB runtime) for playing with
// no network. A first visit does not fetch it: the service worker (sw.js) keeps it when this page asks, after the app
// is installed, after Play offline, or once the person plays against computer players; never while the browser asks
// to save data (navigator.connection.saveData). docs/offline.md says which.

/** Whether the browser asks to save data: then nothing is fetched for offline play unasked. */
export function savingData() {
  const connection = typeof navigator !== "undefined" ? navigator.connection : null;
  return Boolean(connection && connection.saveData);
}

/** Whether this page runs as the installed app (from the home screen). */
export function runsInstalled() {
  const standalone = typeof matchMedia === "function" && matchMedia("(display-mode: standalone)").matches;
  return standalone || navigator.standalone === true;
}

/** Ask the service worker to keep the engine; false where it will not (saving data, no service worker). */
export function askToKeep() {
  if (savingData() || !("serviceWorker" in navigator) || !window.isSecureContext) return false;
  navigator.serviceWorker.ready.then((registration) => {
    if (registration.active) registration.active.postMessage({ op: "keep_engine" });
  }).catch(() => {});
  return true;
}

/** Whether every file of the engine is kept on this device (read from the service worker's caches). */
export async function engineKept() {
  if (typeof caches === "undefined") return false;
  try {
    const engine = await caches.match("/engine/python.json");
    if (!engine) return false;
    const { runtime } = await engine.json();
    const kept = await Promise.all(runtime.files.map((name) => caches.match(runtime.base + name)));
    return kept.every(Boolean);
  } catch {
    return false; // no caches here (a private window of some browsers): nothing kept
  }
}

/** Hear the service worker say that it kept the engine (`onKept(kept)`). */
export function onEngineKept(onKept) {
  if (!("serviceWorker" in navigator)) return;
  navigator.serviceWorker.addEventListener("message", (event) => {
    if (event.data && event.data.op === "engine_kept") onKept(Boolean(event.data.kept));
  });
}

/** Whether `table` is a game against computer players that has been dealt (it asks for the engine, once). */
export function againstComputers(table) {
  return Boolean(table && table.view && Array.isArray(table.seats) && table.seats.some((s) => s && s.kind === "computer"));
}
