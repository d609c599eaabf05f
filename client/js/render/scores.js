// The score table ("Puntentabel"): per hand and running totals, moons marked, winners; team totals in a
// team game, chips and the pot in a chips game, cards that counted for nobody, who lost, and the toppers at game end.
import { t, joinNames } from "../i18n.js";
import { esc } from "../html.js";
import { sortHand, shortName } from "../cards.js";
import { seatName, plainName, seatsFromMe, teamName, seatCount, chairOf, takes, moonWord } from "./seats.js";
import { gameButtons, readyWaiting, waitedBy } from "./table.js";
import { takeButtons } from "./watch.js";
import { reviewHtml, reviewErrorText } from "./review.js";
import { reviewOf } from "../update.js";
import { winnersText, nextStepsHtml, ratingMovesHtml } from "./outcome.js";
import { ratingMoveText } from "./playnow.js";
import { say } from "./say.js";
import { pointCardsHtml, kittyHeldHtml } from "./handcards.js";

const signed = (n) => `${n > 0 ? "+" : ""}${n}`;
const has = (x) => x !== null && x !== undefined;

/** The column head of a seat: wind, name, and in a team game its team's short mark. */
function headCell(table, v, seat) {
  const team = v.teams ? ` <span class="team-mark team-${v.teams[seat]}">${esc(t(v.teams[seat] === v.teams[0] ? "team_ns_short" : "team_ew_short"))}</span>` : "";
  return `<th scope="col"><span class="wind">${esc(chairOf(table, seat))}</span>${esc(plainName(table, seat))}${team}</th>`;
}

/** Whether `seat` plays on the side of `marked` (the seat itself, or its partner in a team game). */
function sameSide(v, marked, seat) {
  if (!has(marked)) return false;
  return v.teams ? v.teams[marked] === v.teams[seat] : marked === seat;
}

/** One seat's cell of a hand: points (or hearts and chips won), a moon or sun mark, and the running total. */
function handCell(v, h, seat) {
  const mark = t(`${moonWord(v.rules)}_mark`);
  const moon = sameSide(v, h.moon, seat) ? ` <span class="moon" title="${esc(mark)}">☾ ${esc(mark)}</span>` : "";
  const sunMark = sameSide(v, h.sun, seat) ? ` <span class="sun">☀ ${esc(t("sun_mark"))}</span>` : "";
  if (v.chips && h.chips) {
    const won = h.chips_won[seat] ? ` <span class="chips-won">${esc(signed(h.chips_won[seat]))}</span>` : "";
    return `<td><span class="hand-score">${esc(t("hearts_taken", { n: h.points[seat] }))}${won}</span><span class="running">${h.chips[seat]}</span></td>`;
  }
  return `<td><span class="hand-score">${signed(h.scores[seat])}</span>${moon}${sunMark}<span class="running">${h.totals[seat]}</span></td>`;
}

/**
 * The bottom row: totals (chips in a chips game), winners highlighted, losers tinted once the game is over; where
 * losing is the game's outcome (the bar form: whoever goes over the end loses) they are marked in words too.
 */
function totalsRow(v, order) {
  const cells = order.map((s) => {
    const lost = v.game_over && (v.losers || []).includes(s);
    const mark = lost && v.scoring && v.scoring.end_over ? ` <span class="loser-mark">${esc(t("loser_mark"))}</span>` : "";
    const value = v.chips ? v.chips[s] : v.totals[s];
    return `<td class="grand${v.winners.includes(s) ? " winner" : ""}${lost ? " loser" : ""}" data-seat="${s}">${value}${mark}</td>`;
  }).join("");
  return `<tr><th scope="row">${esc(t(v.chips ? "chips" : "totals_row"))}</th>${cells}</tr>`;
}

/** A team game: each team's total (partners score alike), the winning team marked. */
function teamTotals(v) {
  if (!v.teams) return "";
  const teams = [...new Set(v.teams)];
  const items = teams.map((team) => {
    const seat = v.teams.indexOf(team);
    const won = v.game_over && v.winners.includes(seat);
    return `<li class="team team-${team}${won ? " winner" : ""}" data-team="${team}"><span class="team-name">${esc(teamName(v, team))}</span> ` +
      `<strong class="team-total">${v.totals[seat]}</strong></li>`;
  }).join("");
  return `<ul class="team-totals" aria-label="${esc(t("team_totals"))}">${items}</ul>`;
}

