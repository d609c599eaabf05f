// State changes: the one place where a server message (from the socket or the offline table alike), an intent of
// the person, or a fact of the page (the connection, the offline engine) changes the state. Each returns the
// effects main.js carries out (send, load, address, sound...). Words are kept as data; render/ words them.
import { language } from "./i18n.js";
import { keyCard } from "./cards.js";
import { foldUpdate } from "./fold.js";
import { saveSession, forgetSession, savePlayerToken, loadSession, markSignedOut, startFresh, SIGNED_OUT } from "./session.js";
import { watchingTable, seatedNow, leftReason, leftNews, tookOver, joinedSeat, arrived, canModerate } from "./seating.js";
import { passForm, toggleSlot } from "./passing.js";
import { applyChat, chatError, resetChat, toggleMute } from "./chat.js";
import { animFactor } from "./prefs.js";
import { cleanCode, deviceLabel } from "./devices.js";
import { stepCard, stepTrick, stepRange } from "./replay.js";
import { againstComputers } from "./offline/keeping.js";

export const TRICK_HOLD_MS = 900;
export const TRICK_SLIDE_MS = 450;
const DEVICE_ERRORS = ["unknown_device_code", "device_codes_limited", "rate_limited", "bad_message", "server_busy"];
const REVIEW_ERRORS = ["review_limited", "review_busy", "server_busy", "server_error"]; // refusals of a review
const SAID_KEEP = 24; // news lines kept for screen readers (more than one redraw can take, when moves come fast)
const WAITS = ["create", "join", "resume", "watch", "play_now"]; // messages that wait for the connection
const DEVICE_MESSAGES = ["device_code", "devices", "sign_out_device", "use_device_code"]; // sent once connected
// A tap this soon after playing a card is the same tap twice (a double tap), not a new wish.
const DOUBLE_TAP_MS = 500;
const COPIED_MS = 2000; // how long "Copied" shows

/** How long a finished trick stays, then slides to its taker, at the player's animation speed (ms). */
export function trickTimes(prefs) {
  const factor = animFactor(prefs);
  return { hold: TRICK_HOLD_MS * (factor || 0.5), slide: TRICK_SLIDE_MS * factor };
}

/** Words kept as data: the text `key` of i18n/ with its values (render/say.js words them). */
function words(key, params = {}) {
  return { key, params };
}

/**
 * Apply one message from the server, or from the offline table (`offline`: the worker's; none arrives once the
 * person has left that game for the start page). Unknown types are an error, not ignored. Returns the effects.
 */
export function applyMessage(state, msg, { offline = false, now = Date.now() } = {}) {
  if (offline && !state.offline.playing) return []; // a computer move of a game the person has left
  if (msg.type === "welcome" && msg.player_token && state.playerToken && msg.player_token !== state.playerToken) {
    // The token this device greeted with holds nobody: it was signed out while this page was closed. Say so, and
    // become the new player the server offers only when the person starts fresh.
    const effects = signedOut(state);
    state.conn = "closed";
    return [...effects, { do: "stop" }];
  }
  const before = state.table && state.table.view;
  const effects = messageChanges(state, msg, now);
  // the address bar says where we are: /t/CODE at a table (also after "Back to your table"), / after leaving
  effects.push({ do: "address", follow: true });
  if ((msg.type === "table" || msg.type === "update") && state.table) {
    effects.push({ do: "sounds", before }, { do: "pace" }, { do: "auto_play" });
    // a game against computer players online: the person may want one with no network too
    if (!offline && againstComputers(state.table)) effects.push(...keepEngine(state));
  }
  if (msg.type === "error" && state.fieldError) {
    effects.push({ do: "focus", field: state.fieldError.field });
    return effects;
  }
  // Back on the start screen (a table that closed, a refused code): today's board belongs there.
  if (state.screen === "start" && !state.replay && !state.daily) effects.push({ do: "load", what: "daily" });
  return effects;
}

/** What each message type changes; the effects that follow from it. */
function messageChanges(state, msg, now) {
  switch (msg.type) {
    case "welcome":
      state.restarting = false; // the server is back
      state.playerToken = msg.player_token;
      state.myName = msg.name; // a watcher's own chat lines carry this name
      savePlayerToken(msg.player_token);
      return welcomed(state);
    case "joined": {
      const took = tookOver(state, msg); // a watcher takes a computer player's seat mid-game: said once seated
      state.session = joinedSeat(state, msg);
      if (!msg.offline) saveSession(state.session); // the offline table is kept in IndexedDB by its worker
      state.screen = "table";
      state.wantedCode = null;
      state.dealLink = ""; // the link's deal was played (or another table chosen)
      seatedNow(state);
      if (took) state.notice = { ...took, moment: momentKey(state.table) };
      if (msg.offline) state.offline.saved = null; // the kept game is the one on screen
      return [{ do: "pace_joined", host: Boolean(msg.host) }]; // a host's pace preference goes to the table
    }
    case "watching":
      watchingTable(state, msg);
      return [];
    case "table":
      applyTable(state, msg, now);
      return learnClock(state, now);
    case "update":
      applyTable(state, foldUpdate(state.table, msg), now);
      return [];
    case "hint":
      state.hint = msg.cards || [];
      state.hintKey = momentKey(state.table);
      state.notice = { words: hintWords(state), kind: "info", moment: state.hintKey };
      return [];
    case "review":
      if (reviewOf(state, msg.hand_no)) Object.assign(state.review, { status: "ok", data: msg.review });
      return [];
    case "left": {
      leftTable(state);
      leftReason(state, msg);
      const again = state.playNow.again;
      if (again) { // the table is left: now the press, with the same game, wait and choice of language
        state.playNow.again = null;
        return pressPlayNow(state, again.options, again.wait, again.langOnly);
      }
      // back on the start page: today's board, and its list of open tables at once
      return [{ do: "load", what: "daily" }, { do: "load", what: "open_tables" }];
    }
    case "pong":
      return [];
    case "moved": // the table lives on another node: greet there, and send again what was sent here
      if (msg.again && WAITS.includes(msg.again.type)) state.pending = msg.again;
      return [{ do: "move", path: msg.path }];
    case "reported":
      reported(state, msg);
      return [];
    case "device_code":
      state.device.code = msg;
      return [];
    case "device_joined": {
      state.playerToken = msg.player_token; // this device now holds that player, with a token of its own
      savePlayerToken(msg.player_token);
      state.myName = msg.name;
      state.device.joined = msg.name;
      state.device.linked = null;
      state.notice = { words: words("device_joined", { name: msg.name }), kind: "info" };
      state.prefs.name = msg.name; // the player's own name came with the code
      const effects = [{ do: "save_prefs" }, { do: "name_field", name: msg.name }, { do: "load", what: "stats" }];
      if (state.overlay === "stats") effects.push({ do: "send", msg: { type: "devices" } });
      effects.push({ do: "send", msg: { type: "my_tables" } }); // the player's seats: offered as "Back to your table"
      effects.push({ do: "replace_address", path: "/", ifSearch: "device=" });
      return effects;
    }
    case "device_code_used": // the code on screen moved this player to another device: it is used up
      if (state.device.code && state.device.code.code === msg.code) state.device.code = { ...state.device.code, used: msg };
      return state.overlay === "stats" ? [{ do: "send", msg: { type: "devices" } }] : [];
    case "devices":
      state.device.list = msg.devices;
      return [];
    case "my_tables": {
      // the tables where this player sits (also on another device): "Back to your table" takes the seat by player
      const tables = msg.tables || [];
      const table = tables.find((x) => x.status === "playing") || tables[0];
      if (table && !state.session) state.comeback = { code: table.code, seat: table.seat, seats: table.seats, byPlayer: true };
      return [];
    }
    case "chat":
    case "chat_history":
      applyChat(state, msg);
      return [];
    case "error":
      return refused(state, msg);
    default:
      throw new Error(`unknown message type from server: ${msg.type}`);
  }
}

