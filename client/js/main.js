// Entry point: wires state, the connection, rendering and events together.
import { browserLanguage, setLanguage, t, language } from "./i18n.js";
import { loadPrefs, savePrefs, applyPrefs } from "./prefs.js";
import { createState } from "./state.js";
import { applyMessage, leftTable, reviewOf, askReview } from "./update.js";
import { loadSession, loadPlayerToken, latestSession, forgetSession } from "./session.js";
import { SIGNED_OUT, markSignedOut, signedOutOf, startFresh } from "./session.js";
import { createConnection } from "./socket.js";
import { createRenderer } from "./render/index.js";
import { bindEvents } from "./events.js";
import { soundFor, yourTurnSound } from "./sound.js";
import { createRemote } from "./remote.js";
import { createViewer, shareInPath } from "./viewer.js";
import { bindChat } from "./chat.js";
import { createOfflineEngine } from "./offline/engine.js";
import { cleanCode, deviceLabel } from "./devices.js";
import { currentGame, entriesOf, dropGame, records as offlineRecords } from "./offline/store.js";
import { createPaceSync, createAutoPlay } from "./pace.js";
import { showsInvite } from "./render/invite.js";
import { playNowChoices } from "./render/playnow.js";

const OPEN_TABLES_MS = 3000; // how often the start page's list of open tables is refreshed while it is shown
const prefs = loadPrefs(browserLanguage());
setLanguage(prefs.lang);
applyPrefs(prefs);

const state = createState(prefs);
state.playerToken = loadPlayerToken();
state.signedOut = signedOutOf();
const renderer = createRenderer(state, document);
let pending = null; // an intent waiting for the connection (create or join)
let greeted = false;
let helloName = null;
let fullText = null; // the table_full refusal of a join that now tries to watch instead

const remote = createRemote(state, renderer.request);
const paceSync = createPaceSync({ state, send: (msg) => send(msg) });
const autoPlay = createAutoPlay({ state, send: (msg) => { send(msg); renderer.request(); } });
const viewer = createViewer({ state, remote, request: renderer.request });

const codeInPath = location.pathname.match(/^\/t\/([A-Za-z0-9]+)\/?$/);
if (codeInPath) state.wantedCode = codeInPath[1].toUpperCase();
// /?deal=N puts deal number N in the new-table form.
const dealInQuery = (new URLSearchParams(location.search).get("deal") || "").trim();
// /?device=CODE: a one-time code from another device (its QR code) moves that player here once connected.
const deviceInQuery = cleanCode(new URLSearchParams(location.search).get("device"));
if (deviceInQuery) state.device.linked = deviceInQuery;
if (/^\d{1,12}$/.test(dealInQuery)) state.dealPrefill = state.dealLink = dealInQuery;

const conn = createConnection({
  url: `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`,
  onOpen: hello,
  onMessage,
  final: [SIGNED_OUT],
  onStatus(status, closeCode) {
    state.conn = status;
    if (closeCode === 1012) state.restarting = true; // the server is restarting: it will be back, and so will we
    if (closeCode === SIGNED_OUT) signedOut();
    if (status !== "online") greeted = false;
    renderer.request();
  },
});

// The offline game: the same table, played by the project's Python in a worker (offline/), kept in IndexedDB.
// state.offline: {status: idle | starting | ready | failed, playing, saved (the kept game), facts (from the worker)}.
const offlineInPath = location.pathname === "/offline";
const engine = createOfflineEngine({
  onMessage(msg) {
    if (!state.offline.playing) return; // a computer move of a game the person has left for the start page
    onMessage(msg);
  },
  onStatus(status, facts) {
    if (status === "damaged") {
      dropGame(facts.table_id).catch(() => {});
      leftTable(state);
      state.offline.playing = false;
      state.offline.saved = null;
      state.notice = { text: t("offline_damaged"), kind: "error" };
      if (location.pathname === "/offline") history.replaceState(null, "", "/");
    } else if (status === "finished") {
      state.offline.saved = null;
    } else {
      state.offline.status = status;
      if (status === "ready") state.offline.facts = facts;
      if (status === "failed" && state.offline.playing) { // said only to someone waiting for an offline game
        state.offline.playing = false;
        state.screen = "start";
        state.notice = { text: t("offline_failed"), kind: "error" };
      }
    }
    renderer.request();
  },
});