/** A chips game: the pot that waits for the next hand. */
function potLine(v) {
  return v.chips ? `<p class="pot-line" data-pot="${v.pot}">${esc(t("pot_now", { n: v.pot }))}</p>` : "";
}

/**
 * The toppers of the game, each with what it means in this game's numbers: "Nil game: Sanne won with 0 points while
 * Anna reached 25." (a topper goes to a winner while others reached the end score; see the rules' Toppers).
 */
function toppersHtml(table, v) {
  if (!v.toppers || !v.toppers.length) return "";
  const end = v.scoring ? v.scoring.end_score : null;
  const over = v.totals.map((total, seat) => [total, seat]).filter(([total]) => end !== null && total >= end).map(([, seat]) => seat);
  const items = v.toppers.map((tp) => {
    const name = seatName(table, tp.seat);
    const about = tp.kind === "absolute_topper"
      ? t("topper_about_absolute", { name })
      : t("topper_about", { name, total: v.totals[tp.seat], end, n: over.length, names: joinNames(over.map((s) => seatName(table, s))) });
    return `<li data-topper="${esc(tp.kind)}" data-seat="${tp.seat}"><strong>${esc(t(`topper_${tp.kind}`))}</strong>: ${esc(about)}</li>`;
  }).join("");
  return `<div class="toppers"><h3>${esc(t("toppers_title"))}</h3><ul>${items}</ul></div>`;
}

/** Under the last hand: who shot the moon, or whose side took every trick (a team by its name). */
function lastHandNote(table, v) {
  const last = v.history[v.history.length - 1];
  if (!last) return "";
  const side = (seat) => (v.teams ? teamName(v, v.teams[seat]) : seatName(table, seat));
  if (has(last.sun)) return `<p class="moon-note sun-note">☀ ${esc(t("sun_by", { name: side(last.sun) }))}</p>`;
  if (has(last.moon)) return `<p class="moon-note">☾ ${esc(t(`${moonWord(v.rules)}_by`, { name: side(last.moon) }))}</p>`;
  return "";
}

/** Cards of tricks still undecided when a hand ended count for nobody (Cancellation Hearts): named per hand. */
function voidedLines(v) {
  const lines = v.history.map((h, i) => [i, h.voided || []]).filter(([, cards]) => cards.length)
    .map(([i, cards]) => `<li data-hand="${i}" data-voided="${esc(cards.join(" "))}">` +
      `${esc(t("voided_line", { n: i + 1, cards: sortHand(cards).map(shortName).join(" ") }))}</li>`);
  return lines.length ? `<ul class="voided-lines">${lines.join("")}</ul>` : "";
}

/**
 * News the score table repeats, since it covers the notice under the table: a watcher who just took a computer
 * player's seat (whose score and cards are theirs now), or who claimed the rest of the hand.
 */
function tookNote(state) {
  const n = state.notice;
  return n && n.inScores ? `<p class="notice info took-note" role="status" data-score-note>${esc(say(n.words, state.table))}</p>` : "";
}

/**
 * Game over: who won, how the ratings moved (a rated game), the toppers, then the one main step with the host's other
 * choices folded under it, and the smaller buttons (Queue again, the replay, its share link); the review follows.
 */
function gameOverFooter(state) {
  const table = state.table;
  const v = table.view;
  const more = gameButtons(state);
  return `<p class="winners" role="status"><strong>${esc(t("game_over"))}</strong> ${esc(winnersText(table, v))}</p>` + tookNote(state) +
    ratingMoveHtml(table) + ratingMovesHtml(table) + toppersHtml(table, v) + nextStepsHtml(state, "dialog") +
    (more.length ? `<div class="dialog-actions more-actions">${more.join("")}</div>` : "");
}