/** `welcome`: back at the seat or table on screen, or the intent that waited for the connection is sent now. */
function welcomed(state) {
  state.greeted = true;
  const effects = [];
  if (state.session) {
    effects.push({ do: "send", msg: { type: "resume", code: state.session.code, seat_token: state.session.seat_token, last_seq: state.seq } });
  } else if (state.watching) {
    effects.push({ do: "send", msg: { type: "watch", code: state.watching } }); // watchers are not stored: watch again
  } else if (state.pending) {
    effects.push({ do: "send", msg: state.pending });
    state.pending = null;
  } else if (!state.comeback) {
    effects.push({ do: "send", msg: { type: "my_tables" } }); // a seat this player holds, maybe on another device
  }
  for (const msg of state.device.queue.splice(0)) effects.push({ do: "send", msg });
  return effects;
}

/** An `error`: said where it was asked (chat, the devices dialog, a report, a review), else under the table. */
function refused(state, msg) {
  if (!saidWhereAsked(state, msg)) applyError(state, msg);
  const effects = watchWhenFull(state, msg);
  if (msg.code === "bad_name") state.pending = null; // asked again once another name is chosen
  state.playNow.asked = null; // a refused press has no table to learn from
  return effects;
}

/** A refusal said where it was asked: in the chat panel, the devices dialog, a report's dialog, or a review. */
function saidWhereAsked(state, msg) {
  if (chatError(state, msg)) return true;
  if (state.overlay === "stats" && DEVICE_ERRORS.includes(msg.code)) { // said in the dialog, where it was asked
    state.device.error = { server: msg };
    return true;
  }
  if (moderationError(state, msg)) return true;
  if (state.review && state.review.status === "loading" && REVIEW_ERRORS.includes(msg.code)) {
    Object.assign(state.review, { status: "error", code: msg.code });
    return true;
  }
  if (state.review && state.review.status === "loading" && state.offline.playing && msg.code === "not_now") {
    Object.assign(state.review, { status: "error", code: "offline" }); // a review needs the server
    return true;
  }
  return false;
}

/** A link to a table whose seats are all taken mid-hand: watch it until a computer player's seat can be taken. */
function watchWhenFull(state, msg) {
  if (msg.code === "table_full" && state.wantedCode && !state.table) {
    state.fullWords = state.notice ? state.notice.words : "";
    state.notice = { words: words("watch_full"), kind: "info", untilHandEnd: true }; // goes when the hand is over
    return toTable(state, { type: "watch", code: state.wantedCode });
  }
  if (msg.code === "no_watching" && state.fullWords !== null) {
    state.notice = { words: { parts: [state.fullWords, state.notice ? state.notice.words : null] }, kind: "error" };
    state.fullWords = null;
  } else if (["no_watching", "unknown_table"].includes(msg.code) && state.watching) {
    const notice = state.notice; // watching again after a reconnect was refused: back to the start page
    leftTable(state);
    state.notice = notice;
    return [{ do: "address", follow: true }];
  }
  return [];
}

/**
 * How far this device's clock is from the server's (ms), learnt from the table a Play now press sat at, so that the
 * countdown to the computer players holds on a device whose clock is off: a table this press opened fills `wait`
 * seconds after the server took the press; a table it joined fills no later than that, and not before now.
 */
function learnClock(state, received) {
  const asked = state.playNow.asked;
  const table = state.table;
  if (!asked || !table || !table.open || !table.open.play_now || typeof table.open.fill_at !== "number") return [];
  const { wait, at } = asked;
  state.playNow.asked = null;
  const fillAt = table.open.fill_at * 1000;
  const persons = table.seats.filter((s) => s.kind === "person").length;
  if (persons === 1) {
    state.clockSkew = fillAt - wait * 1000 - (at + received) / 2;
    return [];
  }
  const least = fillAt - wait * 1000 - received; // the server took the press before it answered
  const most = fillAt - at; // and the table had not filled when it did
  state.clockSkew = Math.min(Math.max(state.clockSkew || 0, least), most);
  return [];
}

/** Another device signed this one out: its token holds nobody. Say so; a new player only when the person asks. */
function signedOut(state) {
  markSignedOut(state.prefs.name);
  leftTable(state);
  state.signedOut = state.prefs.name || "";
  state.playerToken = null;
  state.pending = null;
  return [{ do: "signed_out" }]; // the connection opens again once the person starts fresh (or uses a code)
}

/** The connection's status changed (`closeCode`: the close that started a reconnect, or the final close). */
export function applyConnection(state, status, closeCode) {
  state.conn = status;
  if (closeCode === 1012) state.restarting = true; // the server is restarting: it will be back, and so will we
  const effects = closeCode === SIGNED_OUT ? signedOut(state) : [];
  if (status !== "online") state.greeted = false;
  return effects;
}

