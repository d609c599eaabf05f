// Play now and open tables: the start page's Play now form and its list of open tables, the waiting screen of a
// Play now table, and a person's rating as shown beside their name.
import { t, TABLES, language } from "../i18n.js";
import { esc } from "../html.js";
import { variantLine, rulesLine } from "./invite.js";
import { seatsFromMe, seatCount, chairName } from "./seats.js";
import { say } from "./say.js";
import { lengthControl, fieldErrorText } from "./length.js";

// The games Play now offers (four seats, each of a rated family), and how long each may last: the option that ends
// it, its range (the core's) and the default (the core's own default, so that people who keep it meet at one table).
export const PLAY_NOW_VARIANTS = {
  classic: { option: "end_score", max: 500, def: 100 },
  omnibus: { option: "end_score", max: 500, def: 100 },
  black_maria: { option: "end_score", max: 500, def: 100 },
  dutch: { option: "turn_score", max: 200, def: 50 },
  achterhoeks_bar: { option: "end_score", max: 500, def: 50 },
  achterhoeks: { option: "end_score", max: 500, def: 100 },
};
const LEAST = 25; // the shortest game the core plays (end score and turn score alike)
export const WAIT = { min: 5, max: 300, def: 30 };
export const PLAY_NOW_CLOCK = 30; // seconds per move at a Play now table (the server's PLAY_NOW_TIMER)

/** A language's own name ("Nederlands"), or its code when the page does not know it. */
export function langName(lang) {
  return TABLES[lang] ? TABLES[lang].lang_name : lang;
}

/** "1000 ± 333": a rating as people see it, or "" when there is none. */
export function ratingText(r) {
  if (!r || typeof r.rating !== "number") return "";
  return t("rating_value", { rating: r.rating, uncertainty: r.uncertainty });
}

/** "Your rating: 1000 → 1037, +37": how a rating moved in a rated game ({before, after}), or "" without one. */
export function ratingMoveText(m) {
  if (!m || typeof m.before !== "number" || typeof m.after !== "number") return "";
  const change = m.after - m.before;
  return t("rating_move", { before: m.before, after: m.after, change: change < 0 ? `−${-change}` : `+${change}` });
}

/** A rating beside a name: a small badge that says what it is to a screen reader too. */
export function ratingBadge(r) {
  const text = ratingText(r);
  if (!text) return "";
  return `<span class="rating" data-rating="${r.rating}" title="${esc(t("rating_label", { value: text }))}">` +
    `<span class="sr-only">${esc(t("rating_word"))} </span>${esc(text)}</span>`;
}

/** The choices Play now remembers in the browser (the game, how long, how many seconds to wait for people, and
 * whether to meet players of the page's language only). */
export function playNowChoices(prefs) {
  const saved = prefs.playNow || {};
  const variant = PLAY_NOW_VARIANTS[saved.variant] ? saved.variant : "classic";
  const wait = Number.isInteger(saved.wait) && saved.wait >= WAIT.min && saved.wait <= WAIT.max ? saved.wait : WAIT.def;
  return { variant, lengths: saved.lengths || {}, wait, langOnly: saved.langOnly === true };
}

function lengthLabel(variant, option) {
  if (variant === "achterhoeks_bar") return t("end_score_over");
  return t(option);
}

/** One game's length field (the same control as the new-table form's); only the chosen game's is shown (syncPlayNow). */
function lengthField(state, variant, chosen, lengths) {
  const { option, max, def } = PLAY_NOW_VARIANTS[variant];
  const saved = lengths[variant];
  const value = Number.isInteger(saved) && saved >= LEAST && saved <= max ? saved : def;
  const id = `pn-length-${variant}`;
  const control = lengthControl({ id, name: id, label: lengthLabel(variant, option), min: LEAST, max, value, option,
    error: fieldErrorText(state, id, say) });
  return `<div class="pn-field pn-length" data-pn-variant="${variant}"${variant === chosen ? "" : " hidden"}>${control}</div>`;
}

/**
 * The Play now panel of the start page (playing with strangers): a game, its length, how long to wait for people,
 * whether to meet players of the page's language only (off: every language meets), what the turn clock does, and one
 * big button. The form takes no check of the browser's own: a number out of range is said at its field.
 */
