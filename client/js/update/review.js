// Your review of a hand of the game on screen: asked of the table (the hard player looks at your decisions), and
// kept for that game only.
import { toTable } from "./sending.js";

/** The server's review of a hand. */
export const MESSAGES = {
  review: (state, msg) => {
    if (reviewOf(state, msg.hand_no)) Object.assign(state.review, { status: "ok", data: msg.review });
    return [];
  },
};

/** The person's intent: review a hand. */
export const INTENTS = {
  review_hand: (state, intent) => { // the hard player's review of your decisions in hand `hand` of this table's game
    const asked = reviewOf(state, intent.hand);
    if (asked && asked.status !== "error") return [];
    askReview(state, intent.hand);
    return toTable(state, { type: "review", hand_no: intent.hand });
  },
};

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
