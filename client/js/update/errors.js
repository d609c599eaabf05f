// A refusal from the server (`error`): said where it was asked (the chat panel, the devices dialog, a report's
// dialog, a review), at the form field it is about, or under the table; a link to a full table watches it instead;
// a seat the server no longer knows is forgotten (an effect: main.js writes the storage).
import { words } from "../words.js";
import { momentKey } from "../moment.js";
import { toTable } from "./sending.js";
import { leftTable } from "./seating.js";
import { chatError } from "./chat.js";
import { moderationError } from "./moderation.js";

const DEVICE_ERRORS = ["unknown_device_code", "device_codes_limited", "rate_limited", "bad_message", "server_busy"];
const REVIEW_ERRORS = ["review_limited", "review_busy", "server_busy", "server_error"]; // refusals of a review

/** The server's refusals. */
export const MESSAGES = {
  error: (state, msg) => refused(state, msg),
};

/** An `error`: said where it was asked (chat, the devices dialog, a report, a review), else under the table. */
function refused(state, msg) {
  const forgotten = saidWhereAsked(state, msg) ? [] : applyError(state, msg);
  const effects = [...forgotten, ...watchWhenFull(state, msg)];
  if (msg.code === "bad_name") state.pending = null; // asked again once another name is chosen
  state.playNow.asked = null; // a refused press has no table to learn from
  return effects;
}

/** A refusal said where it was asked: in the chat panel, the devices dialog, a report's dialog, or a review. */
function saidWhereAsked(state, msg) {
  if (chatError(state, msg)) return true;
  if (state.overlay === "stats" && DEVICE_ERRORS.includes(msg.code)) { // said in the dialog, where it was asked
    state.device.error = { server: msg };
    return true;
  }
  if (moderationError(state, msg)) return true;
  if (state.review && state.review.status === "loading" && REVIEW_ERRORS.includes(msg.code)) {
    Object.assign(state.review, { status: "error", code: msg.code });
    return true;
  }
  if (state.review && state.review.status === "loading" && state.offline.playing && msg.code === "review_needs_server") {
    Object.assign(state.review, { status: "error", code: "offline" }); // a review needs the server
    return true;
  }
  return false;
}

/** A link to a table whose seats are all taken mid-hand: watch it until a computer player's seat can be taken. */
function watchWhenFull(state, msg) {
  if (msg.code === "table_full" && state.wantedCode && !state.table) {
    state.fullWords = state.notice ? state.notice.words : "";
    state.notice = { words: words("watch_full"), kind: "info", untilHandEnd: true }; // goes when the hand is over
    return toTable(state, { type: "watch", code: state.wantedCode });
  }
  const noWatching = msg.code.startsWith("no_watching_"); // a daily table, watching turned off, or full
  if (noWatching && state.fullWords !== null) {
    state.notice = { words: { parts: [state.fullWords, state.notice ? state.notice.words : null] }, kind: "error" };
    state.fullWords = null;
  } else if ((noWatching || msg.code === "unknown_table") && state.watching) {
    const notice = state.notice; // watching again after a reconnect was refused: back to the start page
    const effects = leftTable(state);
    state.notice = notice;
    return [...effects, { do: "address", follow: true }];
  }
  return [];
}

/**
 * A refusal said under the table, or at the form field it is about (the name, Play now's wait, the deal number). A
 * seat the server no longer knows is forgotten: returns those effects.
 */
function applyError(state, msg) {
  const effects = [];
  state.fieldError = null;
  state.inFlight = false;
  if (msg.reason) {
    state.notice = { words: { refusal: msg.reason }, kind: "refusal", moment: momentKey(state.table) };
    return effects;
  }
  if (msg.code === "bad_name") { // the name was refused at hello: said at the name field, to choose another
    state.fieldError = { field: "name", words: { server: msg } };
    state.notice = null;
    if (state.screen === "joining") state.screen = "start";
    return effects;
  }
  // a Play now press the server refused: back to the start page, the wait's refusal said at its field
  const playNow = state.screen === "joining" && !state.wantedCode && !state.offline.playing;
  if (playNow) state.screen = "start";
  if (playNow && msg.code === "bad_message" && msg.field === "wait") {
    state.fieldError = { field: "pn-wait", words: { server: msg } };
    state.notice = null;
    return effects;
  }
  if (msg.code.startsWith("claim_")) { // a claim refused: shown as the core's refusals are, until the game moves on
    state.notice = { words: { server: msg }, kind: "refusal", moment: momentKey(state.table) };
    return effects;
  }
  if (["unknown_table", "bad_token", "table_full", "seat_taken"].includes(msg.code) && state.screen !== "table") {
    if (state.wantedCode) effects.push({ do: "forget_session", code: state.wantedCode });
    state.screen = "start";
  }
  if ((msg.code === "bad_token" || msg.code === "unknown_table") && state.session) {
    effects.push({ do: "forget_session", code: state.session.code });
    state.session = null;
    state.screen = "start";
  }
  const said = msg.code === "unknown_table" ? words("error_no_table") : { server: msg };
  // A refused deal number is shown at its field in the new-table form.
  if (msg.code === "bad_option" && msg.field === "deal" && state.screen !== "table") {
    state.fieldError = { field: "deal", words: words("deal_refused", { message: said }) };
    state.notice = null;
    return effects;
  }
  state.notice = { words: said, kind: "error" };
  return effects;
}

