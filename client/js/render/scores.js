// The score table (seed 000's "Puntentabel"): per hand and running totals, moons marked, winners.
import { t, joinNames } from "../i18n.js";
import { esc } from "../html.js";
import { seatName, plainName, seatsFromMe } from "./seats.js";
import { gameButtons, readyWaiting } from "./table.js";
import { takeButtons } from "./watch.js";

export function scoresHtml(state) {
  const table = state.table;
  const v = table && table.view;
  if (!v) return `<p>${esc(t("no_hands_yet"))}</p>`;
  const order = seatsFromMe(table.you);
  const head = order.map((s) => `<th scope="col"><span class="wind">${esc(t("seat_names")[s])}</span>${esc(plainName(table, s))}</th>`).join("");
  const rows = v.history.map((h, i) => {
    const cells = order.map((s) => {
      const moon = h.moon === s ? ` <span class="moon" title="${esc(t("moon_mark"))}">☾ ${esc(t("moon_mark"))}</span>` : "";
      return `<td><span class="hand-score">${h.scores[s] > 0 ? "+" : ""}${h.scores[s]}</span>${moon}<span class="running">${h.totals[s]}</span></td>`;
    }).join("");
    return `<tr${h.moon !== null && h.moon !== undefined ? ' class="moon-row"' : ""}><th scope="row">${i + 1}</th>${cells}</tr>`;
  }).join("");
  const totals = order.map((s) => `<td class="grand${v.winners.includes(s) ? " winner" : ""}">${v.totals[s]}</td>`).join("");
  const body = v.history.length
    ? `<div class="table-wrap"><table class="scores"><thead><tr><th scope="col">${esc(t("hand_col"))}</th>${head}</tr></thead>` +
      `<tbody>${rows}</tbody><tfoot><tr><th scope="row">${esc(t("totals_row"))}</th>${totals}</tr></tfoot></table></div>`
    : `<p>${esc(t("no_hands_yet"))}</p>`;
  const last = v.history[v.history.length - 1];
  const moonNote = last && last.moon !== null && last.moon !== undefined && v.phase !== "playing"
    ? `<p class="moon-note">☾ ${esc(t("moon_by", { name: seatName(table, last.moon) }))}</p>` : "";
  let footer = "";
  if (v.game_over) {
    const names = v.winners.map((s) => seatName(table, s));
    const text = names.length > 1 ? t("winner_many", { names: joinNames(names) }) : t("winner_one", { names: names[0] });
    footer = `<p class="winners" role="status"><strong>${esc(t("game_over"))}</strong> ${esc(text)}</p>` +
      `<div class="dialog-actions">${table.host === table.you
        ? `<button type="button" class="primary" data-action="new_game">${esc(t("new_game"))}</button>` : ""}` +
      `${gameButtons(state).join("")}</div>` +
      (table.host === table.you ? "" : `<p class="muted">${esc(t("new_game_waiting"))}</p>`);
  } else if (v.phase === "hand_over") {
    const next = table.you === null || (table.ready && table.ready.includes(table.you)) // a watcher is never asked
      ? `<p class="muted" role="status">${esc(readyWaiting(table))}</p>`
      : `<button type="button" class="primary" data-action="ready">${esc(t("next_hand"))}</button>`;
    const last = v.tricks.length
      ? `<button type="button" data-action="open" data-overlay="last_trick">${esc(t("last_trick"))}</button>` : "";
    const take = table.you === null ? takeButtons(table).join("") : ""; // a watcher may sit down now
    footer = `<div class="dialog-actions">${next}${take}${last}</div>`;
  }
  return `${moonNote}${body}${footer}`;
}