/**
 * The offline engine's status: starting, progress (its step), ready (its facts), failed, the kept game damaged or
 * finished; or whether its files are kept on this device ("kept": facts.kept, "keeping").
 */
export function applyOfflineStatus(state, status, facts) {
  if (status === "kept" || status === "keeping") {
    state.offline.kept = status === "keeping" ? "keeping" : facts.kept;
    return [];
  }
  if (status === "progress") {
    state.offline.progress = { step: facts.step, loaded: facts.loaded, total: facts.total };
    return [];
  }
  if (status === "damaged") {
    leftTable(state);
    state.offline.playing = false;
    state.offline.saved = null;
    state.notice = { words: words("offline_damaged"), kind: "error" };
    return [{ do: "offline_drop", tableId: facts.table_id }, { do: "replace_address", path: "/", from: "/offline" }];
  }
  if (status === "finished") {
    state.offline.saved = null;
    return [];
  }
  state.offline.status = status;
  if (status !== "starting") state.offline.progress = null;
  if (status === "ready") state.offline.facts = facts;
  // Play offline (or Continue) started it: its files came through the service worker, which keeps them
  if (status === "ready" && state.offline.playing) return keepEngine(state);
  if (status === "failed" && state.offline.playing) { // said only to someone waiting for an offline game
    state.offline.playing = false;
    state.screen = "start";
    state.notice = { words: words("offline_failed"), kind: "error" };
  }
  return [];
}

/** Ask once that this device keep the offline game's engine (unless it is kept already). */
function keepEngine(state) {
  if (state.offline.asked || state.offline.kept === true) return [];
  state.offline.asked = true;
  return [{ do: "keep_engine" }];
}

/**
 * What the page was opened with: /t/CODE (the table wanted), /?deal=N (deal number N in the new-table form),
 * /?device=CODE (a one-time code from another device, its QR code: that player moves here once connected), and what
 * this browser keeps (the player token, the name a device was signed out of).
 */
export function applyOpened(state, { path, search, playerToken, signedOut: outOf }) {
  state.playerToken = playerToken;
  state.signedOut = outOf;
  const tableCode = path.match(/^\/t\/([A-Za-z0-9]+)\/?$/);
  if (tableCode) state.wantedCode = tableCode[1].toUpperCase();
  const query = new URLSearchParams(search);
  const deal = (query.get("deal") || "").trim();
  const deviceCode = cleanCode(query.get("device"));
  if (deviceCode) state.device.linked = deviceCode;
  if (/^\d{1,12}$/.test(deal)) state.dealPrefill = state.dealLink = deal;
  return [];
}

/** The page opened at /t/CODE holds that table's seat (`saved`): back to it once connected. */
export function applySavedSeat(state, saved) {
  state.session = saved;
  state.screen = "joining";
  return connect(state);
}

/** The invitation's table was looked up (the page opened at /t/CODE without a name): the name field takes the focus. */
export function applyInvite(state) {
  if (state.invite && state.invite.status === "not_found" && !state.notice) state.notice = { words: words("error_no_table"), kind: "error" };
  return state.session ? [] : [{ do: "focus", field: "name" }];
}

/** The offline game kept in this browser (or none) was looked up: the start page offers to continue it. */
export function applyKept(state, game) {
  state.offline.saved = game && !game.finished ? game : null;
  return [];
}

/** This device's finished offline games' figures: "loading", the figures, "error", or null (none kept). */
export function applyOfflineStats(state, stats) {
  state.offlineStats = stats;
  return [];
}

/** Send `msg` to the table: the offline table, or the server (create, join... wait for the connection). */
function toTable(state, msg) {
  if (state.offline.playing) return [{ do: "offline_send", msg }];
  if (state.greeted) return [{ do: "send", msg }];
  return unsent(state, msg);
}

/** A message that found no connection: create, join and the like wait for it (connecting), a device message too. */
function unsent(state, msg) {
  if (DEVICE_MESSAGES.includes(msg.type)) {
    state.device.queue.push(msg);
    // a name to greet with when there is none yet (the code brings the player's own)
    const effects = state.prefs.name ? [] : [{ do: "name_someone" }];
    return state.signedOut === null ? [...effects, { do: "connect" }] : effects;
  }
  if (!WAITS.includes(msg.type)) return [];
  state.pending = msg;
  return connect(state);
}

/** Open the connection, once there is a name to greet with (a signed-out device never greets as someone new). */
function connect(state) {
  if (!state.prefs.name || state.signedOut !== null) return [];
  return [{ do: "connect" }];
}

/** Send a device message now, or once connected (connecting if need be). */
function toDevice(state, msg) {
  state.device.error = null;
  if (state.greeted) return [{ do: "send", msg }];
  return unsent(state, msg);
}

/** A move; until the server answers it (the next table or update), taps wait. */
function move(state, msg, now) {
  if (state.inFlight) return [];
  state.inFlight = true;
  if (msg.type === "play") state.playedAt = now;
  return toTable(state, msg);
}

/** A new wish from the start page: the notice and the field's refusal of the one before go. */
function freshStart(state) {
  state.notice = null;
  state.fieldError = null;
}

/**
 * Send a Play now press (its table's `fill_at` then teaches the page how far its clock is from the server's). It
 * meets people of every language, unless the person asked for players of the page's language only (`langOnly`).
 */
function pressPlayNow(state, options, wait, langOnly = false, now = Date.now()) {
  state.notice = null;
  state.screen = "joining";
  state.playNow.asked = { wait, at: now };
  const only = langOnly ? { lang_only: true } : {};
  return toTable(state, { type: "play_now", options, lang: language(), ...only, wait });
}

/** The host of a listed table (not a Play now table, which has no host) switched language: the list says it. */
function listedLanguage(state, lang) {
  const table = state.table;
  const open = table && table.open;
  if (!open || !open.listed || open.play_now || table.host !== table.you || open.lang === lang) return [];
  return toTable(state, { type: "set_open", open: true, lang });
}

