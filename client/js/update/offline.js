// The offline game: the engine's status (starting, its progress, ready, failed, the kept game damaged or finished),
// whether its files are kept on this device, a game against computer players started or continued in this browser,
// and this device's finished offline games.
import { words } from "../words.js";
import { freshStart } from "./lobby.js";
import { leftTable } from "./seating.js";

/** The person's offline intents. */
export const INTENTS = {
  create_offline: (state, intent) => { // a game against computer players in this browser, with or without a network
    freshStart(state);
    state.offline.playing = true;
    state.screen = "joining";
    return [{ do: "offline_create", msg: { type: "create", options: intent.options, computer_level: intent.level } }];
  },
  continue_offline: (state, intent) => continueOffline(state, intent.game),
  keep_engine: (state) => keepEngine(state), // the app was installed: it plays with no network too
};

/**
 * The offline engine's status: starting, progress (its step), ready (its facts), failed, the kept game damaged or
 * finished; or whether its files are kept on this device ("kept": facts.kept, "keeping").
 */
export function applyOfflineStatus(state, status, facts) {
  if (status === "kept" || status === "keeping") {
    state.offline.kept = status === "keeping" ? "keeping" : facts.kept;
    return [];
  }
  if (status === "progress") {
    state.offline.progress = { step: facts.step, loaded: facts.loaded, total: facts.total };
    return [];
  }
  if (status === "damaged") {
    const effects = leftTable(state);
    state.offline.playing = false;
    state.offline.saved = null;
    state.notice = { words: words("offline_damaged"), kind: "error" };
    return [...effects, { do: "offline_drop", tableId: facts.table_id }, { do: "replace_address", path: "/", from: "/offline" }];
  }
  if (status === "finished") {
    state.offline.saved = null;
    return [];
  }
  state.offline.status = status;
  if (status !== "starting") state.offline.progress = null;
  if (status === "ready") state.offline.facts = facts;
  // Play offline (or Continue) started it: its files came through the service worker, which keeps them
  if (status === "ready" && state.offline.playing) return keepEngine(state);
  if (status === "failed" && state.offline.playing) { // said only to someone waiting for an offline game
    state.offline.playing = false;
    state.screen = "start";
    state.notice = { words: words("offline_failed"), kind: "error" };
  }
  return [];
}

/** Ask once that this device keep the offline game's engine (unless it is kept already). */
export function keepEngine(state) {
  if (state.offline.asked || state.offline.kept === true) return [];
  state.offline.asked = true;
  return [{ do: "keep_engine" }];
}

/** The offline game kept in this browser (or none) was looked up: the start page offers to continue it. */
export function applyKept(state, game) {
  state.offline.saved = game && !game.finished ? game : null;
  return [];
}

/** This device's finished offline games' figures: "loading", the figures, "error", or null (none kept). */
export function applyOfflineStats(state, stats) {
  state.offlineStats = stats;
  return [];
}

/** Sit down again at the kept offline game (`game`, or the one looked up first), folded back from its log. */
function continueOffline(state, game) {
  const kept = game || state.offline.saved;
  if (!kept && game === undefined) return [{ do: "offline_find", then: "continue_offline" }];
  if (!kept) {
    state.notice = { words: words("offline_none"), kind: "info" };
    return [{ do: "replace_address", path: "/", from: "/offline" }];
  }
  state.notice = null;
  state.offline.playing = true;
  state.screen = "joining";
  return [{ do: "offline_restore", game: kept }];
}