/** Look for an offline game kept in this browser (the start page offers to continue it). */
async function findKept() {
  try {
    const game = await currentGame();
    state.offline.saved = game && !game.finished ? game : null;
  } catch {
    state.offline.saved = null; // no IndexedDB here (a private window of some browsers): nothing kept
  }
  renderer.request();
  return state.offline.saved;
}

/** Sit down again at the kept offline game, folded back from its log by the worker. */
async function continueOffline() {
  const game = state.offline.saved || (await findKept());
  if (!game) {
    state.notice = { text: t("offline_none"), kind: "info" };
    if (location.pathname === "/offline") history.replaceState(null, "", "/");
    renderer.request();
    return;
  }
  state.notice = null;
  state.offline.playing = true;
  state.screen = "joining";
  renderer.request();
  engine.restore(game, await entriesOf(game.table_id), prefs.name);
}

let playNowAsked = null; // {wait, at}: a Play now press whose table has not arrived yet
let queueAgain = null; // {options, wait}: Queue again was pressed; the Play now press follows the `left`

/**
 * How far this device's clock is from the server's (ms), learnt from the table a Play now press sat at, so that the
 * countdown to the computer players holds on a device whose clock is off: a table this press opened fills `wait`
 * seconds after the server took the press; a table it joined fills no later than that, and not before now.
 */
function learnClock({ wait, at }) {
  const table = state.table;
  if (!table || !table.open || !table.open.play_now || typeof table.open.fill_at !== "number") return;
  playNowAsked = null;
  const received = Date.now();
  const fillAt = table.open.fill_at * 1000;
  const people = table.seats.filter((s) => s.kind === "human").length;
  if (people === 1) {
    state.clockSkew = fillAt - wait * 1000 - (at + received) / 2;
    return;
  }
  const least = fillAt - wait * 1000 - received; // the server took the press before it answered
  const most = fillAt - at; // and the table had not filled when it did
  state.clockSkew = Math.min(Math.max(state.clockSkew || 0, least), most);
}

/** Another device signed this one out: its token holds nobody. Say so; a new player only when the person asks. */
function signedOut() {
  markSignedOut(prefs.name);
  leftTable(state);
  state.signedOut = prefs.name || "";
  state.playerToken = null;
  pending = null;
  opened = false; // connect() opens again once the person starts fresh (or uses a code from another device)
}

function hello() {
  helloName = prefs.name;
  conn.send({ type: "hello", version: 1, name: prefs.name, ...(state.playerToken ? { player_token: state.playerToken } : {}) });
}

function onMessage(msg) {
  if (msg.type === "welcome" && msg.player_token && state.playerToken && msg.player_token !== state.playerToken) {
    // The token this device greeted with holds nobody: it was signed out while this page was closed. Say so, and
    // become the new player the server offers only when the person starts fresh.
    signedOut();
    conn.stop();
    state.conn = "closed";
    renderer.request();
    return;
  }
  const before = state.table && state.table.view;
  applyMessage(state, msg);
  if (msg.type === "welcome") afterWelcome();
  if (msg.type === "joined") paceSync.joined(msg); // a host's pace preference goes to the table it sits at
  if (msg.type === "table" && playNowAsked) learnClock(playNowAsked);
  if (msg.type === "joined" && msg.offline) state.offline.saved = null; // the kept game is the one on screen
  if (msg.type === "device_joined") {
    prefs.name = msg.name; // the player's own name came with the code
    savePrefs(prefs);
    const field = document.getElementById("name"); // a field the person typed in keeps its text on a redraw
    if (field) field.value = msg.name;
    remote.loadStats();
    if (state.overlay === "stats") conn.send({ type: "devices" });
    conn.send({ type: "my_tables" }); // the player's seats came along: offered as "Back to your table"
    if (location.search.includes("device=")) history.replaceState(null, "", "/");
  }
  if (msg.type === "error") watchWhenFull(msg);
  if (msg.type === "error" && msg.code === "bad_name") pending = null; // asked again once another name is chosen
  if (msg.type === "error") playNowAsked = null; // a refused press has no table to learn from
  if (msg.type === "left" && queueAgain) {
    const again = queueAgain; // the table is left: now the press, with the same game and wait
    queueAgain = null;
    pressPlayNow(again.options, again.wait);
  } else if (msg.type === "left") {
    remote.loadDaily();
    pollOpenTables(); // back on the start page: its list of open tables at once
  }
  followScreen(); // the address bar says where we are: /t/CODE at a table (also after "Back to your table"), / after leaving
  if ((msg.type === "table" || msg.type === "update") && state.table) {
    const table = state.table; // the update folded in
    soundFor(table.events, table.you, prefs);
    const v = table.view;
    if (v && v.turn === table.you && (!before || before.turn !== table.you || before.tricks.length !== v.tricks.length)) yourTurnSound(prefs);
    paceSync.check();
    autoPlay();
  }
  if (msg.type === "error" && state.fieldError) {
    renderer.drawNow();
    const field = document.getElementById(state.fieldError.field);
    if (field) field.focus();
    return;
  }
  // Back on the start screen (a table that closed, a refused code): today's board belongs there.
  if (state.screen === "start" && !state.replay && !state.daily) remote.loadDaily();
  renderer.request();
}

