// Pace: the host's choice of the computer players' speed, and playing the only legal card by itself, as plain
// answers read from the state. The server decides what is legal and how fast its computer players move;
// update/pace.js keeps what was asked and decided, and hands on the intents.
import { momentKey } from "./moment.js";

export const AUTO_PLAY_MS = 600; // the short moment before the only legal card goes by itself

/**
 * The host's preferred pace for the computer players, when it should be sent to the table: the page sits as host
 * and the table's pace (a server that knows pace says it) differs from the preference. Else null.
 */
export function paceToSend(state) {
  const table = state.table;
  if (!table || table.you === null || table.host !== table.you || typeof table.pace !== "string") return null;
  const wanted = state.prefs.computerPace;
  return wanted && wanted !== table.pace ? wanted : null;
}

/** With the option on, on your turn in the playing phase: the one card the view's `legal` holds, else null. */
export function onlyCard(state, table) {
  const v = table && table.view;
  if (!state.prefs.autoPlay || !v || table.you === null || v.phase !== "playing" || v.turn !== table.you) return null;
  return v.legal.length === 1 ? v.legal[0] : null;
}

/** The decision a table shows: its table, its game's hands so far and the moment (a card goes once per decision). */
export function decisionKey(table) {
  return `${table.code}:${table.view.history.length}:${momentKey(table)}`;
}
