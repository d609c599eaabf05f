// The table on screen: a `table` message, or an `update` folded into the last one. A new game or hand, a finished
// trick that stays a moment, the score table after each hand, what happened for a seat whose clock ran out, and the
// news for screen readers.
import { foldUpdate } from "../fold.js";
import { animFactor } from "../prefs.js";
import { canModerate } from "../seating.js";
import { words } from "../words.js";
import { momentKey } from "../moment.js";
import { arrived, leftNews } from "./seating.js";
import { learnClock } from "./playnow.js";

export const TRICK_HOLD_MS = 900; // how long a finished trick stays at the normal animation speed (ms)
export const TRICK_SLIDE_MS = 450; // how long it then slides to its taker (ms)
const SAID_KEEP = 24; // news lines kept for screen readers (more than one redraw can take, when moves come fast)

/** How long a finished trick stays, then slides to its taker, at the player's animation speed (ms). */
export function trickTimes(prefs) {
  const factor = animFactor(prefs);
  return { hold: TRICK_HOLD_MS * (factor || 0.5), slide: TRICK_SLIDE_MS * factor };
}

/** The server messages of the table on screen. */
export const MESSAGES = {
  table: (state, msg, now) => [...applyTable(state, msg, now), ...learnClock(state, now)],
  update: (state, msg, now) => applyTable(state, foldUpdate(state.table, msg), now),
};

/**
 * Whether the table message `msg` shows another game than the table before it: another table, the waiting room of the
 * host's new game, a start-over, or (after a reconnect that missed those) a shorter history.
 */
function anotherGame(prev, msg) {
  if (!prev) return false;
  if (prev.code !== msg.code) return true;
  if ((msg.events || []).some((e) => e.type === "new_game" || e.type === "restart")) return true;
  const before = prev.view;
  const v = msg.view;
  return Boolean(before) && (!v || v.history.length < before.history.length);
}

/** A new game (or table): what belonged to the game before goes, its score table and its review too. */
function forgetGame(state) {
  state.gameNo += 1;
  state.review = null;
  state.scoresSeen = 0;
  state.readySent = -1;
  state.moreSteps = false;
  if (["scores", "last_trick", "restart"].includes(state.overlay)) state.overlay = null;
}

/** A table message (whole, or an update folded in): the state it changes, and the seat kept when it changed. */
function applyTable(state, msg, now) {
  const effects = [];
  const prev = state.table;
  const before = prev && prev.view;
  if (anotherGame(prev, msg)) forgetGame(state);
  state.inFlight = false; // the server answered the move we sent (or moved on without it)
  state.table = msg;
  // the person a report or removal was about is no longer at the table (left, or removed): its dialog closes
  if (state.overlay === "seat" && state.moderation && !canModerate(msg, state.moderation.seat)) {
    state.overlay = null;
    state.moderation = null;
  }
  // sat down after game over?
  if (arrived(state, msg) && !state.offline.playing) effects.push({ do: "save_session", session: { ...state.session } });
  leftNews(state, msg, prev);
  state.seq = Math.max(state.seq, msg.seq || 0);
  state.deadlineAt = msg.deadline == null ? null : now + msg.deadline * 1000;
  state.screen = "table";
  const v = msg.view;
  if (!v) {
    state.said = []; // no game (the waiting room): the next one starts its news afresh
    return effects;
  }
  const restarted = (msg.events || []).some((e) => e.type === "restart");
  if (restarted) startedOver(state);
  if (restarted || !before || before.hand_no !== v.hand_no) {
    // A new hand is dealt: the score table and last trick of the hand before close, for every player.
    if (before && ["scores", "last_trick"].includes(state.overlay)) state.overlay = null;
    state.scoresAt = 0;
    state.selected = [];
    state.tricksSeen = { handNo: v.hand_no, count: v.tricks.length };
    state.trickShow = null;
  }
  if (v.phase !== "passing" || v.passed) state.selected = [];
  // My turn begins: a card that had the keyboard focus before it and may not be played now gives the focus to the
  // first that may (the hand makes that one focusable)
  const card = state.focusCard && state.focusCard.split("#")[0];
  if (card && v.phase === "playing" && v.turn === v.seat && momentKey(prev) !== momentKey(msg) && !v.legal.includes(card)) {
    state.focusCard = null;
  }
  if (state.hintKey !== momentKey(msg)) state.hint = [];
  // A refusal or a hint belongs to its moment: once the game moves on, it goes. "You are watching this hand" goes
  // when the hand is over (a seat can be taken then), a claim's news when the next hand is dealt.
  if (state.notice && state.notice.moment !== undefined && state.notice.moment !== momentKey(msg)) state.notice = null;
  if (state.notice && state.notice.untilHandEnd && (v.phase === "hand_over" || v.game_over)) state.notice = null;
  if (state.notice && state.notice.hand !== undefined && state.notice.hand !== v.hand_no) state.notice = null;
  if (before) tellNews(state, msg, before);
  if (before && !msg.resumed) timedOut(state, msg);
  const claim = (msg.events || []).find(isClaim);
  // who claimed: said under the table and in the score table, until the next deal
  if (claim) state.notice = { words: claimWords(state, claim.seat), kind: "info", hand: v.hand_no, inScores: true };
  // A trick that has just been finished stays visible briefly, then slides to its taker.
  if (state.tricksSeen.handNo === v.hand_no && v.tricks.length > state.tricksSeen.count) {
    const last = v.tricks[v.tricks.length - 1];
    // the kitty the trick took, and the cards of undecided tricks, stay on the table with it until it goes to its taker
    const same = before && before.hand_no === v.hand_no;
    const kittyBefore = same ? before.kitty_takers : null;
    const pendingBefore = same && before.pending ? before.pending : null;
    const { hold, slide } = trickTimes(state.prefs);
    state.trickShow = { trick: last, until: now + hold, slideUntil: now + hold + slide, kittyBefore, pendingBefore };
  }
  state.tricksSeen = { handNo: v.hand_no, count: v.tricks.length };
  // After each hand, the score table opens by itself, once the last trick has gone to its taker.
  if (v.history.length > state.scoresSeen && (v.phase === "hand_over" || v.game_over)) {
    state.scoresSeen = v.history.length;
    state.overlay = "scores";
    state.scoresAt = state.trickShow ? state.trickShow.slideUntil : 0;
  }
  if (v.history.length < state.scoresSeen) state.scoresSeen = v.history.length; // a new game
  return effects;
}