export function playNowHtml(state, offline) {
  if (offline) return "";
  const { variant, lengths, wait, langOnly } = playNowChoices(state.prefs);
  const variants = Object.keys(PLAY_NOW_VARIANTS)
    .map((v) => `<option value="${v}"${v === variant ? " selected" : ""}>${esc(t(`variant_${v}`))}</option>`).join("");
  const error = fieldErrorText(state, "pn-wait", say);
  const described = error ? ' aria-invalid="true" aria-describedby="pn-wait-error"' : ' aria-describedby="pn-wait-help"';
  const mine = langName(language());
  return `<form class="panel play-now" data-form="play_now" id="play-now-form" novalidate aria-labelledby="play-now-title">
    <p class="kicker">${esc(t("play_now_strangers"))}</p>
    <h2 id="play-now-title">${esc(t("play_now_title"))}</h2>
    <p class="field-help">${esc(t("play_now_intro"))}</p>
    <div class="pn-fields">
      <div class="pn-field pn-game">
        <label for="pn-variant">${esc(t("variant"))}</label>
        <select id="pn-variant" name="pn-variant" data-change="pn_variant">${variants}</select>
      </div>
      ${Object.keys(PLAY_NOW_VARIANTS).map((v) => lengthField(state, v, variant, lengths)).join("")}
      <p class="field-help pn-same">${esc(t("play_now_same"))}</p>
      <div class="pn-field pn-wait">
        <label for="pn-wait">${esc(t("play_now_wait"))}</label>
        <input type="number" id="pn-wait" name="pn-wait" min="${WAIT.min}" max="${WAIT.max}" step="1" required inputmode="numeric" value="${wait}"${described}>
      </div>
    </div>
    <p id="pn-wait-help" class="field-help">${esc(t("play_now_wait_help", { min: WAIT.min, max: WAIT.max }))}</p>
    ${error ? `<p id="pn-wait-error" class="field-error" role="alert">${esc(error)}</p>` : ""}
    <label class="check pn-lang-only" for="pn-lang-only"><input type="checkbox" id="pn-lang-only" name="pn-lang-only"` +
    ` aria-describedby="pn-lang-help"${langOnly ? " checked" : ""}> ${esc(t("pn_lang_only", { lang: mine }))}</label>
    <p id="pn-lang-help" class="field-help">${esc(t("pn_lang_only_help", { lang: mine }))}</p>
    <p class="field-help pn-clock-note" data-clock="${PLAY_NOW_CLOCK}">${esc(t("play_now_clock", { s: PLAY_NOW_CLOCK }))}</p>
    <button type="submit" class="primary play-now-button">${esc(t("play_now_button"))}</button>
  </form>`;
}

/** Show the chosen game's length field only (called when the form changes and after every redraw of it). */
export function syncPlayNow(container) {
  const variant = container.querySelector("#pn-variant");
  if (!variant) return;
  for (const field of container.querySelectorAll(".pn-length")) field.hidden = field.dataset.pnVariant !== variant.value;
}

/** What the Play now form asks for: the options, the wait, players of the page's language only, and what to remember. */
export function readPlayNow(form) {
  const variant = form.elements["pn-variant"].value;
  const field = form.elements[`pn-length-${variant}`];
  const length = Number(field.value);
  const wait = Number(form.elements["pn-wait"].value);
  const langOnly = Boolean(form.elements["pn-lang-only"] && form.elements["pn-lang-only"].checked);
  return { options: { variant, [field.dataset.option]: length }, wait, variant, length, langOnly };
}

/** One taken seat of an open table in the list: who sits there (with their rating), or a computer player. */
function listedSeat(seat, n) {
  const name = seat.kind === "computer" ? t("open_seat_computer", { name: seat.name || chairName(n, seat.seat) }) : seat.name;
  return `<li class="ot-seat" data-kind="${esc(seat.kind)}" data-seat="${seat.seat}"><span class="name">${esc(name)}</span> ${ratingBadge(seat.rating)}</li>`;
}

/**
 * The language of an open table as its list says it: a table a host listed, the host's; a Play now table for one
 * language, that language only; any other Play now table, the languages of the people there (any, while none is known).
 */
function tableLanguage(e) {
  if (!e.play_now) return t("open_lang", { lang: langName(e.lang) });
  if (e.lang_only) return t("open_lang_only", { lang: langName(e.lang) });
  const langs = (e.langs || []).map(langName);
  return langs.length ? t("open_langs", { langs: langs.join(" / ") }) : t("open_lang_any");
}

/** One open table: its game and length, its language, who sits where, how many seats are free, Join. */
function listedTable(e) {
  const seats = e.seats || [];
  const badge = e.play_now ? ` <span class="badge pn-badge">${esc(t("play_now_badge"))}</span>` : "";
  const only = e.play_now && !e.lang_only ? "" : ` lang="${esc(e.lang)}"`;
  return `<li class="open-table" data-open-code="${esc(e.code)}">
    <div class="ot-head"><strong class="ot-game">${esc(variantLine(e.options || { variant: e.variant, end_score: e.end_score }))}</strong>${badge}</div>
    <p class="ot-facts"><span class="ot-lang" data-lang-only="${Boolean(e.lang_only)}"${only}>${esc(tableLanguage(e))}</span> · ` +
    `<span class="ot-free" data-free="${e.free}">${esc(t("open_free", { n: e.free }))}</span></p>
    <ul class="ot-seats">${seats.filter((s) => s.kind !== "empty").map((s) => listedSeat(s, seats.length)).join("")}</ul>
    <button type="button" class="primary ot-join" id="open-join-${esc(e.code)}" data-action="join_open" data-code="${esc(e.code)}"` +
    ` aria-label="${esc(t("open_join_label", { code: e.code, game: variantLine(e.options || { variant: e.variant }) }))}">${esc(t("open_join"))}</button>
  </li>`;
}

