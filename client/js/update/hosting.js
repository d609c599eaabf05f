// The host's commands and the table messages that go as they are (the seat, the level chosen for a computer
// player...), a new game or a start-over, and the host's choices unfolded after game over.
import { language } from "../i18n.js";
import { toTable } from "./sending.js";

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

/** The person's intents as host (and the table messages that go as they are). */
export const INTENTS = {
  ...Object.fromEntries(Object.entries(PLAIN).map(([type, msg]) => [type, (state, i) => toTable(state, msg(i, state))])),
  // the host's new game after game over: new cards, the same seats, back in the waiting room
  new_game: (state, intent) => newGame(state, intent),
  restart: (state, intent) => newGame(state, intent),
  more_steps: (state) => { // after game over: unfold (or fold) the host's other choices under the main step
    state.moreSteps = !state.moreSteps;
    return [];
  },
};

/** A new game after game over, or the game started over: the dialog closes and the table is told. */
function newGame(state, intent) {
  state.overlay = null;
  return toTable(state, { type: intent.type });
}

/** The host of a listed table (not a Play now table, which has no host) switched language: the list says it. */
export function listedLanguage(state, lang) {
  const table = state.table;
  const open = table && table.open;
  if (!open || !open.listed || open.play_now || table.host !== table.you || open.lang === lang) return [];
  return toTable(state, { type: "set_open", open: true, lang });
}