/** Host commands and table messages that go as they are (the seat, the level chosen for a computer player...). */
const PLAIN = {
  hint: () => ({ type: "hint" }),
  add_computer: (i, s) => ({ type: "add_computer", seat: i.seat, level: s.prefs.level }),
  remove_computer: (i) => ({ type: "remove_computer", seat: i.seat }),
  sit: (i) => ({ type: "sit", seat: i.seat }),
  fill_computers: (i, s) => ({ type: "fill_computers", level: s.prefs.level }),
  start: () => ({ type: "start" }),
  allow_watch: (i) => ({ type: "allow_watch", allowed: i.allowed }),
  allow_chat: (i) => ({ type: "allow_chat", allowed: i.allowed }),
  mute_chat: (i) => ({ type: "mute_chat", muted: i.muted }), // chat off (or on) for this seat only
  set_timer: (i) => ({ type: "set_timer", seconds: i.seconds }),
  set_open: (i) => ({ type: "set_open", open: i.open, lang: language() }),
  rematch: () => ({ type: "rematch" }), // a new game starts once every seated person agrees
  set_pace: (i) => ({ type: "set_pace", pace: i.pace }),
};

/**
 * Apply one intent of the person (a tap, a form, a key; see docs/glossary.md): the state it changes and the effects
 * main.js carries out (the message it sends among them). Unknown intents are an error.
 */
export function applyIntent(state, intent, now = Date.now()) {
  if (PLAIN[intent.type]) return toTable(state, PLAIN[intent.type](intent, state));
  switch (intent.type) {
    case "card":
      return cardTapped(state, intent.card, intent.key, now);
    case "pass": // a card chosen twice goes twice
      return move(state, { type: "pass", cards: state.selected.filter(Boolean).map(keyCard) }, now);
    case "play":
      return move(state, { type: "play", card: intent.card }, now);
    case "claim": // the server checks it against every hand: the rest is played out, or it says why not
      return move(state, { type: "claim" }, now);
    case "moon":
      return move(state, { type: "moon", choice: intent.choice }, now);
    case "ready":
      return move(state, { type: "ready" }, now);
    case "focus_card": // the keyboard's place in the hand (the page moved the focus itself: no redraw)
      state.focusCard = intent.key;
      return [{ do: "quiet" }];
    case "keys_used": // the keyboard came to the hand: from now on the status says what the keys do there
      state.keysUsed = true;
      return [];
    case "chat":
      if (intent.text !== undefined) state.chat.error = null;
      return toTable(state, intent.text !== undefined ? { type: "chat", text: intent.text } : { type: "chat", phrase: intent.phrase });
    case "chat_panel":
      state.chat.open = !state.chat.open;
      if (state.chat.open) state.chat.unread = 0;
      return [];
    case "mute":
      toggleMute(state, intent.name);
      return [];
    case "name_typed": // kept as it is typed, without a redraw; the server hears it once the field is left
      if (intent.name === state.prefs.name) return [];
      state.prefs.name = intent.name;
      return [{ do: "save_prefs" }, { do: "quiet" }];
    case "name": {
      const changed = intent.name !== state.prefs.name;
      state.prefs.name = intent.name; // saved without a redraw: the player may be typing in the next field
      // The name is told to the server in `hello`: greet again under the new name (when it is not the one greeted).
      return [...(changed ? [{ do: "save_prefs" }] : []), { do: "quiet" }, ...(state.session ? [] : [{ do: "greet_again" }])];
    }
    case "pref":
      return setPref(state, intent.key, intent.value);
    case "create":
      freshStart(state);
      return toTable(state, { type: "create", options: intent.options, computer_level: intent.level });
    case "create_offline": // a game against computer players in this browser, with or without a network
      freshStart(state);
      state.offline.playing = true;
      state.screen = "joining";
      return [{ do: "offline_create", msg: { type: "create", options: intent.options, computer_level: intent.level } }];
    case "continue_offline":
      return continueOffline(state, intent.game);
    case "keep_engine": // the app was installed: it plays with no network too
      return keepEngine(state);
    case "daily":
      freshStart(state);
      return toTable(state, { type: "create", options: {}, daily: true });
    case "play_now": {
      // Play now: sit at an open Play now table with the same game (whatever the language, unless the person asked
      // for players of their own language only), or open one that starts by itself (computer players fill the empty
      // seats after `wait` seconds). The choices are remembered for the next time.
      freshStart(state);
      state.wantedCode = null;
      state.screen = "joining";
      const saved = state.prefs.playNow || {};
      const { variant, wait, length } = intent;
      const langOnly = Boolean(intent.langOnly);
      state.prefs.playNow = { variant, wait, langOnly, lengths: { ...(saved.lengths || {}), [variant]: length } };
      return [{ do: "save_prefs" }, ...pressPlayNow(state, intent.options, wait, langOnly, now)];
    }
    case "queue_again": {
      // After game over at a Play now table: leave it and press Play now again with the same game (this table's
      // options), the person's own wait and choice of language; the press goes once the server said `left`.
      const table = state.table;
      if (!table || !table.options) return [];
      state.playNow.again = { options: table.options, wait: intent.wait, langOnly: Boolean(intent.langOnly) };
      state.overlay = null;
      return toTable(state, { type: "leave" });
    }
    case "join":
      return joinTable(state, intent.tableCode);
    case "comeback":
      return state.comeback ? joinTable(state, state.comeback.code) : [];
    case "leave":
      return leave(state, intent.confirmed);
    case "rules_all": // the rules read at a table: from this table's game to every game and option
      state.rulesAll = true;
      return [];
    case "more_steps": // after game over: unfold (or fold) the host's other choices under the main step
      state.moreSteps = !state.moreSteps;
      return [];
    case "new_game": // the host's new game after game over: new cards, the same seats, back in the waiting room
    case "restart":
      state.overlay = null;
      return toTable(state, { type: intent.type });
    case "own_table": // from the invitation to the full start page: a table of one's own
      state.invite = null;
      state.wantedCode = null;
      state.notice = null;
      return [{ do: "push_address", path: "/" }, { do: "load", what: "daily" }];
    case "field_problem": // a form field to fix before anything can be sent: said at the field, which takes the focus
      state.notice = null;
      state.fieldError = { field: intent.field, words: intent.words };
      return [{ do: "focus", field: intent.field }];
    case "moderate": { // the dialog about another person: what can be done (`kind` null), or the reason asked for
      const before = state.moderation;
      const reason = before && before.seat === intent.seat ? before.reason : "";
      state.moderation = { seat: intent.seat, kind: intent.kind || null, reason, sending: false, error: null };
      state.overlay = "seat";
      return [];
    }
    case "moderation_reason": // kept as typed, so that a redraw of its dialog keeps it too
      if (state.moderation) state.moderation.reason = intent.reason;
      return [{ do: "quiet" }]; // no redraw while the person types
    case "send_moderation":
      return sendModeration(state, intent.reason);
    case "overlay":
      return openOverlay(state, intent.overlay, intent.section);
    case "close_overlay":
      state.overlay = null;
      state.moderation = null;
      return [{ do: "address", follow: true }]; // "Stay" after the browser's Back asked to leave: the table's address
    case "board": { // the leaderboard of a family over a period (each change asks the server again)
      const b = state.board || { family: "classic", period: "all" };
      return [{ do: "load", what: "board", family: intent.family || b.family, period: intent.period || b.period }];
    }
    case "device_code":
      return toDevice(state, { type: "device_code" });
    case "sign_out_device":
      return toDevice(state, { type: "sign_out_device", device: intent.device });
    case "use_device_code": // a code from another device: this device becomes that player (both keep working)
      return useDeviceCode(state, intent.text);
    case "start_fresh": // a signed-out device starts fresh: its next connection greets as a new player
      startFresh();
      state.signedOut = null;
      return [];
    case "review_hand": { // the hard player's review of your decisions in hand `hand` of this table's game
      const asked = reviewOf(state, intent.hand);
      if (asked && asked.status !== "error") return [];
      askReview(state, intent.hand);
      return toTable(state, { type: "review", hand_no: intent.hand });
    }
    case "replay_open":
      state.overlay = null;
      return [...(intent.share ? [{ do: "push_address", path: `/r/${intent.share}`, replay: true }] : []),
        { do: "load", what: "replay", key: intent.key, you: intent.you ?? null }];
    case "replay_close": // back to the table we sit at, or to the start screen
      state.replay = null;
      return [{ do: "push_address", path: state.session ? state.session.link || `/t/${state.session.code}` : "/" },
        ...(state.session ? [] : [{ do: "load", what: "daily" }])];
    case "replay_go":
      replayGo(state, intent.hand, intent.step);
      return [];
    case "replay_move":
      replayMove(state, intent.name);
      return [];
    case "replay_review":
      return state.replay ? [{ do: "load", what: "review", hand: state.replay.hand }] : [];
    case "copy": // the invitation link or a replay's share link: "Copied" shows a moment
      state[intent.what] = true;
      return [{ do: "copy", text: intent.text, what: intent.what }, { do: "later", ms: COPIED_MS, intent: { type: "copied", what: intent.what } }];
    case "copied":
      state[intent.what] = false;
      return [];
    case "address":
      return followAddress(state, intent);
    case "unsent": // a message the connection did not take after all
      return unsent(state, intent.msg);
    default:
      throw new Error(`unknown intent: ${intent.type}`);
  }
}

