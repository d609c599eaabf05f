// State changes: what each server message and each local choice does to the state.
import { t, language } from "./i18n.js";
import { shortName } from "./cards.js";
import { seatName } from "./render/seats.js";
import { foldUpdate } from "./fold.js";
import { saveSession, forgetSession, savePlayerToken } from "./session.js";
import { watchingTable, seatedNow, leftReason, leftNews, tookOver, joinedSeat, arrived } from "./seating.js";
import { passForm, toggleSlot } from "./passing.js";
import { applyChat, chatError, resetChat } from "./chat.js";
import { animFactor } from "./prefs.js";
import { canModerate } from "./render/moderation.js";

export const TRICK_HOLD_MS = 900;
export const TRICK_SLIDE_MS = 450;
const DEVICE_ERRORS = ["unknown_device_code", "device_codes_limited", "rate_limited", "bad_message", "server_busy"];
const REVIEW_ERRORS = ["review_limited", "review_busy", "server_busy", "server_error"]; // refusals of a review
const SAID_KEEP = 24; // news lines kept for screen readers (more than one redraw can take, when moves come fast)

/** How long a finished trick stays, then slides to its taker, at the player's animation speed (ms). */
export function trickTimes(prefs) {
  const factor = animFactor(prefs);
  return { hold: TRICK_HOLD_MS * (factor || 0.5), slide: TRICK_SLIDE_MS * factor };
}

/** Apply one message from the server. Unknown types are an error, not ignored. */
export function applyMessage(state, msg, now = Date.now()) {
  switch (msg.type) {
    case "welcome":
      state.restarting = false; // the server is back
      state.playerToken = msg.player_token;
      state.myName = msg.name; // a watcher's own chat lines carry this name
      savePlayerToken(msg.player_token);
      return;
    case "joined": {
      const took = tookOver(state, msg); // a watcher takes a computer player's seat mid-game: said once seated
      state.session = joinedSeat(state, msg);
      if (!msg.offline) saveSession(state.session); // the offline table is kept in IndexedDB by its worker
      state.screen = "table";
      state.wantedCode = null;
      state.dealLink = ""; // the link's deal was played (or another table chosen)
      seatedNow(state);
      if (took) state.notice = { ...took, moment: momentKey(state.table) };
      return;
    }
    case "watching":
      watchingTable(state, msg);
      return;
    case "table":
      applyTable(state, msg, now);
      return;
    case "update":
      applyTable(state, foldUpdate(state.table, msg), now);
      return;
    case "hint":
      state.hint = msg.cards || [];
      state.hintKey = momentKey(state.table);
      state.notice = { text: hintText(state), kind: "info", moment: state.hintKey };
      return;
    case "review":
      if (reviewOf(state, msg.hand_no)) Object.assign(state.review, { status: "ok", data: msg.review });
      return;
    case "left":
      leftTable(state);
      leftReason(state, msg);
      return;
    case "pong":
      return;
    case "reported":
      reported(state, msg);
      return;
    case "device_code":
      state.device.code = msg;
      return;
    case "device_joined":
      state.playerToken = msg.player_token; // this device now holds that player, with a token of its own
      savePlayerToken(msg.player_token);
      state.myName = msg.name;
      state.device.joined = msg.name;
      state.device.linked = null;
      state.notice = { text: t("device_joined", { name: msg.name }), kind: "info" };
      return;
    case "devices":
      state.device.list = msg.devices;
      return;
    case "my_tables": {
      // the tables where this player sits (also on another device): "Back to your table" takes the seat by player
      const tables = msg.tables || [];
      const table = tables.find((x) => x.status === "playing") || tables[0];
      if (table && !state.session) state.comeback = { code: table.code, seat: table.seat, seats: table.seats, byPlayer: true };
      return;
    }
    case "chat":
    case "chat_history":
      applyChat(state, msg);
      return;
    case "error":
      if (chatError(state, msg)) return;
      if (state.overlay === "stats" && DEVICE_ERRORS.includes(msg.code)) { // said in the dialog, where it was asked
        state.device.error = language() === "nl" ? msg.nl : msg.message;
        return;
      }
      if (moderationError(state, msg)) return;
      if (state.review && state.review.status === "loading" && REVIEW_ERRORS.includes(msg.code)) {
        Object.assign(state.review, { status: "error", code: msg.code });
        return;
      }
      if (state.review && state.review.status === "loading" && state.offline.playing && msg.code === "not_now") {
        Object.assign(state.review, { status: "error", code: "offline" }); // a review needs the server
        return;
      }
      applyError(state, msg);
      return;
    default:
      throw new Error(`unknown message type from server: ${msg.type}`);
  }
}