/** At game over of a rated game, once its ratings are stored: how your own rating moved. */
function ratingMoveHtml(table) {
  const m = table.you !== null && Array.isArray(table.rating_moves) ? table.rating_moves[table.you] : null;
  const text = ratingMoveText(m);
  return text ? `<p class="rating-move" role="status" data-rating-move="${m.after - m.before}">${esc(text)}</p>` : "";
}

/** Between hands (and at game over): ask for your review of the hand just played, and show it when it comes. */
function reviewPanel(state) {
  const table = state.table;
  const v = table.view;
  if (table.you === null || !v.history.length || !(v.phase === "hand_over" || v.game_over)) return "";
  if (!takes(state.table, "review")) { // the review is the server's hard player looking back: not in an offline game
    return `<section class="hand-review" data-review-offline><h3>${esc(t("review_title"))}</h3><p class="muted">${esc(t("offline_review"))}</p></section>`;
  }
  const hand = v.history[v.history.length - 1].hand_no;
  const review = reviewOf(state, hand); // of this game only: an earlier game at this table may have had a hand of that number
  let body;
  if (review && review.status === "ok") body = reviewHtml(review.data);
  else if (review && review.status === "loading") body = `<p class="notice info" role="status">${esc(t("review_loading"))}</p>`;
  else {
    const failed = review ? `<p class="notice error" role="alert">${esc(reviewErrorText(review.code))}</p>` : "";
    body = `${failed}<button type="button" data-action="review_hand" data-hand="${hand}">${esc(t("review_ask"))}</button>`;
  }
  return `<section class="hand-review" aria-labelledby="hand-review-title"><h3 id="hand-review-title">${esc(t("review_title"))}</h3>${body}</section>`;
}

function handOverFooter(state) {
  const table = state.table;
  const v = table.view;
  const waited = waitedBy(table); // the people who pressed Next hand and wait for you
  const next = table.you === null || (table.ready && table.ready.includes(table.you)) // a watcher is never asked
    ? `<p class="muted" role="status">${esc(readyWaiting(table))}</p>`
    : `<button type="button" class="primary" data-action="ready">${esc(t("next_hand"))}</button>` +
      (waited ? `<p class="waited-by" role="status">${esc(waited)}</p>` : "");
  const last = v.tricks.length
    ? `<button type="button" data-action="open" data-overlay="last_trick">${esc(t("last_trick"))}</button>` : "";
  const take = table.you === null ? takeButtons(table).join("") : ""; // a watcher may sit down now
  return `${tookNote(state)}<div class="dialog-actions">${next}${take}${last}</div>`;
}

export function scoresHtml(state) {
  const table = state.table;
  const v = table && table.view;
  if (!v) return `<p>${esc(t("no_hands_yet"))}</p>`;
  const order = seatsFromMe(table.you, seatCount(table));
  const head = order.map((s) => headCell(table, v, s)).join("");
  const rows = v.history.map((h, i) =>
    `<tr${has(h.moon) ? ' class="moon-row"' : ""}><th scope="row">${i + 1}</th>${order.map((s) => handCell(v, h, s)).join("")}</tr>`).join("");
  const body = v.history.length
    ? `${teamTotals(v)}<div class="table-wrap"><table class="scores${v.chips ? " chips-game" : ""}${order.length !== 4 ? " wrap-names" : ""}" data-style="--cols:${order.length}"><thead><tr><th scope="col">${esc(t("hand_col"))}</th>${head}</tr></thead>` +
      `<tbody>${rows}</tbody><tfoot>${totalsRow(v, order)}</tfoot></table>${pointCardsHtml(table, v, order, order.length !== 4)}</div>` +
      `${kittyHeldHtml(table, v)}${potLine(v)}${voidedLines(v)}`
    : `<p>${esc(t("no_hands_yet"))}</p>`;
  const moonNote = v.phase !== "playing" ? lastHandNote(table, v) : "";
  let footer = "";
  if (v.game_over) footer = gameOverFooter(state);
  else if (v.phase === "hand_over") footer = handOverFooter(state);
  return `${moonNote}${body}${footer}${reviewPanel(state)}`;
}