/** Change a preference; the language, the pace at a table one hosts and playing the only card follow it. */
function setPref(state, key, value) {
  state.prefs[key] = value;
  const effects = [{ do: "save_prefs" }];
  if (key === "lang") effects.push({ do: "language" }, ...listedLanguage(state, value)); // a listed table says its language
  effects.push({ do: "apply_prefs" });
  if (key === "computerPace") effects.push({ do: "pace", now: true }); // the host's new choice goes to the table
  if (key === "autoPlay") effects.push({ do: "auto_play" });
  return effects;
}

/** Sit down again at the kept offline game (`game`, or the one looked up first), folded back from its log. */
function continueOffline(state, game) {
  const kept = game || state.offline.saved;
  if (!kept && game === undefined) return [{ do: "offline_find", then: "continue_offline" }];
  if (!kept) {
    state.notice = { words: words("offline_none"), kind: "info" };
    return [{ do: "replace_address", path: "/", from: "/offline" }];
  }
  state.notice = null;
  state.offline.playing = true;
  state.screen = "joining";
  return [{ do: "offline_restore", game: kept }];
}

/** Join the table `code`: back at a seat this page holds, or a seat this player holds elsewhere, or a new one. */
function joinTable(state, tableCode) {
  freshStart(state);
  state.wantedCode = tableCode;
  state.screen = "joining";
  const saved = loadSession(tableCode);
  if (saved) state.session = saved;
  const mine = state.comeback && state.comeback.byPlayer && state.comeback.code === tableCode;
  if (saved && state.greeted) return toTable(state, { type: "resume", code: tableCode, seat_token: saved.seat_token, last_seq: 0 });
  if (saved) return connect(state);
  if (mine) return toTable(state, { type: "resume", code: tableCode, last_seq: 0 }); // this player's seat, taken on another device
  return toTable(state, { type: "join", code: tableCode });
}

/** Stand up; during a game only after the player confirmed it (a computer player takes the seat). */
function leave(state, confirmed = false) {
  if (state.offline.playing) {
    // The offline game stays kept in this browser: the start page offers to continue it.
    state.overlay = null;
    state.offline.playing = false;
    leftTable(state);
    return [{ do: "address", follow: true }, { do: "offline_find" }, { do: "load", what: "daily" }];
  }
  const table = state.table;
  if (!confirmed && state.session && table && table.status === "playing") {
    state.overlay = "leave";
    return [];
  }
  state.overlay = null;
  if (state.greeted) return toTable(state, { type: "leave" });
  leftTable(state);
  return [{ do: "address", follow: true }, { do: "load", what: "daily" }];
}

/** Send the report or the removal with its reason (required, up to 200 characters). */
function sendModeration(state, reason) {
  const m = state.moderation;
  if (!m || !m.kind) return [];
  m.reason = reason;
  const text = reason.trim();
  if (!text) {
    m.error = words("reason_missing");
    return [];
  }
  m.error = null;
  m.sending = true;
  const msg = m.kind === "remove" ? { type: "remove_player", seat: m.seat, reason: text } : { type: "report", seat: m.seat, reason: text };
  return toTable(state, msg);
}

/** Open a dialog; the statistics, my games and the leaderboard ask for what they show. */
function openOverlay(state, kind, section = null) {
  if (!section) state.scoresAt = 0; // asked for: no need to wait for the last trick
  state.rulesAt = section || null; // the rules open at this variant's section (from the new-table form)
  state.rulesAll = false; // at a table the rules open at its own game; all of them one tap away
  state.overlay = kind;
  const effects = [];
  if (kind === "stats") {
    effects.push({ do: "load", what: "stats" }, { do: "offline_stats" });
    if (state.playerToken) effects.push(...toDevice(state, { type: "devices" }));
  }
  if (kind === "games") effects.push({ do: "load", what: "games" });
  if (kind === "board") effects.push(...applyIntent(state, { type: "board" }));
  return effects;
}

