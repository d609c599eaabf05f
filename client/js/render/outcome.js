// After game over: who won, how the ratings moved in a rated game, and what can happen next at this table: one main
// step (play again with the same people), the host's other choices folded under it, each with a line that says what
// it does (shown in the score table and, once that is closed, under the table).
import { t, joinNames } from "../i18n.js";
import { esc } from "../html.js";
import { seatName, plainName, teamName, takes, seatsFromMe, seatCount } from "./seats.js";

/** Who won: a team, one player, several; in the bar form also who went over the end and lost. */
export function winnersText(table, v) {
  if (v.teams) return t("team_wins", { team: teamName(v, v.teams[v.winners[0]]) });
  const names = v.winners.map((s) => seatName(table, s));
  const text = names.length > 1 ? t("winner_many", { names: joinNames(names) }) : t("winner_one", { names: names[0] });
  const losers = (v.losers || []).map((s) => seatName(table, s));
  if (!v.scoring || !v.scoring.end_over || !losers.length) return text;
  return `${text} ${t(losers.length > 1 ? "loser_over_many" : "loser_over_one", { names: joinNames(losers), n: v.scoring.end_score })}`;
}

/** Whether the host may start this table's game over with the same cards (never at a daily table). */
export function canRestart(table) {
  // a rated game cannot start over (its result counts as it was played)
  return table.host === table.you && !table.daily && !table.rated && ["playing", "finished"].includes(table.status) &&
    takes(table, "restart");
}

/** The start-over button, opening its confirmation. */
export function restartButton(attrs = "") {
  return `<button type="button" data-action="open" data-overlay="restart"${attrs}>${esc(t("restart_button"))}</button>`;
}

/** Whether this page may vote to play again with the same people: seated, after game over, where the table takes it. */
export function canRematch(table) {
  return table.status === "finished" && Array.isArray(table.rematch) && table.you !== null && takes(table, "rematch");
}

/** After game over: who agreed to play again with the same people ("2 of 3 agree: Anna and Bram"), or "". */
export function rematchLine(table) {
  if (table.status !== "finished" || !Array.isArray(table.rematch) || !table.rematch.length) return "";
  // the server starts the new game once every person at the table who is not away agreed
  const present = table.seats.filter((s) => s.kind === "person" && !s.away).length;
  const total = Math.max(present, table.rematch.length);
  const names = table.rematch.map((seat) => seatName(table, seat));
  return t("rematch_count", { n: table.rematch.length, total, names: joinNames(names) });
}

/** One step with the line under it that says what it does (the line is the button's description). */
function step(button, id, help, cls = "next-step") {
  return `<div class="${cls}">${button}<p class="field-help" id="${id}">${esc(t(help))}</p></div>`;
}

function newGameButton(where, primary) {
  return `<button type="button"${primary ? ' class="primary"' : ""} data-action="new_game" aria-describedby="${where}-new-help">` +
    `${esc(t("new_game"))}</button>`;
}

/** After you agreed to play again: who you wait for ("Waiting for Bram to agree."), or "" when nobody is left. */
function rematchWaiting(table) {
  if (!canRematch(table) || !table.rematch.includes(table.you)) return "";
  const waiting = table.seats.filter((s) => s.kind === "person" && !s.away && !table.rematch.includes(s.seat));
  if (!waiting.length) return "";
  const names = joinNames(waiting.map((s) => seatName(table, s.seat)));
  return `<p class="rematch-waiting" data-waiting-for="${waiting.map((s) => s.seat).join(" ")}">${esc(t("rematch_waiting_for", { names }))}</p>`;
}

/**
 * The main step after game over: the vote to play again with the same people (once you agreed, who agreed so far and
 * who you wait for); where the table takes no vote (the offline table), the host's new game. "" for a watcher.
 */
function mainStep(table, where) {
  if (canRematch(table)) {
    const agreed = table.rematch.includes(table.you);
    const button = `<button type="button"${agreed ? "" : ' class="primary"'} data-action="rematch" aria-pressed="${agreed}"` +
      `${agreed ? " disabled" : ""} aria-describedby="${where}-rematch-help">${esc(t(agreed ? "rematch_agreed" : "rematch_button"))}</button>`;
    const line = rematchLine(table);
    const who = line ? `<p class="rematch-line" role="status" data-rematch="${table.rematch.join(" ")}">${esc(line)}</p>` : "";
    return step(button, `${where}-rematch-help`, "rematch_help", "next-step main-step") + who + rematchWaiting(table);
  }
  if (isHost(table) && takes(table, "new_game")) return step(newGameButton(where, true), `${where}-new-help`, "new_game_help", "next-step main-step");
  return "";
}

