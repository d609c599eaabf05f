// Today's deal on the start screen: play it, and today's board with my place.
import { t } from "../i18n.js";
import { esc } from "../html.js";

const SHOWN = 10; // the board's top entries shown on the start screen

function boardHtml(daily) {
  if (!daily || (daily.status === "loading" && !daily.data)) return `<p class="muted">${esc(t("loading"))}</p>`;
  if (daily.status === "error" || !daily.data) return `<p class="muted" data-board="error">${esc(t("daily_error"))}</p>`;
  const { board = [], you = null } = daily.data;
  const rows = board.slice(0, SHOWN).map((e) =>
    `<tr><td class="place">${esc(e.place)}</td><td class="who">${esc(e.name)}</td><td class="pts">${esc(e.total)}</td></tr>`).join("");
  const table = board.length
    ? `<table class="board"><thead><tr><th scope="col">${esc(t("daily_place"))}</th><th scope="col">${esc(t("daily_player"))}</th>` +
      `<th scope="col">${esc(t("daily_total"))}</th></tr></thead><tbody>${rows}</tbody></table>`
    : `<p class="muted">${esc(t("daily_empty"))}</p>`;
  const mine = you
    ? `<p class="daily-you" data-place="${esc(you.place)}">${esc(t("daily_you", { place: you.place, n: you.total }))}</p>`
    : `<p class="daily-you muted" data-place="">${esc(t("daily_not_played"))}</p>`;
  return table + mine;
}

export function dailyPanelHtml(state) {
  const daily = state.daily;
  const deal = daily && daily.data && daily.data.deal != null
    ? `<p class="daily-deal" data-deal="${esc(daily.data.deal)}">${esc(t("deal_no", { n: daily.data.deal }))}</p>` : "";
  return `<form class="panel daily" data-form="daily">
    <h2>${esc(t("daily_title"))}</h2>
    ${deal}
    <p class="muted">${esc(t("daily_intro"))}</p>
    <button type="submit" class="primary">${esc(t("daily_play"))}</button>
    <h3>${esc(t("daily_board"))}</h3>
    <div class="daily-board" aria-live="polite">${boardHtml(daily)}</div>
  </form>`;
}
