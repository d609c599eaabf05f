// Pace: the host's choice of the computer players' speed carried to the table, and playing the only legal card by
// itself. The server decides what is legal and how fast its computer players move; this only hands on intents.
import { momentKey } from "./update.js";

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

/** Send the host's pace after joining as host, and whenever the host changes the option. */
export function createPaceSync({ state, send }) {
  let asked = false; // joined as host: the next table message says the table's pace
  return {
    joined(msg) {
      asked = Boolean(msg.host);
    },
    /** After a table message, or when the option changed (`now`): send set_pace when the table's pace differs. */
    check(now = false) {
      if (!asked && !now) return;
      if (!state.table) return;
      asked = false;
      const pace = paceToSend(state);
      if (pace) send({ type: "set_pace", pace });
    },
  };
}

/**
 * With the option on: on your turn in the playing phase, when the view's `legal` holds exactly one card, play it after
 * a short moment, once per decision (a refused or answered play is never repeated for the same decision).
 */
export function createAutoPlay({ state, play, delay = AUTO_PLAY_MS }) {
  let decided = null; // the decision already played (or being played) by itself
  let timer = 0;
  const keyOf = (table) => `${table.code}:${table.view.history.length}:${momentKey(table)}`;
  const onlyCard = (table) => {
    const v = table && table.view;
    if (!state.prefs.autoPlay || !v || table.you === null || v.phase !== "playing" || v.turn !== table.you) return null;
    return v.legal.length === 1 ? v.legal[0] : null;
  };
  return function check() {
    const table = state.table;
    if ((table && table.events || []).some((e) => e.type === "restart")) decided = null; // the same moments again
    const card = onlyCard(table);
    if (!card || keyOf(table) === decided) return;
    const key = keyOf(table);
    decided = key;
    clearTimeout(timer);
    timer = setTimeout(() => {
      const now = state.table;
      if (state.inFlight || onlyCard(now) !== card || keyOf(now) !== key) return; // played by hand, or moved on
      play(card); // the intent `play`: update.js sends it and waits for the answer
    }, delay);
  };
}