function isHost(table) {
  return table.you !== null && table.host === table.you;
}

/**
 * The host's other choices, folded under the main step behind one button (open while `open`): a new game at this
 * table (when it is not the main step) and starting over. Everyone else sees their own step alone (the vote above,
 * and who they wait for once they voted): a choice that is the host's is no step of theirs. A Play now table has no
 * host: nothing.
 */
function otherSteps(state, where, newGameIsMain) {
  const table = state.table;
  if (!takes(table, "new_game")) return "";
  if (!isHost(table)) return canRematch(table) ? "" : `<p class="muted next-waiting">${esc(t("new_game_waiting"))}</p>`;
  const steps = [];
  if (!newGameIsMain) steps.push(step(newGameButton(where, false), `${where}-new-help`, "new_game_help"));
  if (canRestart(table)) steps.push(step(restartButton(` aria-describedby="${where}-restart-help"`), `${where}-restart-help`, "restart_help"));
  if (!steps.length) return "";
  const open = Boolean(state.moreSteps);
  const toggle = `<button type="button" class="fold-toggle" id="${where}-more-toggle" data-action="more_steps"` +
    ` aria-expanded="${open}" aria-controls="${where}-more">${esc(t("more_steps"))}</button>`;
  return `<div class="more-steps" data-next-steps="${where}">${toggle}` +
    `<div class="more-steps-body" id="${where}-more"${open ? "" : " hidden"}>${steps.join("")}</div></div>`;
}

/**
 * What comes after game over, as one block: the main step, the host's other choices folded under it (or, for the
 * others, that the host can start a new game). `where` keeps the ids apart (the score table and the table under it
 * both show the steps).
 */
export function nextStepsHtml(state, where) {
  const table = state.table;
  const main = mainStep(table, where);
  const newGameIsMain = main !== "" && !canRematch(table);
  const body = main + otherSteps(state, where, newGameIsMain);
  return body ? `<div class="next-steps" data-after-game="${where}">${body}</div>` : "";
}

/** "+37" or "−20" (a true minus sign): how far a rating moved. */
function changeText(change) {
  return change < 0 ? `−${-change}` : `+${change}`;
}

/**
 * At game over of a rated game, once the server stored its new ratings: each person's rating before and after the
 * game and how far it moved, you first, then the others in play order (the numbers are the server's rating model's).
 */
export function ratingMovesHtml(table) {
  const moves = Array.isArray(table.rating_moves) ? table.rating_moves : [];
  const order = seatsFromMe(table.you, seatCount(table)).filter((s) => moves[s] && typeof moves[s].after === "number");
  if (!order.length) return "";
  const rows = order.map((s) => {
    const { before, after } = moves[s];
    const change = after - before;
    const you = s === table.you ? ` <span class="muted">${esc(t("you_suffix"))}</span>` : "";
    const way = change > 0 ? "up" : change < 0 ? "down" : "same";
    return `<tr class="${s === table.you ? "you " : ""}${way}" data-seat="${s}" data-before="${before}" data-after="${after}" data-change="${change}">` +
      `<th scope="row">${esc(plainName(table, s))}${you}</th><td class="rm-before">${before}</td>` +
      `<td class="rm-after">${after}</td><td class="rm-change">${esc(changeText(change))}</td></tr>`;
  }).join("");
  return `<section class="rating-moves" aria-labelledby="rating-moves-title"><h3 id="rating-moves-title">${esc(t("rating_moves_title"))}</h3>` +
    `<table class="rating-moves-table"><thead><tr><th scope="col">${esc(t("board_player"))}</th>` +
    `<th scope="col">${esc(t("rating_before"))}</th><th scope="col">${esc(t("rating_after"))}</th>` +
    `<th scope="col">${esc(t("rating_change"))}</th></tr></thead><tbody>${rows}</tbody></table></section>`;
}