/** Use a code from another device here (a signed-out device starts fresh with it). */
function useDeviceCode(state, text) {
  const deviceCode = cleanCode(text);
  if (!deviceCode) {
    state.device.error = words("device_code_bad");
    return [];
  }
  if (state.signedOut !== null) applyIntent(state, { type: "start_fresh" }); // a code from another device links again
  return toDevice(state, { type: "use_device_code", code: deviceCode, label: deviceLabel() });
}

/** A card of the hand tapped: `card` its name, `key` which copy of it (with two decks a hand may hold it twice). */
function cardTapped(state, card, key, now) {
  const view = state.table && state.table.view;
  if (!view || state.inFlight) return [];
  state.focusCard = key;
  if (view.phase === "passing" && !view.passed && !(view.pass_refusals && view.pass_refusals[card])) {
    const changed = toggleSelected(state, key);
    // every place taken: say how to change a choice (a card in its place goes only where that place goes)
    state.notice = changed ? null : { words: words("pass_full", { n: view.pass_count }), kind: "info", moment: momentKey(state.table) };
    return [];
  }
  if (view.phase === "playing" && view.turn === state.table.you && view.legal.includes(card)) {
    state.notice = null;
    return move(state, { type: "play", card }, now);
  }
  // Right after your own card, "not your turn" answers a double tap: say nothing.
  if (view.refusal && now - (state.playedAt || 0) < DOUBLE_TAP_MS) return [];
  const why = refusalWords(view, card);
  if (why) state.notice = { words: why, kind: "refusal", moment: momentKey(state.table) };
  return [];
}

/** The replay viewer at hand `hand`, step `step` (kept within the hand). */
function replayGo(state, hand, step) {
  const r = state.replay;
  if (!r || r.status !== "ok" || !r.data.hands[hand]) return;
  r.hand = hand;
  r.step = Math.max(0, Math.min(step, stepRange(r.data.hands[hand]).last));
}

/** One step of the replay viewer: next/prev (a card), next_trick/prev_trick, start/end (of the hand). */
function replayMove(state, name) {
  const r = state.replay;
  if (!r || r.status !== "ok") return;
  const hands = r.data.hands;
  const at = { hand: r.hand, step: r.step };
  const to = {
    next: () => stepCard(hands, at, 1),
    prev: () => stepCard(hands, at, -1),
    next_trick: () => stepTrick(hands, at, 1),
    prev_trick: () => stepTrick(hands, at, -1),
    start: () => ({ hand: at.hand, step: 0 }),
    end: () => ({ hand: at.hand, step: stepRange(hands[at.hand]).last }),
  }[name];
  if (to) {
    const next = to();
    replayGo(state, next.hand, next.step);
  }
}

/**
 * The browser's Back and Forward (`path`, `search`, `share`: the replay link's key, or null): the screen follows
 * the address, the replay viewer follows its own.
 */
function followAddress(state, { path, search, share }) {
  if (share && !(state.replay && state.replay.key.share === share)) return [{ do: "load", what: "replay", key: { share } }];
  if (share) return [];
  if (state.replay) state.replay = null; // the viewer closes; the screen under it follows the address too
  const tableCode = (path.match(/^\/t\/([A-Za-z0-9]+)\/?$/) || [])[1];
  const atTable = state.screen === "table" && (state.session || state.watching);
  if (atTable && screenAddress(state) !== path) return leave(state); // back to the start page: stand up (asked first during a game)
  if (!atTable && tableCode && state.screen !== "joining") {
    const effects = [{ do: "code_field", code: tableCode.toUpperCase() }]; // what a refusal is about
    if (state.prefs.name) return [...effects, ...joinTable(state, tableCode.toUpperCase())];
    return [...effects, { do: "reload" }]; // the invitation, as when the link is opened
  }
  if (!atTable && path === "/") {
    state.wantedCode = null;
    state.invite = null;
    state.notice = null; // it was about the page left behind
    const deal = (new URLSearchParams(search).get("deal") || "").trim();
    state.dealLink = /^\d{1,12}$/.test(deal) ? deal : "";
  }
  return [];
}

/** The address of what is on screen: the table's link, the start page, or null (joining, an invitation: as it is). */
export function screenAddress(state) {
  if (state.screen === "table" && state.session) return state.session.link || `/t/${state.session.code}`;
  if (state.screen === "table" && state.watching) return `/t/${state.watching}`;
  if (state.screen === "start" && !state.wantedCode) return "/";
  return null;
}

/** Who must do what right now; a hint or a selection belongs to one such moment. */
export function momentKey(table) {
  const v = table && table.view;
  if (!v) return null;
  return `${v.hand_no}:${v.phase}:${v.tricks.length}:${v.trick ? v.trick.cards.length : 0}`;
}

/** Your review of hand `hand` of the game on screen (not of an earlier game at this table, nor of another table), or null. */
export function reviewOf(state, hand) {
  const r = state.review;
  const code = state.table ? state.table.code : null;
  return r && r.game === state.gameNo && r.table === code && r.hand_no === hand ? r : null;
}

/** Ask for the review of hand `hand` of the game on screen: the state it waits in. */
function askReview(state, hand) {
  const code = state.table ? state.table.code : null;
  state.review = { game: state.gameNo, table: code, hand_no: hand, status: "loading", data: null, code: null };
}

/**
 * Whether the table message `msg` shows another game than the table before it: another table, the waiting room of the
 * host's new game, a start-over, or (after a reconnect that missed those) a shorter history.
 */
function anotherGame(prev, msg) {
  if (!prev) return false;
  if (prev.code !== msg.code) return true;
  if ((msg.events || []).some((e) => e.type === "new_game" || e.type === "restart")) return true;
  const before = prev.view;
  const v = msg.view;
  return Boolean(before) && (!v || v.history.length < before.history.length);
}

/** A new game (or table): what belonged to the game before goes, its score table and its review too. */
function forgetGame(state) {
  state.gameNo += 1;
  state.review = null;
  state.scoresSeen = 0;
  state.readySent = -1;
  state.moreSteps = false;
  if (["scores", "last_trick", "restart"].includes(state.overlay)) state.overlay = null;
}

