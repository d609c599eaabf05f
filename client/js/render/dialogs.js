// Dialogs of the table: the last trick, the start-over confirmation, and the list of my finished games.
import { t } from "../i18n.js";
import { esc } from "../html.js";
import { playedFace, cardName } from "../cards.js";
import { seatName, takerText, variantName, chairOf, chairName } from "./seats.js";
import { variantLine } from "./invite.js";
import { momentText } from "../format.js";

/** The most recent complete trick of this hand: who played what, and who took it. Any tap closes it. */
export function lastTrickHtml(state) {
  const table = state.table;
  const v = table && table.view;
  const trick = v && v.tricks.length ? v.tricks[v.tricks.length - 1] : null;
  if (!trick) return `<p>${esc(t("last_trick_none"))}</p>`;
  const cards = trick.cards.map(({ seat, card, cancelled }) => {
    const won = seat === trick.winner;
    const label = t("card_played", { name: seatName(table, seat), card: cardName(card) });
    return `<figure class="lt-card${won ? " won" : ""}" data-seat="${seat}">${playedFace(card, { cancelled, label })}` +
      `<figcaption><span class="wind">${esc(chairOf(table, seat))}</span> <span class="name">${esc(seatName(table, seat))}</span>` +
      `${seat === trick.leader ? ` <span class="badge">${esc(t("last_trick_led"))}</span>` : ""}</figcaption></figure>`;
  }).join("");
  return `<div class="last-trick" data-action="close" data-trick="${v.tricks.length}">` +
    `<p class="lt-no">${esc(t("last_trick_no", { n: v.tricks.length }))}</p>` +
    `<div class="lt-cards">${cards}</div>` +
    `<p class="lt-taker" data-winner="${trick.winner}"><strong>${esc(trickOutcome(table, trick))}</strong></p>` +
    `<p class="muted">${esc(t("last_trick_close"))}</p></div>`;
}

/** Who took a trick, or that no one did (every card of the suit led cancelled: its cards wait for the next one). */
function trickOutcome(table, trick) {
  return trick.undecided || trick.winner === null ? t("trick_undecided") : takerText(table, trick.winner);
}

/** Asked before the host starts the game over: the same deals, from the first hand. */
export function restartHtml() {
  return `<p class="confirm-question">${esc(t("restart_question"))}</p>` +
    `<div class="confirm-buttons"><button type="button" class="primary" data-action="restart_confirm">${esc(t("restart_confirm"))}</button>` +
    `<button type="button" data-action="close">${esc(t("cancel"))}</button></div>`;
}

function when(seconds) {
  if (!seconds) return "";
  return momentText(seconds * 1000);
}

/** A seat's result in the games list: its final chips in a chips game, else its final total. */
function seatResult(s) {
  return s.chips !== undefined ? t("chips_count", { n: s.chips }) : s.final_total;
}

/** My finished games, most recent first; each opens the replay viewer. */
export function gamesHtml(state) {
  const games = state.games;
  if (games === "error") return `<p>${esc(t("games_error"))}</p>`;
  if (!games || games === "loading") return `<p>${esc(t("loading"))}</p>`;
  if (!games.length) return `<p class="muted">${esc(t("games_none"))}</p>`;
  const items = games.map((g) => {
    const seats = [...(g.seats || [])].sort((a, b) => a.seat - b.seat).map((s) =>
      `<span class="g-seat${s.seat === g.you ? " you" : ""}${s.won ? " won" : ""}">${esc(s.name || chairName((g.seats || []).length || 4, s.seat))} ${esc(seatResult(s))}${s.won ? " ★" : ""}</span>`).join("");
    const facts = [when(g.finished_at), g.options ? variantLine(g.options) : variantName(g.variant), t("games_hands", { n: g.hands })];
    if (g.deal !== null && g.deal !== undefined) facts.push(t("deal_no", { n: g.deal }));
    if (g.daily) facts.push(t("games_daily"));
    return `<li class="game" data-game="${esc(g.id)}"><div class="g-facts">${esc(facts.filter(Boolean).join(" · "))}</div>` +
      `<div class="g-seats">${seats}</div>` +
      `<button type="button" data-action="open_game" data-id="${esc(g.id)}" data-you="${esc(g.you ?? "")}">${esc(t("games_watch"))}</button></li>`;
  }).join("");
  return `<ul class="games">${items}</ul>`;
}
