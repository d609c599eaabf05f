// State changes around seats: watching without a seat, who left the table, and why a watcher was sent away. Words
// are kept as data ({key, params}); render/say.js words them.

/** Words kept as data: the text `key` of i18n/ with its values. */
function words(key, params = {}) {
  return { key, params };
}

/** Whether this page may report or remove the person on `seat`: it sits at the table, and they are someone else. */
export function canModerate(table, seat) {
  const s = table && table.seats[seat];
  return Boolean(s) && s.kind === "person" && table.you !== null && table.you !== undefined && seat !== table.you;
}

/** `watching`: we watch a table without a seat (no hand, no seat token). */
export function watchingTable(state, msg) {
  state.watching = msg.code;
  state.session = null;
  state.screen = "table";
  state.wantedCode = null;
  state.invite = null;
  state.comeback = null;
}

/** `joined`: whatever we watched or were invited to, we now sit. */
export function seatedNow(state) {
  if (state.watching) state.notice = null; // "you are watching" no longer holds
  state.watching = null;
  state.invite = null;
  state.comeback = null;
}

/** After `left`: a watcher sent away by the host or by a closing table is told why. */
export function leftReason(state, msg) {
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

/** A watcher who takes a computer player's seat during a game inherits its score (and the cards it passed): say so. */
export function tookOver(state, msg) {
  const table = state.table;
  if (!state.watching || !table || !table.view || table.code !== msg.code) return null;
  const seat = table.seats[msg.seat];
  if (!seat || seat.kind !== "computer") return null;
  const key = table.view.pass_count > 0 ? "took_seat_passed" : "took_seat";
  return { words: words(key, { name: seat.name }), kind: "info", inScores: true };
}

/**
 * The seat of a `joined`: a seat this page held already keeps what it knew (`late`); a new one (a join, a watcher
 * sitting down) is `arriving` until the next table message says whether its game was already over.
 */
export function joinedSeat(state, msg) {
  const had = state.session && state.session.code === msg.code && !state.watching ? state.session : null;
  const seat = { code: msg.code, seat: msg.seat, seat_token: msg.seat_token, link: msg.link };
  if (!had) seat.arriving = true;
  else if (had.late) seat.late = had.late;
  return seat;
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
