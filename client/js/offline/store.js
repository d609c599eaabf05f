// The offline game kept in this browser (IndexedDB): the table's log entries, as the server keeps them online,
// and this device's finished offline games for the statistics. Used by the worker (which writes the entries
// before the page sees the move) and by the page (is there a game to continue? the statistics).
const DB = "hartenjagen-offline";
const VERSION = 1;

let opening = null;

/** Open (and on first use create) the database. */
export function openDb() {
  if (!opening) {
    opening = new Promise((resolve, reject) => {
      const req = indexedDB.open(DB, VERSION);
      req.onupgradeneeded = () => {
        const db = req.result;
        db.createObjectStore("games", { keyPath: "table_id" }); // {table_id, token, seat, finished, updated_at}
        db.createObjectStore("entries", { keyPath: ["table_id", "n"] }); // {table_id, n, text}
        db.createObjectStore("records", { keyPath: "id" }); // finished games, as the server records them
      };
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => { opening = null; reject(req.error); };
    });
  }
  return opening;
}

function done(tx) {
  return new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error || new Error("aborted"));
  });
}

function result(req) {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

/** A new game replaces the one kept before (one offline game at a time). */
export async function startGame(game) {
  const db = await openDb();
  const old = await currentGame();
  const tx = db.transaction(["games", "entries"], "readwrite");
  if (old) {
    tx.objectStore("games").delete(old.table_id);
    tx.objectStore("entries").delete(IDBKeyRange.bound([old.table_id, 0], [old.table_id, Infinity]));
  }
  tx.objectStore("games").put({ ...game, finished: false, updated_at: Date.now() });
  await done(tx);
}

/** Keep a change: its log entries, and a finished game's record, in one transaction. */
export async function keep(tableId, entries, record) {
  const db = await openDb();
  const tx = db.transaction(["games", "entries", "records"], "readwrite");
  for (const [n, text] of entries) tx.objectStore("entries").put({ table_id: tableId, n, text });
  const games = tx.objectStore("games");
  const game = await result(games.get(tableId));
  if (game) games.put({ ...game, updated_at: Date.now(), ...(record ? { finished: true } : {}) });
  if (record) tx.objectStore("records").put(record);
  await done(tx);
}

/** The kept game (the latest), or null. */
export async function currentGame() {
  const db = await openDb();
  const all = await result(db.transaction("games").objectStore("games").getAll());
  all.sort((a, b) => b.updated_at - a.updated_at);
  return all[0] || null;
}

/** The kept game's log entries, in order. */
export async function entriesOf(tableId) {
  const db = await openDb();
  const range = IDBKeyRange.bound([tableId, 0], [tableId, Infinity]);
  const rows = await result(db.transaction("entries").objectStore("entries").getAll(range));
  return rows.map((row) => row.text);
}

/** Forget the kept game (finished games stay in the statistics). */
export async function dropGame(tableId) {
  const db = await openDb();
  const tx = db.transaction(["games", "entries"], "readwrite");
  tx.objectStore("games").delete(tableId);
  tx.objectStore("entries").delete(IDBKeyRange.bound([tableId, 0], [tableId, Infinity]));
  await done(tx);
}

/** This device's finished offline games, as the server records games. */
export async function records() {
  const db = await openDb();
  return result(db.transaction("records").objectStore("records").getAll());
}