function applyTable(state, msg, now) {
  const prev = state.table;
  const before = prev && prev.view;
  if (anotherGame(prev, msg)) forgetGame(state);
  state.inFlight = false; // the server answered the move we sent (or moved on without it)
  state.table = msg;
  // the person a report or removal was about is no longer at the table (left, or removed): its dialog closes
  if (state.overlay === "seat" && state.moderation && !canModerate(msg, state.moderation.seat)) {
    state.overlay = null;
    state.moderation = null;
  }
  if (arrived(state, msg) && !state.offline.playing) saveSession(state.session); // sat down after game over?
  leftNews(state, msg, prev);
  state.seq = Math.max(state.seq, msg.seq || 0);
  state.deadlineAt = msg.deadline == null ? null : now + msg.deadline * 1000;
  state.screen = "table";
  const v = msg.view;
  if (!v) {
    state.said = []; // no game (the waiting room): the next one starts its news afresh
    return;
  }
  const restarted = (msg.events || []).some((e) => e.type === "restart");
  if (restarted) startedOver(state);
  if (restarted || !before || before.hand_no !== v.hand_no) {
    // A new hand is dealt: the score table and last trick of the hand before close, for every player.
    if (before && ["scores", "last_trick"].includes(state.overlay)) state.overlay = null;
    state.scoresAt = 0;
    state.selected = [];
    state.tricksSeen = { handNo: v.hand_no, count: v.tricks.length };
    state.trickShow = null;
  }
  if (v.phase !== "passing" || v.passed) state.selected = [];
  // My turn begins: a card that had the keyboard focus before it and may not be played now gives the focus to the
  // first that may (the hand makes that one focusable)
  const card = state.focusCard && state.focusCard.split("#")[0];
  if (card && v.phase === "playing" && v.turn === v.seat && momentKey(prev) !== momentKey(msg) && !v.legal.includes(card)) {
    state.focusCard = null;
  }
  if (state.hintKey !== momentKey(msg)) state.hint = [];
  // A refusal or a hint belongs to its moment: once the game moves on, it goes. "You are watching this hand" goes
  // when the hand is over (a seat can be taken then), a claim's news when the next hand is dealt.
  if (state.notice && state.notice.moment !== undefined && state.notice.moment !== momentKey(msg)) state.notice = null;
  if (state.notice && state.notice.untilHandEnd && (v.phase === "hand_over" || v.game_over)) state.notice = null;
  if (state.notice && state.notice.hand !== undefined && state.notice.hand !== v.hand_no) state.notice = null;
  if (before) tellNews(state, msg, before);
  if (before && !msg.resumed) timedOut(state, msg);
  const claim = (msg.events || []).find(isClaim);
  // who claimed: said under the table and in the score table, until the next deal
  if (claim) state.notice = { words: claimWords(state, claim.seat), kind: "info", hand: v.hand_no, inScores: true };
  // A trick that has just been finished stays visible briefly, then slides to its taker.
  if (state.tricksSeen.handNo === v.hand_no && v.tricks.length > state.tricksSeen.count) {
    const last = v.tricks[v.tricks.length - 1];
    // the kitty the trick took, and the cards of undecided tricks, stay on the table with it until it goes to its taker
    const same = before && before.hand_no === v.hand_no;
    const kittyBefore = same ? before.kitty_takers : null;
    const pendingBefore = same && before.pending ? before.pending : null;
    const { hold, slide } = trickTimes(state.prefs);
    state.trickShow = { trick: last, until: now + hold, slideUntil: now + hold + slide, kittyBefore, pendingBefore };
  }
  state.tricksSeen = { handNo: v.hand_no, count: v.tricks.length };
  // After each hand, the score table opens by itself, once the last trick has gone to its taker.
  if (v.history.length > state.scoresSeen && (v.phase === "hand_over" || v.game_over)) {
    state.scoresSeen = v.history.length;
    state.overlay = "scores";
    state.scoresAt = state.trickShow ? state.trickShow.slideUntil : 0;
  }
  if (v.history.length < state.scoresSeen) state.scoresSeen = v.history.length; // a new game
}

/**
 * A computer player moved for this seat because its turn clock ran out: said in the moment, with what it did ("Time
 * ran out: a computer player passed 10♦ A♠ A♥ for you"), until the person's next move or the next hand. Only as it
 * happens (not from the events a reconnect catches up on), and only under a turn timer: a claim's plays and an away
 * person's stand-in are no clock's doing.
 */
function timedOut(state, msg) {
  const me = msg.you;
  const v = msg.view;
  const events = msg.events || [];
  if (me === null || me === undefined || !msg.turn_timer || events.some(isClaim)) return;
  if (msg.seats[me] && msg.seats[me].away) return;
  for (const e of events) {
    if (!e.auto || e.seat !== me) continue;
    let said = null;
    if (e.type === "passed" && Array.isArray(v.passed)) said = words("timed_out_pass", { cards: { cards: [...v.passed] } });
    else if (e.type === "play") said = words("timed_out_play", { card: { cards: [e.card] } });
    if (said) state.notice = { words: said, kind: "info", hand: v.hand_no };
  }
}

/** The host started the game over: forget everything that belonged to the abandoned game. */
function startedOver(state) {
  state.scoresSeen = 0;
  state.readySent = -1;
  if (["scores", "last_trick", "restart"].includes(state.overlay)) state.overlay = null;
  state.notice = { words: words("game_restarted"), kind: "info" };
}

