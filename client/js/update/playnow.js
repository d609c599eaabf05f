// Play now: a press that sits at an open Play now table with the same game (or opens one that starts by itself),
// Queue again after game over, and how far this device's clock is from the server's (for the countdown).
import { language } from "../i18n.js";
import { toTable } from "./sending.js";
import { freshStart } from "./lobby.js";

/** The person's Play now intents. */
export const INTENTS = {
  play_now: (state, intent, now) => {
    // Play now: sit at an open Play now table with the same game (whatever the language, unless the person asked
    // for players of their own language only), or open one that starts by itself (computer players fill the empty
    // seats after `wait` seconds). The choices are remembered for the next time.
    freshStart(state);
    state.wantedCode = null;
    state.screen = "joining";
    const saved = state.prefs.playNow || {};
    const { variant, wait, length } = intent;
    const langOnly = Boolean(intent.langOnly);
    state.prefs.playNow = { variant, wait, langOnly, lengths: { ...(saved.lengths || {}), [variant]: length } };
    return [{ do: "save_prefs" }, ...pressPlayNow(state, intent.options, wait, langOnly, now)];
  },
  queue_again: (state, intent) => {
    // After game over at a Play now table: leave it and press Play now again with the same game (this table's
    // options), the person's own wait and choice of language; the press goes once the server said `left`.
    const table = state.table;
    if (!table || !table.options) return [];
    state.playNow.again = { options: table.options, wait: intent.wait, langOnly: Boolean(intent.langOnly) };
    state.overlay = null;
    return toTable(state, { type: "leave" });
  },
};

/**
 * Send a Play now press (its table's `fill_at` then teaches the page how far its clock is from the server's). It
 * meets people of every language, unless the person asked for players of the page's language only (`langOnly`).
 */
export function pressPlayNow(state, options, wait, langOnly = false, now = Date.now()) {
  state.notice = null;
  state.screen = "joining";
  state.playNow.asked = { wait, at: now };
  const only = langOnly ? { lang_only: true } : {};
  return toTable(state, { type: "play_now", options, lang: language(), ...only, wait });
}

/**
 * How far this device's clock is from the server's (ms), learnt from the table a Play now press sat at, so that the
 * countdown to the computer players holds on a device whose clock is off: a table this press opened fills `wait`
 * seconds after the server took the press; a table it joined fills no later than that, and not before now.
 */
export function learnClock(state, received) {
  const asked = state.playNow.asked;
  const table = state.table;
  if (!asked || !table || !table.open || !table.open.play_now || typeof table.open.fill_at !== "number") return [];
  const { wait, at } = asked;
  state.playNow.asked = null;
  const fillAt = table.open.fill_at * 1000;
  const persons = table.seats.filter((s) => s.kind === "person").length;
  if (persons === 1) {
    state.clockSkew = fillAt - wait * 1000 - (at + received) / 2;
    return [];
  }
  const least = fillAt - wait * 1000 - received; // the server took the press before it answered
  const most = fillAt - at; // and the table had not filled when it did
  state.clockSkew = Math.min(Math.max(state.clockSkew || 0, least), most);
  return [];
}