/** A link to a table whose seats are all taken mid-hand: watch it until a computer player's seat can be taken. */
function watchWhenFull(msg) {
  if (msg.code === "table_full" && state.wantedCode && !state.table) {
    fullText = state.notice ? state.notice.text : "";
    state.notice = { text: t("watch_full"), kind: "info", untilHandEnd: true }; // goes when the hand is over
    send({ type: "watch", code: state.wantedCode });
  } else if (msg.code === "no_watching" && fullText !== null) {
    state.notice = { text: `${fullText} ${state.notice ? state.notice.text : ""}`.trim(), kind: "error" };
    fullText = null;
  } else if (["no_watching", "unknown_table"].includes(msg.code) && state.watching) {
    const notice = state.notice; // watching again after a reconnect was refused: back to the start page
    leftTable(state);
    state.notice = notice;
    followScreen();
  }
}

/** The address of what is on screen: the table's link, the start page, or null (joining, an invitation: as it is). */
function screenAddress() {
  if (state.screen === "table" && state.session) return state.session.link || `/t/${state.session.code}`;
  if (state.screen === "table" && state.watching) return `/t/${state.watching}`;
  if (state.screen === "start" && !state.wantedCode) return "/";
  return null;
}

/**
 * Keep the address bar in step with the screen: a new entry when the screen moves to another table or back to the
 * start page (so the browser's Back returns to where the player was). The replay viewer keeps its own address, and
 * the start page keeps a ?deal=N it was opened with.
 */
function followScreen() {
  if (state.replay) return;
  const path = screenAddress();
  if (path && location.pathname !== path) history.pushState(null, "", path);
}

/** The browser's Back and Forward: the screen follows the address (the replay viewer follows its own). */
function followAddress() {
  if (shareInPath() || state.replay) return;
  const here = location.pathname;
  const code = (here.match(/^\/t\/([A-Za-z0-9]+)\/?$/) || [])[1];
  const atTable = state.screen === "table" && (state.session || state.watching);
  if (atTable && screenAddress() !== here) {
    app.leave(); // back from the table to the start page: stand up (asked first during a game; Stay goes back to it)
  } else if (!atTable && code && state.screen !== "joining") {
    const field = document.getElementById("code"); // what a refusal ("no table with that code") is about
    if (field) field.value = code.toUpperCase();
    if (prefs.name) app.joinTable(code.toUpperCase());
    else location.reload(); // the invitation, as when the link is opened
  } else if (!atTable && here === "/") {
    state.wantedCode = null;
    state.invite = null;
    state.notice = null; // it was about the page left behind
    const deal = (new URLSearchParams(location.search).get("deal") || "").trim();
    state.dealLink = /^\d{1,12}$/.test(deal) ? deal : "";
    renderer.request();
  }
}

