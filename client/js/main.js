// Entry point: wiring only. The connection, the offline engine, the page's events, the server's HTTP answers and the
// browser's address hand what happens to update.js (messages to applyMessage, intents to applyIntent, answers to
// applyAnswer); this file carries out the effects it returns (send, fetch, storage, address, sound, clipboard...) and
// asks for a redraw. It changes no field of the state. Words: docs/glossary.md.
import { browserLanguage, setLanguage, t } from "./i18n.js";
import { loadPrefs, savePrefs, applyPrefs } from "./prefs.js";
import { createState } from "./state.js";
import { applyOpened, applyMessage, applyIntent, applyConnection, applyOfflineStatus, applyKept } from "./update.js";
import { applyOfflineStats, applySavedSeat, applyLoad, applyAnswer, screenAddress } from "./update.js";
import { loadSession, saveSession, forgetSession, loadPlayerToken, savePlayerToken, latestSession } from "./session.js";
import { markSignedOut, startFresh, signedOutOf, signedOutIn, SIGNED_OUT } from "./session.js";
import { createConnection } from "./socket.js";
import { createRenderer } from "./render/index.js";
import { bindEvents } from "./events.js";
import { soundFor, yourTurnSound } from "./sound.js";
import { fetchAnswer, keepStats } from "./remote.js";
import { shareInPath } from "./viewer.js";
import { bindChat, saveMuted } from "./chat.js";
import { createOfflineEngine } from "./offline/engine.js";
import { currentGame, entriesOf, dropGame, records as offlineRecords } from "./offline/store.js";
import { askToKeep, engineKept, onEngineKept, runsInstalled } from "./offline/keeping.js";
import { showsInvite } from "./render/invite.js";

const OPEN_TABLES_MS = 3000; // how often the start page's list of open tables is refreshed while it is shown
const prefs = loadPrefs(browserLanguage());
setLanguage(prefs.lang);
applyPrefs(prefs);

const state = createState(prefs);
// what the page was opened with: its address (/t/CODE, ?deal=N, ?device=CODE) and what this browser keeps
applyOpened(state, { path: location.pathname, search: location.search, playerToken: loadPlayerToken(), signedOut: signedOutOf() });
const renderer = createRenderer(state, document);
let opened = false; // the connection was opened: from there on it reconnects by itself
let helloName = null; // the name the connection greeted with

const conn = createConnection({
  url: `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`,
  onOpen: hello,
  onMessage: (msg) => receive(msg),
  final: [SIGNED_OUT],
  onStatus: (status, closeCode) => run(applyConnection(state, status, closeCode)),
});

// The offline game: the same table, played by the project's Python in a worker (offline/), kept in IndexedDB. Its
// messages are the server's and take the same path (receive); its status is a fact of the page.
const offlineInPath = location.pathname === "/offline";
const engine = createOfflineEngine({
  onMessage: (msg) => receive(msg, true),
  onStatus: (status, facts) => run(applyOfflineStatus(state, status, facts)),
});

/** The one way in for a server message, from the socket or from the offline table (`offline`). */
function receive(msg, offline = false) {
  run(applyMessage(state, msg, { offline }));
}

/** The one way in for an intent of the person (docs/glossary.md): update.js changes the state, this carries it out. */
function dispatch(intent) {
  run(applyIntent(state, intent));
}

function hello() {
  helloName = prefs.name;
  conn.send({ type: "hello", version: 1, name: prefs.name, ...(state.playerToken ? { player_token: state.playerToken } : {}) });
}

/** Carry out the effects update.js returned, in order, then redraw (unless one asks for quiet). */
function run(effects) {
  let quiet = false;
  let focus = null;
  for (const effect of effects) {
    if (effect.do === "quiet") quiet = true;
    else if (effect.do === "focus") focus = effect.field;
    else carryOut(effect);
  }
  if (focus) focusField(focus); // drawn at once, so that the field is there
  else if (!quiet) renderer.request();
  warmOffline(); // back on the start page with no network (a table left, a link that found no server)
}

