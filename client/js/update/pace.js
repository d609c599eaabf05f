// Pace: the host's choice of the computer players' speed carried to the table, and the only legal card played by
// itself a moment later. What to send and which card is the only one are pace.js's plain answers; what was asked and
// decided is kept in the state (state.pace), and the moment to wait is an effect (`later`).
import { paceToSend, onlyCard, decisionKey, AUTO_PLAY_MS } from "../pace.js";
import { toTable } from "./sending.js";
import { move } from "./play.js";

/** Joined as host (or not): the next table message says the table's pace, and the host's preference may go to it. */
export function joinedAsHost(state, host) {
  state.pace.asked = host;
}

/** After a table message, or when the option changed (`now`): send set_pace when the table's pace differs. */
export function checkPace(state, now = false) {
  if (!state.pace.asked && !now) return [];
  if (!state.table) return [];
  state.pace.asked = false;
  const pace = paceToSend(state);
  return pace ? toTable(state, { type: "set_pace", pace }) : [];
}

/**
 * With the option on: on your turn in the playing phase, when the view's `legal` holds exactly one card, play it after
 * a short moment, once per decision (a refused or answered play is never repeated for the same decision). A later
 * decision takes the place of one still waiting.
 */
export function autoPlay(state) {
  const table = state.table;
  if ((table && table.events || []).some((e) => e.type === "restart")) state.pace.decided = null; // the same moments again
  const card = onlyCard(state, table);
  if (!card || decisionKey(table) === state.pace.decided) return [];
  const key = decisionKey(table);
  state.pace.decided = key;
  state.pace.due += 1;
  return [{ do: "later", ms: AUTO_PLAY_MS, intent: { type: "auto_play", card, key, due: state.pace.due } }];
}

/** The moment is over: the card goes, unless it was played by hand, the game moved on, or a later decision waits. */
export const INTENTS = {
  auto_play: (state, intent, now) => {
    const table = state.table;
    if (intent.due !== state.pace.due) return [{ do: "quiet" }];
    if (state.inFlight || onlyCard(state, table) !== intent.card || decisionKey(table) !== intent.key) return [{ do: "quiet" }];
    return move(state, { type: "play", card: intent.card }, now); // update.js sends it and waits for the answer
  },
};