/** The start page's list of open tables (it refreshes by itself while the page is shown). */
export function openTablesHtml(state, offline) {
  if (offline || state.screen !== "start") return "";
  const o = state.openTables;
  let body;
  if (!o || (o.status === "loading" && !o.tables)) body = `<p class="muted">${esc(t("loading"))}</p>`;
  else if (!o.tables) body = `<p class="muted" data-open-error>${esc(t("open_tables_error"))}</p>`;
  else if (!o.tables.length) body = `<p class="muted" data-open-empty>${esc(t("open_tables_none"))}</p>`;
  else body = `<ul class="open-tables">${o.tables.map(listedTable).join("")}</ul>`;
  return `<section class="panel open-tables-panel" aria-labelledby="open-tables-title" data-open-tables="${o && o.tables ? o.tables.length : ""}">
    <h2 id="open-tables-title">${esc(t("open_tables_title"))}</h2>${body}</section>`;
}

/** Seconds until computer players fill the empty seats of a Play now table (null when no time is set). */
export function fillInSeconds(table, now = Date.now()) {
  const at = table && table.open ? table.open.fill_at : null;
  if (typeof at !== "number") return null;
  return Math.max(0, Math.ceil(at - now / 1000));
}

/** A Play now table that has not started: the waiting screen shows instead of a waiting room. */
export function isPlayNowWaiting(table) {
  return Boolean(table && table.open && table.open.play_now && table.status === "waiting");
}

/** The waiting screen says who meets here: players of one language only (as the person asked), or of every language
 * (with the languages of the people seated so far, once there are several). */
function waitingLanguage(table) {
  const open = table.open || {};
  if (open.lang_only) {
    return `<p class="pn-langs" data-lang-only="true">${esc(t("play_now_here_only", { lang: langName(open.lang) }))}</p>`;
  }
  const langs = open.langs || [];
  const here = langs.length > 1 ? ` ${t("langs_here", { langs: langs.map(langName).join(" / ") })}` : "";
  return `<p class="pn-langs" data-lang-only="false">${esc(t("play_now_here_any") + here)}</p>`;
}

function clockText(seconds) {
  const m = Math.floor(seconds / 60);
  const s = seconds % 60;
  return `${m}:${String(s).padStart(2, "0")}`;
}

/**
 * The waiting screen of a Play now table: the game, who has sat down (with their ratings), how long until computer
 * players fill the empty seats, and Leave the queue. The game starts by itself; then the table shows.
 */
export function playNowWaitingHtml(state, seatCard, now = Date.now()) {
  const table = state.table;
  const n = seatCount(table);
  const people = table.seats.filter((s) => s.kind === "person").length;
  const left = fillInSeconds(table, now + (state.clockSkew || 0)); // by the server's clock
  let when;
  if (left === null) when = t("play_now_no_fill");
  else if (left > 0) when = t("play_now_fill_in", { time: clockText(left) });
  else when = t("play_now_filling");
  const notice = state.notice ? `<p class="notice ${state.notice.kind}" role="alert">${esc(say(state.notice.words, state.table))}</p>` : "";
  const seats = seatsFromMe(table.you, n).map((s) => seatCard(table, s, false, n)).join("");
  return `<section class="lobby play-now-wait" data-play-now-wait>
  <div class="pn-main">
    <h2>${esc(t("play_now_waiting_title"))}</h2>
    <p class="muted lobby-rules">${esc(rulesLine(table.options || {}))}</p>
    ${waitingLanguage(table)}
    <div class="pn-clock">
      <p class="pn-count" role="status" data-people="${people}">${esc(t("play_now_seated", { n: people, total: n }))}</p>
      <p class="pn-fill" data-fill-in="${left ?? ""}">${esc(when)}</p>
      <p class="muted">${esc(t("play_now_starts"))}</p>
      <p class="pn-leave"><button type="button" data-action="leave" data-leave-queue>${esc(t("play_now_leave"))}</button></p>
    </div>
    ${notice}
  </div>
  <div class="pn-people">
    <ul class="seats">${seats}</ul>
    <p class="muted pn-rated-note">${esc(t("play_now_rated_note"))}</p>
  </div>
</section>`;
}