/**
 * A computer player moved for this seat because its turn clock ran out: said in the moment, with what it did ("Time
 * ran out: a computer player passed 10♦ A♠ A♥ for you"), until the person's next move or the next hand. Only as it
 * happens (not from the events a reconnect catches up on), and only under a turn timer: a claim's plays and an away
 * person's stand-in are no clock's doing.
 */
function timedOut(state, msg) {
  const me = msg.you;
  const v = msg.view;
  const events = msg.events || [];
  if (me === null || me === undefined || !msg.turn_timer || events.some(isClaim)) return;
  if (msg.seats[me] && msg.seats[me].away) return;
  for (const e of events) {
    if (!e.auto || e.seat !== me) continue;
    let said = null;
    if (e.type === "passed" && Array.isArray(v.passed)) said = words("timed_out_pass", { cards: { cards: [...v.passed] } });
    else if (e.type === "play") said = words("timed_out_play", { card: { cards: [e.card] } });
    if (said) state.notice = { words: said, kind: "info", hand: v.hand_no };
  }
}

/** The host started the game over: forget everything that belonged to the abandoned game. */
function startedOver(state) {
  state.scoresSeen = 0;
  state.readySent = -1;
  if (["scores", "last_trick", "restart"].includes(state.overlay)) state.overlay = null;
  state.notice = { words: words("game_restarted"), kind: "info" };
}

/**
 * News for screen readers: every card played (and whether an identical card cancelled it), who took the trick (with
 * the cards that waited for it), that no one did, who took the kitty and whose turn it is, as plain data
 * ({id, kind, seat, card, waited}); render/ words it in the language of the moment.
 */
function tellNews(state, msg, before) {
  const v = msg.view;
  const said = [...state.said];
  const first = said.length ? said[said.length - 1].id + 1 : 1;
  let id = first - 1;
  let waited = before.hand_no === v.hand_no && before.pending ? before.pending.length : 0;
  for (const e of msg.events || []) {
    if (isClaim(e)) said.push({ id: ++id, kind: "claim", seat: e.seat });
    else if (e.type === "play") said.push({ id: ++id, kind: "play", seat: e.seat, card: e.card, cancelled: cancelledNow(v, e.seat) });
    else if (e.type === "trick" && e.winner === null) {
      said.push({ id: ++id, kind: "undecided" });
      waited += v.seats || 4; // every seat's card waits
    } else if (e.type === "trick") {
      said.push({ id: ++id, kind: "trick", seat: e.winner, waited });
      waited = 0;
    }
  }
  for (const seat of kittyTaken(before, v)) said.push({ id: ++id, kind: "kitty", seat });
  const moved = id >= first;
  if (v.phase === "playing" && (moved || before.phase !== "playing" || before.turn !== v.turn)) {
    said.push({ id: ++id, kind: "turn", seat: v.turn });
  }
  state.said = said.slice(-SAID_KEEP);
}

/** A claim: a seat showed that every remaining trick is its own; the plays that follow in the same news take them. */
function isClaim(e) {
  return e.type === "claim" || e.kind === "claim";
}

/** "Ellen claims the rest of the tricks" (or "You claim..."), as words. */
function claimWords(state, seat) {
  return seat === state.table.you ? words("claim_you") : words("claim_other", { name: { seat } });
}

/** Whether the card `seat` played to the trick on the table (or the trick just finished) is cancelled (two decks). */
function cancelledNow(v, seat) {
  const trick = v.trick && v.trick.cards.some((c) => c.seat === seat) ? v.trick : v.tricks[v.tricks.length - 1];
  const played = trick ? trick.cards.find((c) => c.seat === seat) : null;
  return Boolean(played && played.cancelled);
}

/** The seats that took a kitty card between two views of the same hand. */
function kittyTaken(before, v) {
  if (!v.kitty_takers || !before.kitty_takers || before.hand_no !== v.hand_no) return [];
  const seats = v.kitty_takers.filter((s, i) => s >= 0 && before.kitty_takers[i] !== s);
  return [...new Set(seats)];
}