function afterWelcome() {
  greeted = true;
  if (state.session) {
    conn.send({ type: "resume", code: state.session.code, seat_token: state.session.seat_token, last_seq: state.seq });
  } else if (state.watching) {
    conn.send({ type: "watch", code: state.watching }); // watchers are not stored: watch again after a reconnect
  } else if (pending) {
    conn.send(pending);
    pending = null;
  } else if (!state.comeback) {
    conn.send({ type: "my_tables" }); // a seat this player holds, maybe taken on another device: "Back to your table"
  }
  for (const msg of deviceQueue.splice(0)) conn.send(msg);
}

const deviceQueue = []; // device messages waiting for the connection (the start page need not be connected)

/** Send a device message now, or once connected (connecting if need be). */
function deviceSend(msg) {
  state.device.error = null;
  if (greeted && conn.send(msg)) return;
  deviceQueue.push(msg);
  if (!prefs.name) {
    prefs.name = t("device_someone"); // a name to greet with; the code brings the player's own
    savePrefs(prefs);
  }
  connect();
}

/** Send an intent to the server (or to the offline table); create/join wait for the connection if needed. */
function send(msg) {
  if (state.offline.playing) {
    engine.send(msg);
    return;
  }
  if (greeted && conn.send(msg)) return;
  if (["create", "join", "resume", "watch", "play_now"].includes(msg.type)) {
    pending = msg;
    connect();
  }
}

let opened = false;
function connect() {
  if (!prefs.name || opened || state.signedOut !== null) return; // a signed-out device never greets as someone new
  opened = true; // from here on the connection reconnects by itself
  conn.open();
}

