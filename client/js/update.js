// State changes: the one way in. A server message (from the socket or the offline table alike), an intent of the
// person, an HTTP answer, or a fact of the page (the connection, the offline engine) goes to the sub-update of its
// feature in update/, which changes the state and returns the effects main.js carries out (send, load and fetch,
// storage, address, sound...). Nothing else changes the state. Words are kept as data; render/ words them.
import { againstComputers } from "./offline/keeping.js";
import * as address from "./update/address.js";
import * as chat from "./update/chat.js";
import * as connection from "./update/connection.js";
import * as devices from "./update/devices.js";
import * as dialogs from "./update/dialogs.js";
import * as errors from "./update/errors.js";
import * as hosting from "./update/hosting.js";
import * as loads from "./update/loads.js";
import * as lobby from "./update/lobby.js";
import * as moderation from "./update/moderation.js";
import * as offline from "./update/offline.js";
import * as pace from "./update/pace.js";
import * as play from "./update/play.js";
import * as playnow from "./update/playnow.js";
import * as prefs from "./update/prefs.js";
import * as replay from "./update/replay.js";
import * as review from "./update/review.js";
import * as seating from "./update/seating.js";
import * as sending from "./update/sending.js";
import * as table from "./update/table.js";

export { momentKey } from "./moment.js";
export { reviewOf } from "./update/review.js";
export { screenAddress, applyOpened } from "./update/address.js";
export { trickTimes, TRICK_HOLD_MS, TRICK_SLIDE_MS } from "./update/table.js";
export { refusalWords } from "./update/play.js";
export { applyConnection } from "./update/connection.js";
export { applyOfflineStatus, applyKept, applyOfflineStats } from "./update/offline.js";
export { applySavedSeat } from "./update/seating.js";

const FEATURES = [address, chat, connection, devices, dialogs, errors, hosting, loads, lobby, moderation, offline, pace,
  play, playnow, prefs, replay, review, seating, sending, table];

/** One table of what a feature handles (`part`: MESSAGES, INTENTS, LOADS or ANSWERS): each type in one feature only. */
function handlers(part) {
  const all = Object.create(null);
  for (const feature of FEATURES) {
    for (const [type, change] of Object.entries(feature[part] || {})) {
      if (type in all) throw new Error(`${part} ${type} is handled twice`);
      all[type] = change;
    }
  }
  return all;
}

const MESSAGES = handlers("MESSAGES"); // a server message's type: what it changes
const INTENTS = handlers("INTENTS"); // an intent of the person (docs/glossary.md)
const LOADS = handlers("LOADS"); // what waits for an HTTP answer, and what is asked
const ANSWERS = handlers("ANSWERS"); // an HTTP answer

/**
 * Apply one message from the server, or from the offline table (`offline`: the worker's; none arrives once the
 * person has left that game for the start page). Unknown types are an error, not ignored. Returns the effects.
 */
export function applyMessage(state, msg, { offline: fromOffline = false, now = Date.now() } = {}) {
  if (fromOffline && !state.offline.playing) return []; // a computer move of a game the person has left
  const nobody = connection.greetedAsNobody(state, msg);
  if (nobody) return nobody;
  const change = MESSAGES[msg.type];
  if (!change) throw new Error(`unknown message type from server: ${msg.type}`);
  const before = state.table && state.table.view;
  const effects = [...change(state, msg, now)];
  // the address bar says where we are: /t/CODE at a table (also after "Back to your table"), / after leaving
  effects.push({ do: "address", follow: true });
  if ((msg.type === "table" || msg.type === "update") && state.table) {
    // the sounds of what happened, the host's pace for the computer players, a card played for the person
    effects.push({ do: "sounds", before }, ...pace.checkPace(state), ...pace.autoPlay(state));
    // a game against computer players online: the person may want one with no network too
    if (!fromOffline && againstComputers(state.table)) effects.push(...offline.keepEngine(state));
  }
  if (msg.type === "error" && state.fieldError) {
    effects.push({ do: "focus", field: state.fieldError.field });
    return effects;
  }
  // Back on the start screen (a table that closed, a refused code): today's board belongs there.
  if (state.screen === "start" && !state.replay && !state.daily) effects.push({ do: "load", what: "daily" });
  return effects;
}

/**
 * Apply one intent of the person (a tap, a form, a key; see docs/glossary.md), or one the page made for itself a
 * moment later (`later`): the state it changes and the effects main.js carries out (the message it sends among them).
 * Unknown intents are an error.
 */
export function applyIntent(state, intent, now = Date.now()) {
  const change = INTENTS[intent.type];
  if (!change) throw new Error(`unknown intent: ${intent.type}`);
  return change(state, intent, now);
}

/** A load an effect asked for (`{what, ...}`): what waits for its answer, and the `fetch` that asks the server. */
export function applyLoad(state, load, now = Date.now()) {
  const change = LOADS[load.what];
  if (!change) throw new Error(`unknown load: ${load.what}`);
  return change(state, load, now);
}

/** An HTTP answer, as a message: `{ask, status, ok, data}`, or `{ask, failed}` when the server was not reached. */
export function applyAnswer(state, answer, now = Date.now()) {
  const change = ANSWERS[answer.ask.what];
  if (!change) throw new Error(`unknown answer: ${answer.ask.what}`);
  return change(state, answer, now);
}
