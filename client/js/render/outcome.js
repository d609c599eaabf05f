// After game over: who won, and what can happen next at this table, each step with a line that says what it does
// (shown in the score table and, once that is closed, under the table).
import { t, joinNames } from "../i18n.js";
import { esc } from "../html.js";
import { seatName, teamName, takes } from "./seats.js";

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

/**
 * What comes after game over. The host: a new game (new cards, everyone from zero) and starting over (the same cards
 * from the first hand), each with its line; the others: that the host can start a new game. `where` keeps the ids of
 * the lines apart (the score table and the table under it both show the steps).
 */
export function nextStepsHtml(state, where) {
  const table = state.table;
  if (!takes(table, "new_game")) return ""; // no host here (a Play now table): the rematch vote and Queue again
  if (table.you === null || table.host !== table.you) return `<p class="muted next-waiting">${esc(t("new_game_waiting"))}</p>`;
  const step = (button, id, help) => `<div class="next-step">${button}<p class="field-help" id="${where}-${id}">${esc(t(help))}</p></div>`;
  const steps = [step(`<button type="button" class="primary" data-action="new_game" aria-describedby="${where}-new-help">${esc(t("new_game"))}</button>`,
    "new-help", "new_game_help")];
  if (canRestart(table)) steps.push(step(restartButton(` aria-describedby="${where}-restart-help"`), "restart-help", "restart_help"));
  return `<div class="next-steps" data-next-steps="${where}">${steps.join("")}</div>`;
}
