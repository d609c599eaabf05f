// The page's side of the offline game: starts the worker (worker.js) on first use and talks to it as the page
// talks to the server, with the same messages. Nothing here decides a rule: the worker's Python does.

/**
 * Create the offline engine. onMessage(msg) gets every table message as a server message;
 * onStatus(status, facts) hears "starting", "progress" (facts: step, loaded, total: how far the start is), "ready"
 * (facts: hash, ms, python...), "failed", "damaged", "finished".
 */
export function createOfflineEngine({ onMessage, onStatus }) {
  let worker = null;
  let ready = null;
  let delayMs = null;
  let nextId = 1;
  const waiting = new Map();

  function receive(event) {
    const m = event.data;
    if (m.id && waiting.has(m.id)) {
      waiting.get(m.id)(m);
      waiting.delete(m.id);
    } else if (m.op === "message") {
      onMessage(JSON.parse(m.text));
    } else if (["damaged", "finished"].includes(m.op)) {
      onStatus(m.op, m);
    } else if (m.op === "error") {
      console.error("offline engine:", m.error);
    }
  }

  function start() {
    if (ready) return ready;
    worker = new Worker(new URL("./worker.js", import.meta.url), { type: "module" });
    ready = new Promise((resolve, reject) => {
      const first = (event) => {
        const m = event.data;
        if (m.op === "progress") {
          onStatus("progress", m);
        } else if (m.op === "ready") {
          worker.onmessage = receive;
          onStatus("ready", m);
          resolve(m);
        } else if (m.op === "failed") {
          onStatus("failed", m);
          reject(new Error(m.error));
        }
      };
      worker.onmessage = first;
      worker.onerror = (event) => {
        onStatus("failed", { error: event.message || "the offline engine did not start" });
        reject(new Error(event.message));
      };
    });
    ready.catch(() => {
      ready = null; // the next use tries again (the files may be there by then)
      if (worker) worker.terminate();
    });
    onStatus("starting", {});
    worker.postMessage({ op: "boot" });
    if (delayMs !== null) worker.postMessage({ op: "delay", ms: delayMs });
    return ready;
  }

  function post(msg) {
    start();
    worker.postMessage(msg);
  }

  function ask(msg) {
    return start().then(() => new Promise((resolve) => {
      const id = nextId;
      nextId += 1;
      waiting.set(id, resolve);
      worker.postMessage({ ...msg, id });
    }));
  }

  return {
    start,
    /** Send a table message (pass, play, hint, ready, restart, new_game) to the offline table. */
    send(msg) {
      post({ op: "send", text: JSON.stringify(msg) });
      return true;
    },
    /** Open a new offline table (a `create` message) for the person called `name`. */
    create(msg, name) {
      post({ op: "create", text: JSON.stringify(msg), name });
    },
    /** Fold a kept game (its log entries) back into the table and show it. */
    restore(game, entries, name) {
      post({ op: "restore", table_id: game.table_id, token: game.token, entries, name });
    },
    /** The statistics of this device's finished offline games, computed by the same code as the server's. */
    stats(records) {
      return ask({ op: "stats", records }).then((m) => m.stats);
    },
    /** One computer decision from a view and a seed, as the offline table decides, with the milliseconds it took. */
    decide(level, seed, view) {
      return ask({ op: "decide", level, seed, view });
    },
    /** The pause before a computer player's move (tests shorten it). */
    setDelay(ms) {
      delayMs = ms;
      if (worker) worker.postMessage({ op: "delay", ms });
    },
    get started() {
      return Boolean(worker);
    },
  };
}