function applyError(state, msg) {
  state.fieldError = null;
  state.inFlight = false;
  if (msg.reason) {
    state.notice = { words: { refusal: msg.reason }, kind: "refusal", moment: momentKey(state.table) };
    return;
  }
  if (msg.code === "bad_name") { // the name was refused at hello: said at the name field, to choose another
    state.fieldError = { field: "name", words: { server: msg } };
    state.notice = null;
    if (state.screen === "joining") state.screen = "start";
    return;
  }
  // a Play now press the server refused: back to the start page, the wait's refusal said at its field
  const playNow = state.screen === "joining" && !state.wantedCode && !state.offline.playing;
  if (playNow) state.screen = "start";
  if (playNow && msg.code === "bad_message" && msg.field === "wait") {
    state.fieldError = { field: "pn-wait", words: { server: msg } };
    state.notice = null;
    return;
  }
  if (msg.code === "claim_refused") { // shown as the core's refusals are, until the game moves on
    state.notice = { words: { server: msg }, kind: "refusal", moment: momentKey(state.table) };
    return;
  }
  if (["unknown_table", "bad_token", "table_full", "seat_taken"].includes(msg.code) && state.screen !== "table") {
    if (state.wantedCode) forgetSession(state.wantedCode);
    state.screen = "start";
  }
  if ((msg.code === "bad_token" || msg.code === "unknown_table") && state.session) {
    forgetSession(state.session.code);
    state.session = null;
    state.screen = "start";
  }
  const said = msg.code === "unknown_table" ? words("error_no_table") : { server: msg };
  // A refused deal number is shown at its field in the new-table form.
  if (msg.code === "bad_option" && msg.field === "deal" && state.screen !== "table") {
    state.fieldError = { field: "deal", words: words("deal_refused", { message: said }) };
    state.notice = null;
    return;
  }
  state.notice = { words: said, kind: "error" };
}

const MODERATION_ERRORS = ["not_now", "not_host", "reports_limited", "bad_message", "server_busy", "rate_limited"];

/** A refusal of a report or a removal, said in its dialog (the reason stays typed, to send again or change). */
function moderationError(state, msg) {
  const m = state.moderation;
  if (state.overlay !== "seat" || !m || !m.kind || !m.sending || !MODERATION_ERRORS.includes(msg.code)) return false;
  m.sending = false;
  m.error = { server: msg };
  return true;
}

/** `reported`: the report was kept; the dialog closes and a line thanks the person. */
function reported(state, msg) {
  if (state.overlay === "seat") state.overlay = null;
  state.moderation = null;
  state.notice = { words: words("reported_notice", { name: { seat: msg.seat } }), kind: "info" };
}

/** Back on the start page: the table, its seat, its game and its chat go. */
export function leftTable(state) {
  if (state.session) forgetSession(state.session.code);
  state.session = null;
  state.watching = null;
  state.table = null;
  state.seq = 0;
  state.screen = "start";
  state.overlay = null;
  state.notice = null;
  state.scoresSeen = 0;
  state.selected = [];
  state.hint = [];
  state.review = null;
  state.gameNo += 1;
  state.moderation = null;
  resetChat(state);
}

/**
 * News for screen readers: every card played (and whether an identical card cancelled it), who took the trick (with
 * the cards that waited for it), that no one did, who took the kitty and whose turn it is, as plain data
 * ({id, kind, seat, card, waited}); render/ words it in the language of the moment.
 */
function tellNews(state, msg, before) {
  const v = msg.view;
  const said = [...state.said];
  const first = said.length ? said[said.length - 1].id + 1 : 1;
  let id = first - 1;
  let waited = before.hand_no === v.hand_no && before.pending ? before.pending.length : 0;
  for (const e of msg.events || []) {
    if (isClaim(e)) said.push({ id: ++id, kind: "claim", seat: e.seat });
    else if (e.type === "play") said.push({ id: ++id, kind: "play", seat: e.seat, card: e.card, cancelled: cancelledNow(v, e.seat) });
    else if (e.type === "trick" && e.winner === null) {
      said.push({ id: ++id, kind: "undecided" });
      waited += v.seats || 4; // every seat's card waits
    } else if (e.type === "trick") {
      said.push({ id: ++id, kind: "trick", seat: e.winner, waited });
      waited = 0;
    }
  }
  for (const seat of kittyTaken(before, v)) said.push({ id: ++id, kind: "kitty", seat });
  const moved = id >= first;
  if (v.phase === "playing" && (moved || before.phase !== "playing" || before.turn !== v.turn)) {
    said.push({ id: ++id, kind: "turn", seat: v.turn });
  }
  state.said = said.slice(-SAID_KEEP);
}

/** A claim: a seat showed that every remaining trick is its own; the plays that follow in the same news take them. */
function isClaim(e) {
  return e.type === "claim" || e.kind === "claim";
}

/** "Ellen claims the rest of the tricks" (or "You claim..."), as words. */
function claimWords(state, seat) {
  return seat === state.table.you ? words("claim_you") : words("claim_other", { name: { seat } });
}

/** Whether the card `seat` played to the trick on the table (or the trick just finished) is cancelled (two decks). */
function cancelledNow(v, seat) {
  const trick = v.trick && v.trick.cards.some((c) => c.seat === seat) ? v.trick : v.tricks[v.tricks.length - 1];
  const played = trick ? trick.cards.find((c) => c.seat === seat) : null;
  return Boolean(played && played.cancelled);
}

/** The seats that took a kitty card between two views of the same hand. */
function kittyTaken(before, v) {
  if (!v.kitty_takers || !before.kitty_takers || before.hand_no !== v.hand_no) return [];
  const seats = v.kitty_takers.filter((s, i) => s >= 0 && before.kitty_takers[i] !== s);
  return [...new Set(seats)];
}

/** The hint's note as words; for a pass whose cards go several ways, the hinted cards in the order they go. */
function hintWords(state) {
  const view = state.table && state.table.view;
  if (passForm(view) !== "several" || state.hint.length !== view.pass_count) return { hint: null };
  return { hint: [...state.hint] };
}

/**
 * Choose or unchoose a card to pass (`card`: the key of its copy, so that both copies of a card can go); never more
 * than the pass count. When each card goes its own way the cards keep their places; returns false when every place
 * is taken (nothing changed).
 */
function toggleSelected(state, card) {
  const view = state.table.view;
  const count = view.pass_count;
  if (passForm(view) === "several") {
    const places = toggleSlot(state.selected, card, count);
    if (places) state.selected = places;
    return Boolean(places);
  }
  const i = state.selected.indexOf(card);
  if (i >= 0) state.selected.splice(i, 1);
  else if (state.selected.length < count) state.selected.push(card);
  else {
    state.selected.shift();
    state.selected.push(card);
  }
  return true;
}

/** The refusal reason the server sent for a dimmed card, as words (null: none). */
export function refusalWords(view, card) {
  // a card that may not be passed; a reason for this card (on your turn); or the one reason for the whole hand
  const passing = view.phase === "passing" && view.pass_refusals ? view.pass_refusals[card] : null;
  const reason = passing || (view.refusals && view.refusals[card]) || (view.hand.includes(card) ? view.refusal : null);
  return reason ? { refusal: reason } : null;
}