/** One effect: what the browser, the connection or the offline engine must do. */
function carryOut(effect) {
  switch (effect.do) {
    case "send":
      if (!conn.send(effect.msg)) dispatch({ type: "unsent", msg: effect.msg });
      return;
    case "offline_send":
      engine.send(effect.msg);
      return;
    case "connect":
      if (opened || !prefs.name) return;
      opened = true; // from here on the connection reconnects by itself
      conn.open();
      return;
    case "move": // a proxy that routes to each node: on to the node that holds the table
      if (!conn.move(effect.path)) conn.drop();
      return;
    case "greet_again": // the name is told to the server in `hello`: greet again under the new name
      if (conn.connected && helloName !== prefs.name) conn.drop();
      return;
    case "signed_out":
      opened = false; // opened again once the person starts fresh (or uses a code from another device)
      return;
    case "stop":
      conn.stop();
      return;
    case "name_someone": // a name to greet with; the code from the other device brings the player's own
      dispatch({ type: "device_name", name: t("device_someone") });
      return;
    case "save_prefs":
      savePrefs(prefs);
      return;
    case "save_session": // the seat's token, so that a reload or reconnect returns to the same seat
      saveSession(effect.session);
      return;
    case "forget_session":
      forgetSession(effect.code);
      return;
    case "save_player_token":
      savePlayerToken(effect.token);
      return;
    case "mark_signed_out": // another device signed this one out: its token and seats go, and a reload still says so
      markSignedOut(effect.name);
      return;
    case "start_fresh": // the next hello makes a new player
      startFresh();
      return;
    case "save_muted": // who is muted in this browser's chat, by name
      saveMuted(effect.names);
      return;
    case "keep_stats": // the last statistics, shown offline
      keepStats(effect.token, effect.data);
      return;
    case "language":
      setLanguage(prefs.lang);
      return;
    case "apply_prefs":
      applyPrefs(prefs);
      return;
    case "name_field": { // a field the person typed in keeps its text on a redraw: the name that came is put in it
      const field = document.getElementById("name");
      if (field) field.value = effect.name;
      return;
    }
    case "code_field": { // what a refusal ("no table with that code") is about
      const field = document.getElementById("code");
      if (field) field.value = effect.code;
      return;
    }
    case "sounds": {
      const table = state.table;
      if (!table) return;
      soundFor(table.events, table.you, prefs);
      const v = table.view;
      const before = effect.before;
      if (v && v.turn === table.you && (!before || before.turn !== table.you || before.tricks.length !== v.tricks.length)) yourTurnSound(prefs);
      return;
    }
    case "load":
      load(effect);
      return;
    case "fetch": // the server's HTTP answer comes back as a message
      fetchAnswer(effect.ask).then((answer) => run(applyAnswer(state, answer)));
      return;
    case "address":
      followScreen();
      return;
    case "push_address":
      history.pushState(effect.replay ? { replay: true } : null, "", effect.path);
      return;
    case "replace_address":
      if (effect.from && location.pathname !== effect.from) return;
      if (effect.ifSearch && !location.search.includes(effect.ifSearch)) return;
      history.replaceState(null, "", effect.path);
      return;
    case "reload":
      location.reload();
      return;
    case "offline_create":
      engine.create(effect.msg, prefs.name);
      return;
    case "offline_restore":
      entriesOf(effect.game.table_id).then((entries) => engine.restore(effect.game, entries, prefs.name));
      return;
    case "offline_find":
      findKept().then((game) => { if (effect.then) dispatch({ type: effect.then, game }); });
      return;
    case "offline_drop":
      dropGame(effect.tableId).catch(() => {});
      return;
    case "offline_stats":
      loadOfflineStats();
      return;
    case "keep_engine": // the service worker keeps the engine and says so (onEngineKept); not while saving data
      if (askToKeep()) run(applyOfflineStatus(state, "keeping"));
      return;
    case "copy":
      if (effect.what === "copied") copyLink(effect.text);
      else copyText(effect.text);
      return;
    case "later":
      setTimeout(() => dispatch(effect.intent), effect.ms);
      return;
    default:
      throw new Error(`unknown effect: ${effect.do}`);
  }
}

/**
 * What an effect asks of the server over HTTP: update.js says what waits and asks (`fetch`). The open tables are
 * asked only while the start page shows.
 */
function load(effect) {
  if (effect.what === "open_tables") pollOpenTables();
  else run(applyLoad(state, effect));
}

/** Draw now and put the focus in the form field the person must fix. */
function focusField(field) {
  renderer.drawNow();
  const input = document.getElementById(field);
  if (input) input.focus();
}

/**
 * Keep the address bar in step with the screen: a new entry when the screen moves to another table or back to the
 * start page (so the browser's Back returns to where the player was). The replay viewer keeps its own address, and
 * the start page keeps a ?deal=N it was opened with.
 */
function followScreen() {
  if (state.replay) return;
  const path = screenAddress(state);
  if (path && location.pathname !== path) history.pushState(null, "", path);
}

/** Look for an offline game kept in this browser (the start page offers to continue it). */
async function findKept() {
  let game = null;
  try {
    game = await currentGame();
  } catch {
    game = null; // no IndexedDB here (a private window of some browsers): nothing kept
  }
  run(applyKept(state, game));
  return state.offline.saved;
}

