// Seats: sitting down (`joined`), watching without a seat, leaving (`left`), the seats this player holds elsewhere,
// joining a table by its code and standing up. Who left, who hosts now, and why a watcher was sent away are kept as
// words ({key, params}); render/say.js words them.
import { loadSession } from "../session.js";
import { tookOver, joinedSeat } from "../seating.js";
import { words } from "../words.js";
import { momentKey } from "../moment.js";
import { toTable, connect } from "./sending.js";
import { freshStart } from "./lobby.js";
import { pressPlayNow } from "./playnow.js";
import { resetChat } from "./chat.js";
import { joinedAsHost } from "./pace.js";

/** The server messages about seats. */
export const MESSAGES = {
  joined: (state, msg) => {
    const took = tookOver(state, msg); // a watcher takes a computer player's seat mid-game: said once seated
    state.session = joinedSeat(state, msg);
    // the offline table is kept in IndexedDB by its worker
    const effects = msg.offline ? [] : [{ do: "save_session", session: { ...state.session } }];
    state.screen = "table";
    state.wantedCode = null;
    state.dealLink = ""; // the link's deal was played (or another table chosen)
    seatedNow(state);
    if (took) state.notice = { ...took, moment: momentKey(state.table) };
    if (msg.offline) state.offline.saved = null; // the kept game is the one on screen
    joinedAsHost(state, Boolean(msg.host)); // a host's pace preference goes to the table
    return effects;
  },
  watching: (state, msg) => {
    watchingTable(state, msg);
    return [];
  },
  left: (state, msg) => {
    const effects = leftTable(state);
    leftReason(state, msg);
    const again = state.playNow.again;
    if (again) { // the table is left: now the press, with the same game, wait and choice of language
      state.playNow.again = null;
      return [...effects, ...pressPlayNow(state, again.options, again.wait, again.langOnly)];
    }
    // back on the start page: today's board, and its list of open tables at once
    return [...effects, { do: "load", what: "daily" }, { do: "load", what: "open_tables" }];
  },
  my_tables: (state, msg) => {
    // the tables where this player sits (also on another device): "Back to your table" takes the seat by player
    const tables = msg.tables || [];
    const table = tables.find((x) => x.status === "playing") || tables[0];
    if (table && !state.session) state.comeback = { code: table.code, seat: table.seat, seats: table.seats, byPlayer: true };
    return [];
  },
};

/** The person's intents about seats. */
export const INTENTS = {
  join: (state, intent) => joinTable(state, intent.tableCode),
  comeback: (state) => (state.comeback ? joinTable(state, state.comeback.code) : []),
  leave: (state, intent) => leave(state, intent.confirmed),
};

/** The page opened at /t/CODE holds that table's seat (`saved`): back to it once connected. */
export function applySavedSeat(state, saved) {
  state.session = saved;
  state.screen = "joining";
  return connect(state);
}

/** Back on the start page: the table, its seat, its game and its chat go (the seat's token too: an effect). */
export function leftTable(state) {
  const effects = state.session ? [{ do: "forget_session", code: state.session.code }] : [];
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
  return effects;
}

/** Join the table `code`: back at a seat this page holds, or a seat this player holds elsewhere, or a new one. */
export function joinTable(state, tableCode) {
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
export function leave(state, confirmed = false) {
  if (state.offline.playing) {
    // The offline game stays kept in this browser: the start page offers to continue it.
    state.overlay = null;
    state.offline.playing = false;
    const effects = leftTable(state);
    return [...effects, { do: "address", follow: true }, { do: "offline_find" }, { do: "load", what: "daily" }];
  }
  const table = state.table;
  if (!confirmed && state.session && table && table.status === "playing") {
    state.overlay = "leave";
    return [];
  }
  state.overlay = null;
  if (state.greeted) return toTable(state, { type: "leave" });
  const effects = leftTable(state);
  return [...effects, { do: "address", follow: true }, { do: "load", what: "daily" }];
}

/** `watching`: we watch a table without a seat (no hand, no seat token). */
function watchingTable(state, msg) {
  state.watching = msg.code;
  state.session = null;
  state.screen = "table";
  state.wantedCode = null;
  state.invite = null;
  state.comeback = null;
}

/** `joined`: whatever we watched or were invited to, we now sit. */
function seatedNow(state) {
  if (state.watching) state.notice = null; // "you are watching" no longer holds
  state.watching = null;
  state.invite = null;
  state.comeback = null;
}

/** After `left`: a watcher sent away by the host or by a closing table is told why. */
function leftReason(state, msg) {
  if (msg.reason === "watch_off") state.notice = { words: words("watch_off"), kind: "info" };
  else if (msg.reason === "closed") state.notice = { words: words("watch_closed"), kind: "info" };
  // the host removed this person, with a reason: said plainly on the start page they land on
  else if (msg.reason === "removed") state.notice = { words: words("removed_you", { reason: msg.text || "" }), kind: "error", removed: true };
}

/**
 * A person stood up during a game and a computer player took over: tell everyone who and who plays on. Hosting
 * passed to someone else (the host left, or is away): tell everyone who hosts now.
 */
export function leftNews(state, msg, prev) {
  const said = [];
  for (const e of msg.events || []) {
    if (e.type === "seated" && e.who === "computer" && e.left) said.push(words("left_computer_plays", { name: e.left, computer: e.name }));
    if (e.type === "host" && hostChanged(prev, msg, e.seat)) said.push(hostNews(msg, e.seat));
    // the host removed someone (news of this table, not old events sent again on coming back to it)
    if (e.type === "removed" && prev && prev.code === msg.code) said.push(words("removed_news", { name: e.name || "", reason: e.reason || "" }));
    if (e.type === "removed" && state.moderation && state.moderation.seat === e.seat && state.overlay === "seat") {
      state.overlay = null; // the host's own removal went through: its dialog closes
      state.moderation = null;
    }
  }
  if (said.length) state.notice = { words: { parts: said }, kind: "info" };
}

/**
 * Whether hosting went to another person between two table messages of this page (not the host moving to another
 * seat, and not old events a table sent on coming back to it).
 */
function hostChanged(prev, table, seat) {
  if (!prev || prev.code !== table.code || seat === null || seat === undefined || seat !== table.host) return false;
  if (seat === table.you) return prev.host !== prev.you;
  const before = prev.seats[prev.host];
  const now = table.seats[seat];
  return Boolean(now) && (!before || before.name !== now.name);
}

function hostNews(table, seat) {
  return seat === table.you ? words("host_now_you") : words("host_now", { name: table.seats[seat].name });
}

/**
 * Whoever sits down at a game that is already over played none of it: the finished game's replay id is kept with the
 * seat (a reload still knows), and only its share link is offered, not "my" replay. True when the seat changed.
 */
export function arrived(state, table) {
  const seat = state.session;
  if (!seat || !seat.arriving || seat.code !== table.code) return false;
  delete seat.arriving;
  if (table.status === "finished" && table.replay) seat.late = table.replay.id;
  return true;
}
