// Watching without a seat: the table as every seat sees it in common, South where a hand would be, no cards.
import { t } from "../i18n.js";
import { esc } from "../html.js";
import { seatName } from "./seats.js";
import { say } from "./say.js";

/** True while this page watches the table rather than sitting at it. */
export function isWatching(table) {
  return Boolean(table) && table.you === null;
}

/** A computer player's seat can change hands before the start, between hands and after game over. */
export function seatsOpen(table) {
  const v = table.view;
  return table.status !== "playing" || !v || v.phase === "hand_over";
}

/** The buttons that take a computer player's seat: only when it can change hands (mid-hand a line says when). */
export function takeButtons(table) {
  if (!seatsOpen(table)) return [];
  return table.seats.filter((s) => s.kind === "computer").map((s) =>
    `<button type="button" data-action="sit" data-seat="${s.seat}">${esc(t("watch_take", { name: seatName(table, s.seat) }))}</button>`);
}

export function watchStatusHtml(state) {
  const table = state.table;
  const v = table.view;
  const lines = [];
  if (v.phase === "playing" && v.turn !== null) lines.push(t("turn_of", { name: seatName(table, v.turn) }));
  if (v.game_over) lines.push(t("game_over"));
  const take = takeButtons(table);
  if (!seatsOpen(table) && table.seats.some((s) => s.kind === "computer")) lines.push(t("watch_later"));
  const notice = state.notice
    ? `<p class="notice ${state.notice.kind}" role="alert" data-notice="${state.notice.kind}">${esc(say(state.notice.words, state.table))}</p>` : "";
  // leaving is the top bar's button, as for a seated player
  const buttons = [...take, `<button type="button" data-action="open" data-overlay="scores">${esc(t("score_button"))}</button>`];
  return `<p class="turn-line" role="status">${lines.map((l) => `<span>${esc(l)}</span>`).join("")}</p>${notice}` +
    `<div class="buttons">${buttons.join("")}</div>`;
}

/** "1 watching" / "3 watching" (Dutch: "1 kijkt mee" / "3 kijken mee"). */
export function watchCount(n) {
  return n === 1 ? t("watch_count_one") : t("watch_count", { n });
}

/** In place of "you": what watching means. */
export function watchMeHtml(table) {
  const count = table.watch ? table.watch.count : 1;
  return `<div class="player self watching" data-watching="${esc(table.code)}">` +
    `<strong>${esc(t("watch_title"))}</strong> <span class="muted">${esc(t("watch_note"))}</span>` +
    ` <span class="badge">${esc(watchCount(count))}</span></div>`;
}