/** This device's finished offline games, figured by the worker's Python as the server figures online games. */
async function loadOfflineStats() {
  let kept = [];
  try {
    kept = await offlineRecords();
  } catch {
    kept = [];
  }
  if (!kept.length) {
    run(applyOfflineStats(state, null));
    return;
  }
  run(applyOfflineStats(state, "loading"));
  let stats;
  try {
    stats = await engine.stats(kept);
  } catch {
    stats = "error";
  }
  run(applyOfflineStats(state, stats));
}

/** The invitation link on the clipboard; where the browser refuses, copied from its field. */
async function copyLink(link) {
  try {
    await navigator.clipboard.writeText(link);
  } catch {
    const input = document.querySelector(".code-box .link");
    if (input) {
      input.select();
      document.execCommand("copy");
    }
  }
}

/** Put text on the clipboard; where the browser refuses, copy it from a hidden field. */
async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    const field = document.createElement("textarea");
    field.value = text;
    field.setAttribute("readonly", "");
    field.style.position = "fixed";
    field.style.opacity = "0";
    document.body.append(field);
    field.select();
    document.execCommand("copy");
    field.remove();
  }
}

/** Whether the start page is what the person sees now (its list of open tables is then kept fresh). */
function onStartPage() {
  return state.screen === "start" && !state.replay && !showsInvite(state) && !state.offline.playing &&
    document.visibilityState === "visible" && navigator.onLine !== false;
}

/** Refresh the open tables while the start page is shown: every few seconds, and at once when it shows again. */
function pollOpenTables() {
  if (onStartPage()) run(applyLoad(state, { what: "open_tables" }));
}
setInterval(pollOpenTables, OPEN_TABLES_MS);
document.addEventListener("visibilitychange", pollOpenTables);

const app = { state, dispatch, request: renderer.request };
bindEvents(app);
bindChat(app);
window.addEventListener("resize", () => renderer.request());
// The browser's Back and Forward: the screen follows the address (the replay viewer its own).
window.addEventListener("popstate", () => dispatch({ type: "address", path: location.pathname, search: location.search, share: shareInPath() }));

// Start: a replay link opens the viewer; back to our seat at /t/CODE when we have its token; join it when we have a name.
if (shareInPath()) {
  run(applyLoad(state, { what: "replay", key: { share: shareInPath() } }));
} else if (state.wantedCode) {
  const saved = loadSession(state.wantedCode);
  if (saved) {
    run(applySavedSeat(state, saved));
  } else if (prefs.name) {
    dispatch({ type: "join", tableCode: state.wantedCode });
  } else {
    // An invited friend without a saved name: the table's host and rules, a focused name field, one Join button.
    run(applyLoad(state, { what: "invite", code: state.wantedCode })); // its answer puts the focus in the name field
  }
} else if (offlineInPath) {
  dispatch({ type: "continue_offline" });
} else {
  run(applyLoad(state, { what: "daily" }));
  pollOpenTables();
  const latest = latestSession(); // "Back to your table", once the server says that seat still holds
  if (latest) run(applyLoad(state, { what: "comeback", session: latest }));
  // A kept game: start the engine while the page is read, so that a game begins without a wait.
  findKept().then((kept) => {
    if (kept) engine.start().catch(() => {});
  });
}
warmOffline();

/** The start page with no network offers Play offline: start its engine at once (its progress shows beside it). */
function warmOffline() {
  if (navigator.onLine !== false || state.screen !== "start" || state.replay || engine.started) return;
  engine.start().catch(() => {});
}

// Whether this device keeps the offline game's engine: asked of the caches once, then told by the service worker.
// The installed app plays with no network too: it keeps the engine (not while the browser asks to save data).
engineKept().then((kept) => {
  if (state.offline.kept === null) run(applyOfflineStatus(state, "kept", { kept }));
  if (runsInstalled()) dispatch({ type: "keep_engine" });
});
onEngineKept((kept) => run(applyOfflineStatus(state, "kept", { kept })));
window.addEventListener("appinstalled", () => dispatch({ type: "keep_engine" }));
if (state.device.linked) dispatch({ type: "use_device_code", text: state.device.linked }); // opened from another device's code
// Another page of this browser was told that the device was signed out: this page says so at once too (a start page
// holds no connection of its own), and greets nobody until the person starts fresh.
window.addEventListener("storage", (event) => {
  if (signedOutIn(event) === null || state.signedOut !== null) return;
  conn.stop();
  run(applyConnection(state, "closed", SIGNED_OUT));
});
// The network comes and goes: the start page offers Play offline in place of Create table while it is gone.
window.addEventListener("offline", () => {
  warmOffline();
  renderer.request();
});
window.addEventListener("online", () => renderer.request());
renderer.drawNow();

// A handle for tests and curious players: the state, the connection (drop() simulates a network failure) and the
// offline engine (its facts: the hash of the shared/ files its worker loaded).
window.hartenjagen = { state, connection: conn, offline: engine };
