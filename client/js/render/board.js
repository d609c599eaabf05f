// Ratings: yours per family in the statistics dialog, and the leaderboard of each family (all time or this week).
import { t } from "../i18n.js";
import { esc } from "../html.js";
import { ratingText } from "./playnow.js";

export const FAMILIES = ["classic", "dutch", "teams"];
export const PERIODS = ["all", "week"];

/** Your rating in each family you played rated games in (statistics dialog), with a button to the leaderboard. */
export function ratingsHtml(stats) {
  const ratings = stats && typeof stats === "object" && stats.ratings ? stats.ratings : {};
  const rows = FAMILIES.filter((f) => ratings[f]).map((f) => {
    const r = ratings[f];
    return `<dt>${esc(t(`family_${f}`))}</dt><dd data-rating-family="${f}" data-games="${r.games}">` +
      `<span class="rating-value">${esc(ratingText(r))}</span> <span class="muted">${esc(t("ratings_games", { n: r.games }))}</span></dd>`;
  }).join("");
  const body = rows ? `<dl class="stats ratings">${rows}</dl>` : `<p class="muted" data-ratings-none>${esc(t("ratings_none"))}</p>`;
  return `<section class="ratings-panel" aria-labelledby="ratings-title"><h3 id="ratings-title">${esc(t("ratings_title"))}</h3>${body}` +
    `<p class="muted ratings-help">${esc(t("ratings_help"))}</p>` +
    `<p><button type="button" data-action="open" data-overlay="board">${esc(t("board_button"))}</button></p></section>`;
}

/** A row of toggle buttons (family or period) that choose which board is shown. */
function choiceRow(kind, values, current, labelKey) {
  const buttons = values.map((v) => `<button type="button" class="${v === current ? "on" : ""}" data-action="board"` +
    ` data-${kind}="${v}" aria-pressed="${v === current}">${esc(t(`${kind}_${v}`))}</button>`).join("");
  return `<div class="choices board-${kind}" role="group" aria-label="${esc(t(labelKey))}">${buttons}</div>`;
}

function row(e, you) {
  const mine = you && e.place === you.place;
  return `<tr${mine ? ' class="you" aria-current="true"' : ""} data-place="${e.place}"><td class="place">${e.place}</td>` +
    `<td class="who">${esc(e.name)}</td><td class="pts">${esc(ratingText(e))}</td><td class="games">${e.games}</td></tr>`;
}

/** A player below the minimum of rated games: after the ranked, without a place, marked provisional. */
function provisionalRow(e) {
  return `<tr class="provisional" data-provisional><td class="place">–</td>` +
    `<td class="who">${esc(e.name)} <span class="provisional-mark">${esc(t("board_provisional"))}</span></td>` +
    `<td class="pts">${esc(ratingText(e))}</td><td class="games">${e.games}</td></tr>`;
}

/** The leaderboard: family tabs, period, the top 50, your own place, and how many rated games it takes to appear. */
export function boardHtml(state) {
  const b = state.board || { family: "classic", period: "all", status: "loading" };
  const head = choiceRow("family", FAMILIES, b.family, "board_families") + choiceRow("period", PERIODS, b.period, "board_period");
  let body;
  if (b.status === "error") body = `<p data-board-error>${esc(t("board_error"))}</p>`;
  else if (!b.data) body = `<p>${esc(t("loading"))}</p>`;
  else {
    const d = b.data;
    const you = d.you || null;
    const below = Array.isArray(d.provisional) ? d.provisional : [];
    const rows = d.top.map((e) => row(e, you)).join("") + below.map(provisionalRow).join("");
    const note = below.length ? `<p class="muted board-provisional-note">${esc(t("board_provisional_note", { n: d.min_games }))}</p>` : "";
    const table = rows
      ? `<div class="table-wrap"><table class="board leaderboard"><thead><tr><th scope="col">${esc(t("board_place"))}</th>` +
        `<th scope="col">${esc(t("board_player"))}</th><th scope="col">${esc(t("board_rating"))}</th>` +
        `<th scope="col">${esc(t("board_games"))}</th></tr></thead><tbody>${rows}</tbody></table></div>${note}`
      : `<p class="muted" data-board-empty>${esc(t("board_empty"))}</p>`;
    const mine = you
      ? `<p class="board-you" data-board-you="${you.place}">${esc(t("board_you", { place: you.place, players: d.players, value: ratingText(you) }))}</p>`
      : `<p class="board-you muted" data-board-you="">${esc(t("board_you_none"))}</p>`;
    body = `${mine}${table}`;
  }
  const min = b.data ? b.data.min_games : 5;
  return `<div class="board-head">${head}</div>` +
    `<p class="muted board-min" data-min-games="${min}">${esc(t("board_min", { n: min }))} ${esc(t("board_order"))}</p>` +
    `${body}<p class="dialog-actions"><button type="button" data-action="open" data-overlay="stats">${esc(t("board_back"))}</button></p>`;
}
