// Playing a hand: a card of the hand tapped (chosen to pass, played, or refused with the server's reason), the moves
// that wait for the server's answer, the hint, and the keyboard's place in the hand.
import { keyCard } from "../cards.js";
import { passForm, toggleSlot } from "../passing.js";
import { words } from "../words.js";
import { momentKey } from "../moment.js";
import { toTable } from "./sending.js";

// A tap this soon after playing a card is the same tap twice (a double tap), not a new wish.
const DOUBLE_TAP_MS = 500;

/** The server messages of play. */
export const MESSAGES = {
  hint: (state, msg) => {
    state.hint = msg.cards || [];
    state.hintKey = momentKey(state.table);
    state.notice = { words: hintWords(state), kind: "info", moment: state.hintKey };
    return [];
  },
};

/** The person's intents of play. */
export const INTENTS = {
  card: (state, intent, now) => cardTapped(state, intent.card, intent.key, now),
  // a card chosen twice goes twice
  pass: (state, intent, now) => move(state, { type: "pass", cards: state.selected.filter(Boolean).map(keyCard) }, now),
  play: (state, intent, now) => move(state, { type: "play", card: intent.card }, now),
  // the server checks it against every hand: the rest is played out, or it says why not
  claim: (state, intent, now) => move(state, { type: "claim" }, now),
  moon: (state, intent, now) => move(state, { type: "moon", choice: intent.choice }, now),
  ready: (state, intent, now) => move(state, { type: "ready" }, now),
  focus_card: (state, intent) => { // the keyboard's place in the hand (the page moved the focus itself: no redraw)
    state.focusCard = intent.key;
    return [{ do: "quiet" }];
  },
  keys_used: (state) => { // the keyboard came to the hand: from now on the status says what the keys do
    state.keysUsed = true;
    return [];
  },
};

/** A move; until the server answers it (the next table or update), taps wait. */
export function move(state, msg, now) {
  if (state.inFlight) return [];
  state.inFlight = true;
  if (msg.type === "play") state.playedAt = now;
  return toTable(state, msg);
}

/** A card of the hand tapped: `card` its name, `key` which copy of it (with two decks a hand may hold it twice). */
export function cardTapped(state, card, key, now) {
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
