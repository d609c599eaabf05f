// State changes around seats: watching without a seat, who left the table, and why a watcher was sent away.
import { t } from "./i18n.js";

/** `watching`: we watch a table without a seat (no hand, no seat token). */
export function watchingTable(state, msg) {
  state.watching = msg.code;
  state.session = null;
  state.screen = "table";
  state.wantedCode = null;
  state.invite = null;
  state.comeback = null;
}

/** `joined`: whatever we watched or were invited to, we now sit. */
export function seatedNow(state) {
  if (state.watching) state.notice = null; // "you are watching" no longer holds
  state.watching = null;
  state.invite = null;
  state.comeback = null;
}

/** After `left`: a watcher sent away by the host or by a closing table is told why. */
export function leftReason(state, msg) {
  if (msg.reason === "watch_off") state.notice = { text: t("watch_off"), kind: "info" };
  else if (msg.reason === "closed") state.notice = { text: t("watch_closed"), kind: "info" };
}

/** A person stood up during a game and a computer player took over: tell everyone who and who plays on. */
export function leftNews(state, msg) {
  for (const e of msg.events || []) {
    if (e.type === "seated" && e.who === "bot" && e.left) {
      state.notice = { text: t("left_bot_plays", { name: e.left, bot: e.name }), kind: "info" };
    }
  }
}
