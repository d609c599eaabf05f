// Dialogs: one opened (the statistics, my games and the leaderboard ask for what they show) or closed, the rules of
// every game, the leaderboard's family and period, and a link copied ("Copied" shows a moment).
import { toDevice } from "./sending.js";

const COPIED_MS = 2000; // how long "Copied" shows

/** The person's intents about dialogs. */
export const INTENTS = {
  overlay: (state, intent) => openOverlay(state, intent.overlay, intent.section),
  close_overlay: (state) => {
    state.overlay = null;
    state.moderation = null;
    return [{ do: "address", follow: true }]; // "Stay" after the browser's Back asked to leave: the table's address
  },
  rules_all: (state) => { // the rules read at a table: from this table's game to every game and option
    state.rulesAll = true;
    return [];
  },
  board: (state, intent) => board(state, intent), // the leaderboard of a family over a period (each change asks the server again)
  copy: (state, intent) => { // the invitation link or a replay's share link: "Copied" shows a moment
    state[intent.what] = true;
    return [{ do: "copy", text: intent.text, what: intent.what }, { do: "later", ms: COPIED_MS, intent: { type: "copied", what: intent.what } }];
  },
  copied: (state, intent) => {
    state[intent.what] = false;
    return [];
  },
};

/** The leaderboard of a family over a period: the one on screen, unless another is chosen. */
function board(state, intent) {
  const b = state.board || { family: "classic", period: "all" };
  return [{ do: "load", what: "board", family: intent.family || b.family, period: intent.period || b.period }];
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
  if (kind === "board") effects.push(...board(state, {}));
  return effects;
}