const app = {
  send,
  request: renderer.request,
  setName(name) {
    if (name === prefs.name) return;
    prefs.name = name; // saved without a redraw: the player may be typing in the next field
    savePrefs(prefs);
    // The name is told to the server in `hello`: greet again under the new name.
    if (conn.connected && helloName !== name && !state.session) conn.drop();
  },
  setPref(key, value) {
    prefs[key] = value;
    savePrefs(prefs);
    if (key === "lang") setLanguage(value);
    if (key === "lang") listedLanguage(); // a table its host listed says the host's language on the start page
    applyPrefs(prefs);
    if (key === "botPace") paceSync.check(true); // the host's new choice goes to the table
    if (key === "autoPlay") autoPlay();
    renderer.request();
  },
  createTable(options, level) {
    state.notice = null;
    state.fieldError = null;
    send({ type: "create", options, bot_level: level });
    renderer.request();
  },
  /** A game against computer players in this browser, with or without a network. */
  createOffline(options, level) {
    state.notice = null;
    state.fieldError = null;
    state.offline.playing = true;
    state.screen = "joining";
    engine.create({ type: "create", options, bot_level: level }, prefs.name);
    renderer.request();
  },
  continueOffline,
  deviceSend,
  /**
   * Play now: sit at an open Play now table with the same game and language, or open one that starts by itself
   * (computer players fill the empty seats after `wait` seconds). The choices are remembered for the next time.
   */
  playNow({ options, wait, variant, length }) {
    state.notice = null;
    state.fieldError = null;
    state.wantedCode = null;
    state.screen = "joining";
    const saved = prefs.playNow || {};
    prefs.playNow = { variant, wait, lengths: { ...(saved.lengths || {}), [variant]: length } };
    savePrefs(prefs);
    pressPlayNow(options, wait);
  },
  /**
   * After game over at a Play now table: leave it and press Play now again with the same game (this table's options)
   * and the person's own wait; the press goes once the server said `left`.
   */
  queueAgain() {
    const table = state.table;
    if (!table || !table.options) return;
    queueAgain = { options: table.options, wait: playNowChoices(prefs).wait };
    state.overlay = null;
    send({ type: "leave" });
    renderer.request();
  },
  /** The host lists the table on the start page (or takes it off), in the language of the page. */
  setOpen(open) {
    send({ type: "set_open", open, lang: language() });
  },
  /** The dialog about another person at the table: what can be done (`kind` null), or the reason for a report or removal. */
  moderate(seat, kind = null) {
    const before = state.moderation;
    const reason = before && before.seat === seat ? before.reason : "";
    state.moderation = { seat, kind, reason, sending: false, error: null };
    state.overlay = "seat";
    renderer.request();
  },
  /** Send the report or the removal with its reason (required, up to 200 characters). */
  sendModeration(reason) {
    const m = state.moderation;
    if (!m || !m.kind) return;
    m.reason = reason;
    const text = reason.trim();
    if (!text) {
      m.error = t("reason_missing");
      renderer.request();
      return;
    }
    m.error = null;
    m.sending = true;
    send(m.kind === "remove" ? { type: "remove_player", seat: m.seat, reason: text } : { type: "report", seat: m.seat, reason: text });
    renderer.request();
  },
  /** Show the leaderboard of a family over a period (each change asks the server again). */
  showBoard(family, period) {
    const b = state.board || { family: "classic", period: "all" };
    remote.loadBoard(family || b.family, period || b.period);
  },
  /** Use a code from another device here: this device becomes that player (its own token; both keep working). */
  /** A signed-out device starts fresh: its next connection greets as a new player. */
  startFresh() {
    startFresh();
    state.signedOut = null;
    renderer.request();
  },
  useDeviceCode(text) {
    const code = cleanCode(text);
    if (!code) {
      state.device.error = t("device_code_bad");
      renderer.request();
      return;
    }
    if (state.signedOut !== null) app.startFresh(); // a code from another device links this one again
    deviceSend({ type: "use_device_code", code, label: deviceLabel() });
    renderer.request();
  },
  createDaily() {
    state.notice = null;
    state.fieldError = null;
    send({ type: "create", options: {}, daily: true });
    renderer.request();
  },
  /** The host's new game after game over: new cards, the same seats, back in the waiting room. */
  newGame() {
    state.overlay = null;
    send({ type: "new_game" });
    renderer.request();
  },
  restart() {
    state.overlay = null;
    send({ type: "restart" });
    renderer.request();
  },
  /** A form field the player must fix before anything can be sent: say why at the field, and put the focus there. */
  fieldProblem(field, text) {
    state.notice = null;
    state.fieldError = { field, text };
    renderer.drawNow();
    const input = document.getElementById(field);
    if (input) input.focus();
  },
  joinTable(code) {
    state.notice = null;
    state.fieldError = null;
    state.wantedCode = code;
    state.screen = "joining";
    const saved = loadSession(code);
    if (saved) state.session = saved;
    const mine = state.comeback && state.comeback.byPlayer && state.comeback.code === code;
    if (saved && greeted) send({ type: "resume", code, seat_token: saved.seat_token, last_seq: 0 });
    else if (saved) connect();
    else if (mine) send({ type: "resume", code, last_seq: 0 }); // this player's seat, taken on another device
    else send({ type: "join", code });
    renderer.request();
  },
  /** Stand up; during a game only after the player confirmed it (a computer player takes the seat). */
  leave(confirmed = false) {
    if (state.offline.playing) {
      // The offline game stays kept in this browser: the start page offers to continue it.
      state.overlay = null;
      state.offline.playing = false;
      leftTable(state);
      followScreen();
      findKept();
      remote.loadDaily();
      renderer.request();
      return;
    }
    const table = state.table;
    if (!confirmed && state.session && table && table.status === "playing") {
      state.overlay = "leave";
      renderer.request();
      return;
    }
    state.overlay = null;
    if (greeted) send({ type: "leave" });
    else {
      leftTable(state);
      followScreen();
      remote.loadDaily();
    }
    renderer.request();
  },
  comeback() {
    if (state.comeback) app.joinTable(state.comeback.code);
  },
  /** From the invitation to the full start page: a table of one's own. */
  ownTable() {
    state.invite = null;
    state.wantedCode = null;
    state.notice = null;
    history.pushState(null, "", "/");
    remote.loadDaily();
    renderer.request();
  },
  openOverlay(kind) {
    state.overlay = kind;
    if (kind === "stats") {
      remote.loadStats();
      loadOfflineStats();
      if (state.playerToken) deviceSend({ type: "devices" });
    }
    if (kind === "games") remote.loadGames();
    if (kind === "board") app.showBoard();
    renderer.request();
  },
  openReplay: viewer.open,
  closeReplay: viewer.close,
  replayGo: viewer.go,
  replayMove: viewer.move,
  loadReview: remote.loadReview,
  /** Ask for the hard player's review of your decisions in hand `hand` of this table's game. */
  reviewHand(hand) {
    const asked = reviewOf(state, hand);
    if (asked && asked.status !== "error") return;
    askReview(state, hand);
    send({ type: "review", hand_no: hand });
    renderer.request();
  },
  async copyShare(share) {
    await copyText(`${location.origin}/r/${share}`);
    state.shareCopied = true;
    renderer.request();
    setTimeout(() => {
      state.shareCopied = false;
      renderer.request();
    }, 2000);
  },
  closeOverlay() {
    state.overlay = null;
    state.moderation = null;
    followScreen(); // "Stay" after the browser's Back asked to leave: the table's address again
    renderer.request();
  },
  async copyLink(link) {
    try {
      await navigator.clipboard.writeText(link);
    } catch {
      const input = document.querySelector(".code-box .link");
      if (input) {
        input.select();
        document.execCommand("copy");
      }
    }
    state.copied = true;
    renderer.request();
    setTimeout(() => {
      state.copied = false;
      renderer.request();
    }, 2000);
  },
};

