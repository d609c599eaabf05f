// The top bar: title, navigation, language switch, and the connection banner.
import { t, LANGS, language } from "../i18n.js";
import { esc } from "../html.js";

/** A button's word, and a shorter one that a narrow phone shows instead (so the top bar stays one line). */
function label(key) {
  return `<span class="nav-long">${esc(t(key))}</span><span class="nav-short">${esc(t(`${key}_short`))}</span>`;
}

export function headerHtml(state) {
  const langs = LANGS.map(
    (l) => `<button type="button" class="lang${l === language() ? " on" : ""}" data-action="lang" data-lang="${l}"` +
      ` aria-pressed="${l === language()}" lang="${l}">${l.toUpperCase()}</button>`,
  ).join("");
  const leave = state.session || state.watching
    ? `<button type="button" data-action="leave">${label("nav_home")}</button>` : "";
  // The deal number, so that friends playing the same numbered deal can compare.
  const table = state.screen === "table" && !state.replay ? state.table : null;
  const deal = table && table.deal !== null && table.deal !== undefined
    ? `<span class="deal-no" data-deal="${esc(table.deal)}">${esc(t("deal_no", { n: table.deal }))}</span>` : "";
  const offline = state.offline.playing && !state.replay
    ? `<span class="offline-badge" data-offline-badge title="${esc(t("offline_badge_help"))}">${esc(t("offline_badge"))}</span>` : "";
  // a rated game (an open table with people on every seat at the start): its result counts for the ratings
  const rated = table && table.rated
    ? `<span class="rated-badge" data-rated title="${esc(t("rated_help"))}"><span class="rated-star" aria-hidden="true">★</span>${label("rated_badge")}</span>` : "";
  return `<h1 class="brand"><span aria-hidden="true">♥</span> <span class="brand-text">${esc(t("app_title"))}</span></h1>${offline}${rated}${deal}` +
    `<nav aria-label="${esc(t("app_title"))}">` +
    `<button type="button" data-action="open" data-overlay="rules">${label("nav_rules")}</button>` +
    `<button type="button" data-action="open" data-overlay="stats">${label("nav_stats")}</button>` +
    `<button type="button" data-action="open" data-overlay="options">${esc(t("nav_options"))}</button>` +
    leave + `<span class="langs" role="group" aria-label="${esc(t("opt_language"))}">${langs}</span></nav>`;
}

export function connHtml(state) {
  if (state.offline.playing) return ""; // the offline table needs no connection (the header says it is offline)
  if (state.restarting && state.conn !== "online") {
    return `<p class="conn restarting" data-conn="restarting" role="status">${esc(t("conn_restarting"))}</p>`;
  }
  if (state.conn === "reconnecting") return `<p class="conn reconnecting" data-conn="reconnecting">${esc(t("conn_reconnecting"))}</p>`;
  if (state.conn === "connecting" && state.screen !== "start") return `<p class="conn" data-conn="connecting">${esc(t("conn_connecting"))}</p>`;
  return "";
}