/** Who must do what right now; a hint or a selection belongs to one such moment. */
export function momentKey(table) {
  const v = table && table.view;
  if (!v) return null;
  return `${v.hand_no}:${v.phase}:${v.tricks.length}:${v.trick ? v.trick.cards.length : 0}`;
}

/** Your review of hand `hand` of the game on screen (not of an earlier game at this table, nor of another table), or null. */
export function reviewOf(state, hand) {
  const r = state.review;
  const code = state.table ? state.table.code : null;
  return r && r.game === state.gameNo && r.table === code && r.hand_no === hand ? r : null;
}

/** Ask for the review of hand `hand` of the game on screen: the state it waits in. */
export function askReview(state, hand) {
  const code = state.table ? state.table.code : null;
  state.review = { game: state.gameNo, table: code, hand_no: hand, status: "loading", data: null, code: null };
}

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
  if (["scores", "last_trick", "restart"].includes(state.overlay)) state.overlay = null;
}

function applyTable(state, msg, now) {
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
  if (arrived(state, msg) && !state.offline.playing) saveSession(state.session); // sat down after game over?
  leftNews(state, msg, prev);
  state.seq = Math.max(state.seq, msg.seq || 0);
  state.deadlineAt = msg.deadline == null ? null : now + msg.deadline * 1000;
  state.screen = "table";
  const v = msg.view;
  if (!v) {
    state.said = []; // no game (the waiting room): the next one starts its news afresh
    return;
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
  const claim = (msg.events || []).find(isClaim);
  // who claimed: said under the table and in the score table, until the next deal
  if (claim) state.notice = { text: claimText(state, claim.seat), kind: "info", hand: v.hand_no, inScores: true };
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
}

/** The host started the game over: forget everything that belonged to the abandoned game. */
function startedOver(state) {
  state.scoresSeen = 0;
  state.readySent = -1;
  if (["scores", "last_trick", "restart"].includes(state.overlay)) state.overlay = null;
  state.notice = { text: t("game_restarted"), kind: "info" };
}

function applyError(state, msg) {
  const lang = language();
  state.fieldError = null;
  state.inFlight = false;
  if (msg.reason) {
    const text = `${t("refusal_prefix")} ${msg.reason[lang] || msg.reason.en}`;
    state.notice = { text, kind: "refusal", moment: momentKey(state.table) };
    return;
  }
  if (msg.code === "bad_name") { // the name was refused at hello: said at the name field, to choose another
    state.fieldError = { field: "name", text: (lang === "nl" ? msg.nl : msg.message) || msg.code };
    state.notice = null;
    if (state.screen === "joining") state.screen = "start";
    return;
  }
  // a Play now press the server refused: back to the start page, the wait's refusal said at its field
  const playNow = state.screen === "joining" && !state.wantedCode && !state.offline.playing;
  if (playNow) state.screen = "start";
  if (playNow && msg.code === "bad_message" && msg.field === "wait") {
    state.fieldError = { field: "pn-wait", text: (lang === "nl" ? msg.nl : msg.message) || msg.code };
    state.notice = null;
    return;
  }
  if (msg.code === "claim_refused") { // shown as the core's refusals are, until the game moves on
    state.notice = { text: (lang === "nl" ? msg.nl : msg.message) || msg.code, kind: "refusal", moment: momentKey(state.table) };
    return;
  }
  if (["unknown_table", "bad_token", "table_full", "seat_taken"].includes(msg.code) && state.screen !== "table") {
    if (state.wantedCode) forgetSession(state.wantedCode);
    state.screen = "start";
  }
  if ((msg.code === "bad_token" || msg.code === "unknown_table") && state.session) {
    forgetSession(state.session.code);
    state.session = null;
    state.screen = "start";
  }
  const text = msg.code === "unknown_table" ? t("error_no_table") : (lang === "nl" ? msg.nl : msg.message) || msg.code;
  // A refused deal number is shown at its field in the new-table form.
  if (msg.code === "bad_option" && msg.field === "deal" && state.screen !== "table") {
    state.fieldError = { field: "deal", text: t("deal_refused", { message: text }) };
    state.notice = null;
    return;
  }
  state.notice = { text, kind: "error" };
}

const MODERATION_ERRORS = ["not_now", "not_host", "reports_limited", "bad_message", "server_busy", "rate_limited"];

/** A refusal of a report or a removal, said in its dialog (the reason stays typed, to send again or change). */
function moderationError(state, msg) {
  const m = state.moderation;
  if (state.overlay !== "seat" || !m || !m.kind || !m.sending || !MODERATION_ERRORS.includes(msg.code)) return false;
  m.sending = false;
  m.error = (language() === "nl" ? msg.nl : msg.message) || msg.code;
  return true;
}

/** `reported`: the report was kept; the dialog closes and a line thanks the person. */
function reported(state, msg) {
  const table = state.table;
  const name = table && table.seats[msg.seat] ? seatName(table, msg.seat) : "";
  if (state.overlay === "seat") state.overlay = null;
  state.moderation = null;
  state.notice = { text: t("reported_notice", { name }), kind: "info" };
}

export function leftTable(state) {
  if (state.session) forgetSession(state.session.code);
  state.session = null;
  state.watching = null;
  state.table = null;
  state.seq = 0;
  state.screen = "start";
  state.overlay = null;
  state.notice = null;
  state.scoresSeen = 0;
  state.selected = [];
  state.hint = [];
  state.review = null;
  state.gameNo += 1;
  state.moderation = null;
  resetChat(state);
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

/** "Ellen claims the rest of the tricks" (or "You claim..."). */
export function claimText(state, seat) {
  const table = state.table;
  return seat === table.you ? t("claim_you") : t("claim_other", { name: seatName(table, seat) });
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

/** The hint's note; for a pass whose cards go several ways, the order the hinted cards go in ("1st 5♣, 2nd …"). */
function hintText(state) {
  const view = state.table && state.table.view;
  if (passForm(view) !== "several" || state.hint.length !== view.pass_count) return t("hint_play");
  const ordinals = t("ordinals");
  const cards = state.hint.map((card, i) => `${ordinals[i]} ${shortName(card)}`).join(", ");
  return t("hint_pass_order", { cards });
}

/**
 * Choose or unchoose a card to pass (`card`: the key of its copy, so that both copies of a card can go); never more
 * than the pass count. When each card goes its own way the cards keep their places; returns false when every place
 * is taken (nothing changed).
 */
export function toggleSelected(state, card) {
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

/** The refusal reason the server sent for a dimmed card, in the current language. */
export function refusalText(view, card) {
  // a card that may not be passed; a reason for this card (on your turn); or the one reason for the whole hand
  const passing = view.phase === "passing" && view.pass_refusals ? view.pass_refusals[card] : null;
  const reason = passing || (view.refusals && view.refusals[card]) || (view.hand.includes(card) ? view.refusal : null);
  if (!reason) return null;
  return `${t("refusal_prefix")} ${reason[language()] || reason.en}`;
}
