// Facts about seats, read from the state: whom this page may report or remove, the seat a watcher took over from a
// computer player, and the seat a `joined` gives. update/seating.js changes the state with them; words are kept as
// data ({key, params}) that render/say.js words.
import { words } from "./words.js";

/** Whether this page may report or remove the person on `seat`: it sits at the table, and they are someone else. */
export function canModerate(table, seat) {
  const s = table && table.seats[seat];
  return Boolean(s) && s.kind === "person" && table.you !== null && table.you !== undefined && seat !== table.you;
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