/** Send a Play now press (its table's `fill_at` then teaches the page how far its clock is from the server's). */
function pressPlayNow(options, wait) {
  state.notice = null;
  state.screen = "joining";
  playNowAsked = { wait, at: Date.now() };
  send({ type: "play_now", options, lang: language(), wait });
  renderer.request();
}

/** The host of a listed table (not a Play now table, whose language chose its people) switched language: say so. */
function listedLanguage() {
  const table = state.table;
  const open = table && table.open;
  if (!open || !open.listed || open.play_now || table.host !== table.you || open.lang === language()) return;
  send({ type: "set_open", open: true, lang: language() });
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
    state.offlineStats = null;
    renderer.request();
    return;
  }
  state.offlineStats = "loading";
  renderer.request();
  try {
    state.offlineStats = await engine.stats(kept);
  } catch {
    state.offlineStats = "error";
  }
  renderer.request();
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
  if (onStartPage()) remote.loadOpenTables();
}
setInterval(pollOpenTables, OPEN_TABLES_MS);
document.addEventListener("visibilitychange", pollOpenTables);

bindEvents({ state, app });
bindChat({ state, app });
window.addEventListener("resize", () => renderer.request());
window.addEventListener("popstate", viewer.followAddress);
window.addEventListener("popstate", followAddress);

// Start: a replay link opens the viewer; back to our seat at /t/CODE when we have its token; join it when we have a name.
if (shareInPath()) {
  remote.loadReplay({ share: shareInPath() });
} else if (state.wantedCode) {
  const saved = loadSession(state.wantedCode);
  if (saved) {
    state.session = saved;
    state.screen = "joining";
    if (prefs.name) connect();
  } else if (prefs.name) {
    app.joinTable(state.wantedCode);
  } else {
    // An invited friend without a saved name: the table's host and rules, a focused name field, one Join button.
    remote.loadInvite(state.wantedCode).then(() => {
      if (state.invite && state.invite.status === "not_found" && !state.notice) state.notice = { text: t("error_no_table"), kind: "error" };
      renderer.drawNow();
      const name = document.getElementById("name");
      if (name && !state.session) name.focus();
    });
  }
} else if (offlineInPath) {
  continueOffline();
} else {
  remote.loadDaily();
  pollOpenTables();
  remote.checkComeback(latestSession(), forgetSession);
  // A kept game, or no network: start the engine while the page is read, so that a game begins without a wait.
  findKept().then((kept) => {
    if (kept || navigator.onLine === false) engine.start().catch(() => {});
  });
}
if (state.device.linked) app.useDeviceCode(state.device.linked); // opened from another device's code
// The network comes and goes: the start page offers Play offline in place of Create table while it is gone.
window.addEventListener("offline", () => renderer.request());
window.addEventListener("online", () => renderer.request());
renderer.drawNow();

// A handle for tests and curious players: the state, the connection (drop() simulates a network failure) and the
// offline engine (its facts: the hash of the shared/ files its worker loaded).
window.hartenjagen = { state, connection: conn, offline: engine };
