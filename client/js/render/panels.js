// Overlays: rules, statistics, options, the score table, the last trick, start over and my games, each in one dialog frame.
import { t, LANGS, TABLES, language } from "../i18n.js";
import { esc } from "../html.js";
import { CHOICES } from "../prefs.js";
import { scoresHtml } from "./scores.js";
import { lastTrickHtml, restartHtml, gamesHtml } from "./dialogs.js";
import { leaveHtml } from "./invite.js";
import { watchCount } from "./watch.js";
import { percent, momentText } from "../format.js";
import { ratingsHtml, boardHtml } from "./board.js";
import { moderationHtml, moderationTitle } from "./moderation.js";
import { say } from "./say.js";
import { offered } from "../network.js";
import { variantLine } from "./invite.js";
import { passingName } from "./seats.js";
import { optionDefault, optionWords, formFields } from "./start.js";

// The rules page: a list of links to its sections, then one <details> per section. These are open at first;
// the other variants and options stay closed until asked for, so a phone user finds their game quickly.
const RULES_OPEN = new Set(["seats", "classic", "dutch", "playing"]);

/** A rules section's heading: its own, or the display name of the variant it is about. */
function ruleHeading(section) {
  return section.h ?? t(`variant_${section.id}`);
}

/** A rules paragraph with its numbers filled in: a variant's end score and turn score, the table's where the rules are
 * read at a table, else the variant's usual ones. */
function ruleText(p, values) {
  return p.replace(/\{(end_score|turn_score)\}/g, (whole, option) => String(values[option] ?? whole));
}

/** The numbers a section's paragraphs take: this table's options for its own game, else the variant's defaults. */
function ruleValues(id, table) {
  if (table && table.options && table.options.variant === id) return table.options;
  return { end_score: optionDefault(id, "end_score") ?? 100, turn_score: optionDefault(id, "turn_score") ?? 50 };
}

function sectionHtml(s, open, table) {
  const values = ruleValues(s.id, table);
  return `<details class="rules-section" id="rules-${s.id}" data-rules="${s.id}"${open ? " open" : ""}>` +
    `<summary><h3>${esc(ruleHeading(s))}</h3></summary>${s.p.map((p) => `<p>${esc(ruleText(p, values))}</p>`).join("")}</details>`;
}

/** The table the rules are read at (seated, watching or in its waiting room), or null (the start page). */
function rulesTable(state) {
  const table = state.screen === "table" && !state.replay ? state.table : null;
  return table && table.options && table.options.variant ? table : null;
}

/**
 * The rules. Read at a table, they open at that table's game, with its own settings on top (how it ends, passing,
 * toppers, every option it changed) and its game's rules in its numbers; all the rest one tap away ("All rules").
 */
function rulesHtml(state) {
  const sections = t("rules");
  const table = rulesTable(state);
  if (table && !state.rulesAll) return tableRulesHtml(table, sections);
  const links = sections.map((s) => `<li><a href="#rules-${s.id}" data-rules-link>${esc(ruleHeading(s))}</a></li>`).join("");
  const toc = `<nav class="rules-toc" aria-labelledby="rules-contents"><h3 id="rules-contents">${esc(t("rules_contents"))}</h3><ul>${links}</ul></nav>`;
  const open = (id) => RULES_OPEN.has(id) || id === state.rulesAt || (table && id === table.options.variant);
  return toc + sections.map((s) => sectionHtml(s, open(s.id), table)).join("");
}

/** At a table: this table's settings, then its game's section (open), then the button to all the rules. */
function tableRulesHtml(table, sections) {
  const o = table.options;
  const variant = o.variant;
  const own = sections.find((s) => s.id === variant);
  const items = tableSettings(table).map(([key, text]) => `<li data-here="${key}">${esc(text)}</li>`).join("");
  const here = `<section class="rules-here" data-rules-here="${esc(variant)}" aria-labelledby="rules-here-title">` +
    `<h3 id="rules-here-title">${esc(t("rules_here_title", { game: variantLine(o) }))}</h3><ul>${items}</ul></section>`;
  const all = `<p class="rules-all"><button type="button" data-action="rules_all" aria-describedby="rules-all-help">${esc(t("rules_all"))}</button>` +
    ` <span class="muted" id="rules-all-help">${esc(t("rules_all_help"))}</span></p>`;
  return here + (own ? sectionHtml(own, true, table) : "") + all;
}

/** This table's settings in words, each as [key, text]: how it ends, passing, toppers, every other option it changed. */
function tableSettings(table) {
  const o = table.options;
  const variant = o.variant;
  const out = [];
  const over = variant === "achterhoeks_bar";
  if (o.turn_score !== undefined) out.push(["turn", t("rules_here_turn", { n: o.turn_score })]);
  else if (o.end_score !== undefined) out.push(["end", t(over ? "rules_here_end_over" : "rules_here_end", { n: o.end_score })]);
  if (o.passing) {
    const name = passingName(variant, o.passing, o.seats); // "Always left" in a list of choices; in a sentence, lower
    out.push(["passing", t("rules_here_passing", { passing: name.charAt(0).toLowerCase() + name.slice(1) })]);
  }
  // toppers go to a winner at a game played to an end score by players on their own (not in the bar form, no teams)
  if (o.end_score !== undefined && !over && !(table.teams && table.teams.length)) {
    out.push(["toppers", t("rules_here_toppers", { n: o.end_score })]);
  }
  const shown = new Set(["passing", "end_score", "turn_score"]);
  for (const [option] of formFields(variant) || []) {
    if (shown.has(option) || o[option] === undefined || o[option] === optionDefault(variant, option)) continue;
    const words = optionWords(variant, option, o[option]);
    if (words) out.push([`option-${option}`, t("rules_here_option", { option: words.label, value: words.value })]);
  }
  out.push(["rest", t("rules_here_default")]);
  return out;
}

/** Open a section of the rules, scroll it to the top of its dialog and give it the focus; false when it is not there. */
export function showRulesSection(id) {
  const section = document.getElementById(`rules-${id}`);
  if (!section) return false;
  section.open = true;
  const dialog = section.closest(".dialog");
  if (dialog) {
    const header = dialog.querySelector("header");
    const top = header ? header.getBoundingClientRect().bottom : dialog.getBoundingClientRect().top;
    dialog.scrollTop += section.getBoundingClientRect().top - top - 8;
  }
  section.querySelector("summary").focus({ preventScroll: true });
  return true;
}

/** A link of the rules' contents opens its section, scrolls it to the top of the dialog and gives it the focus. */
function followRulesLink(event) {
  const link = event.target instanceof Element ? event.target.closest("a[data-rules-link]") : null;
  if (!link || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  // no #fragment in the address: the page's own addresses stay as they are
  if (showRulesSection(link.getAttribute("href").slice("#rules-".length))) event.preventDefault();
}

if (typeof document !== "undefined") document.addEventListener("click", followRulesLink);

/** The statistics: My games first, where it stays while the figures (HTTP) and this device's line (the socket) come
 * and make the dialog longer (a tap aimed at a button below them would land on what took its place). */
function statsHtml(state) {
  const devices = offered("devices") ? devicesHtml(state) : ""; // with no network only what plays without one
  const games = offered("my_games")
    ? `<p class="dialog-actions stats-actions"><button type="button" data-action="open" data-overlay="games">${esc(t("my_games"))}</button></p>` : "";
  return `${games}${statsBody(state)}${offlineStatsHtml(state)}${devices}`;
}

function statsBody(state) {
  const s = state.stats;
  if (s === "error") return `<p>${esc(t("stats_error"))}</p>`;
  if (!s) return `<p>${esc(t("conn_connecting"))}</p>`;
  const none = s.games_played ? "" : `<p class="muted">${esc(t("stats_none"))}</p>`;
  const offline = s.offlineAt
    ? `<p class="notice info" role="status" data-stats-offline="${s.offlineAt}">${esc(t("stats_offline", { when: whenText(s.offlineAt) }))}</p>` : "";
  const title = state.offlineStats ? `<h3>${esc(t("stats_online_games"))}</h3>` : "";
  return `${title}${offline}${none}${figuresHtml(s, "data-stat")}${ratingsHtml(s)}`;
}

/** Your player on other devices: a one-time code (and its QR code) to take it there, a code from another device to
 * use here, and the devices that hold this player, each of which can be signed out. */
function devicesHtml(state) {
  const d = state.device;
  const code = d.code && (d.code.used || d.code.expires_at * 1000 > Date.now()) ? deviceCodeHtml(state, d.code) : "";
  const error = d.error ? `<p class="notice error" role="alert" data-device-error>${esc(say(d.error))}</p>` : "";
  const list = Array.isArray(d.list) && d.list.length
    ? `<ul class="devices">${d.list.map((x) => `<li data-device="${esc(x.id)}">${esc(x.label || t("device_first"))}` +
        ` <span class="muted">${esc(t("device_seen", { when: when(x.last_seen) }))}</span>` +
        (x.this ? ` <strong>${esc(t("device_this"))}</strong>`
          : ` <button type="button" data-action="device_sign_out" data-device="${esc(x.id)}">${esc(t("device_sign_out"))}</button>`) +
        "</li>").join("")}</ul>`
    : "";
  return `<section class="devices-panel" aria-labelledby="devices-title"><h3 id="devices-title">${esc(t("device_title"))}</h3>${error}` +
    `<p><button type="button" data-action="device_code">${esc(t("device_code_button"))}</button></p>${code}` +
    `<form data-form="device" class="row"><label for="device-code-input">${esc(t("device_enter"))}</label>` +
    `<input id="device-code-input" name="code" autocapitalize="characters" autocomplete="off" spellcheck="false" maxlength="9" placeholder="K7QX-PM3A">` +
    `<button type="submit">${esc(t("device_use"))}</button></form>${list}</section>`;
}

/**
 * The code shown: its link to copy (a QR code on the screen it is for cannot be scanned) and its QR code for a phone
 * beside this screen; once the other device has used it, only that it was used, and by which device.
 */
function deviceCodeHtml(state, code) {
  if (code.used) {
    const device = code.used.label || t("device_other");
    return `<div class="device-code used" data-device-code="${esc(code.code)}" data-device-code-used>` +
      `<p class="notice info" role="status">${esc(t("device_code_used", { code: code.code, device }))}</p></div>`;
  }
  return `<div class="device-code" data-device-code="${esc(code.code)}"><p>${esc(t("device_code_help", { time: clock(code.expires_at) }))}</p>` +
    `<p class="device-code-text">${esc(code.code)}</p>` +
    `<div class="device-link"><input class="link" id="device-link" readonly value="${esc(code.link)}" aria-label="${esc(t("device_link"))}">` +
    `<button type="button" data-action="copy_device_link" data-link="${esc(code.link)}">${esc(t(state.deviceCopied ? "link_copied" : "copy_link"))}</button></div>` +
    `<div class="device-qr" role="img" aria-label="${esc(t("device_qr"))}">${code.qr_svg}</div></div>`;
}

/** A moment (unix seconds) as the hour and minute in the page's language. */
function clock(seconds) {
  return new Date(seconds * 1000).toLocaleTimeString(document.documentElement.lang || undefined, { hour: "2-digit", minute: "2-digit" });
}

/** A moment (unix seconds) as date and time in the page's language. */
function when(seconds) {
  return whenText(seconds * 1000);
}

/** This device's finished offline games (kept in the browser), under their own heading. */
function offlineStatsHtml(state) {
  const s = state.offlineStats;
  if (!s) return "";
  const title = `<h3>${esc(t("stats_offline_games"))}</h3>`;
  if (s === "loading") return `<section data-offline-stats="loading">${title}<p>${esc(t("offline_starting"))}</p></section>`;
  if (s === "error") return `<section data-offline-stats="error">${title}<p>${esc(t("offline_failed"))}</p></section>`;
  return `<section data-offline-stats="ok">${title}${figuresHtml(s, "data-offline-stat")}</section>`;
}

/** The figures of a stats answer as a list; `attr` names each figure for tests and styles. */
function figuresHtml(s, attr) {
  const row = (key, value) => `<dt>${esc(t(key))}</dt><dd ${attr}="${key}">${esc(value ?? "–")}</dd>`;
  return `<dl class="stats">${row("stats_played", s.games_played)}${row("stats_won", s.games_won)}` +
    `${row("stats_win_pct", s.games_played ? percent(s.win_pct) : null)}${row("stats_lowest", s.lowest_score)}` +
    `${row("stats_streak", s.current_streak)}${row("stats_best_streak", s.best_streak)}${row("stats_moons", s.moons)}` +
    `${TOPPERS.filter((k) => s.toppers && s.toppers[k]).map((k) => row(`topper_${k}`, s.toppers[k])).join("")}</dl>`;
}

// The toppers (achievements) at game end, as the server counts them; only those earned are listed.
export const TOPPERS = ["double_game", "triple_game", "nil_game", "double_nil", "triple_nil", "absolute_topper"];

/** A moment (ms) as date and time in the page's language. */
function whenText(ms) {
  return momentText(ms);
}

/** A row of buttons, one per value, the current one pressed; `fixed` draws them read-only (set elsewhere). */
function choiceGroup(pref, values, current, labelKey, prefix, fixed = false) {
  const buttons = values.map((v) => `<button type="button" class="swatch ${pref}-${v}${v === current ? " on" : ""}" data-action="pref"` +
    ` data-pref="${pref}" data-value="${v}" aria-pressed="${v === current}"${fixed ? " disabled" : ""}>${esc(t(`${prefix}_${v}`))}</button>`).join("");
  return `<div class="opt"><span class="opt-label">${esc(t(labelKey))}</span><div class="choices" role="group" aria-label="${esc(t(labelKey))}">${buttons}</div></div>`;
}

/**
 * An on/off option as a switch: one button (role switch) named by its label, showing its state as a sliding knob and
 * the word on or off; a tap turns it over. `attrs` say what it changes (data-action and the like), `extra` is HTML
 * after the label (a count).
 */
function switchHtml(attrs, on, label, extra = "") {
  return `<button type="button" class="switch" role="switch" aria-checked="${on}" ${attrs} data-value="${!on}">` +
    `<span class="switch-label">${esc(label)}${extra}</span><span class="switch-state" aria-hidden="true">` +
    `<span class="switch-word">${esc(t(on ? "switch_on" : "switch_off"))}</span><span class="switch-track"><span class="switch-knob"></span></span></span></button>`;
}

/** A preference that is on or off, as a switch row of the options. */
function toggle(pref, on, labelKey) {
  return `<div class="opt opt-switch">${switchHtml(`data-action="pref" data-pref="${pref}"`, on, t(labelKey))}</div>`;
}

function optionsHtml(state) {
  const p = state.prefs;
  const langs = LANGS.map((l) => `<button type="button" class="${l === language() ? "on" : ""}" data-action="lang" data-lang="${l}" aria-pressed="${l === language()}" lang="${l}">${esc(TABLES[l].lang_name)}</button>`).join("");
  return choiceGroup("table", CHOICES.table, p.table, "opt_table_colour", "colour") +
    choiceGroup("back", CHOICES.back, p.back, "opt_card_back", "back") +
    toggle("fourColour", p.fourColour, "opt_four_colour") +
    toggle("sound", p.sound, "opt_sound") +
    paceOption(state) +
    choiceGroup("anim", CHOICES.anim, p.anim, "opt_anim", "anim") +
    toggle("autoPlay", p.autoPlay, "opt_auto_play") +
    `<div class="opt"><span class="opt-label">${esc(t("opt_language"))}</span><div class="choices" role="group">${langs}</div></div>` +
    watchOption(state.table);
}

/**
 * The computer players' speed: kept per player and carried to the tables this player hosts. At a table someone else
 * hosts (or a Play now table, which nobody hosts) the table's speed is what applies: it is shown, read-only, with a
 * note that says who sets it; the player's own choice waits for the tables they host.
 */
function paceOption(state) {
  const table = state.table;
  const elsewhere = table && typeof table.pace === "string" && table.host !== table.you && state.screen === "table";
  if (!elsewhere) return choiceGroup("computerPace", CHOICES.computerPace, state.prefs.computerPace, "opt_computer_pace", "pace");
  const group = choiceGroup("computerPace", CHOICES.computerPace, table.pace, "opt_computer_pace", "pace", true);
  const key = table.host === null ? "opt_computer_pace_none" : "opt_computer_pace_host";
  const note = `<p class="opt-note muted" data-pace-note="${esc(table.pace)}">${esc(t(key))}</p>`;
  return group.replace(/<\/div>$/, `${note}</div>`);
}

/** The host, at the table once the game runs (the waiting room has its own checkbox), allows or refuses watchers. */
function watchOption(table) {
  if (!table || table.you === null || table.host !== table.you || table.daily || !table.watch || table.status === "waiting") return "";
  const on = Boolean(table.watch.allowed);
  const count = table.watch.count ? ` <span class="badge" data-watch-count="${table.watch.count}">${esc(watchCount(table.watch.count))}</span>` : "";
  return `<div class="opt opt-switch opt-watch">${switchHtml('data-action="allow_watch"', on, t("watch_allow"), count)}</div>`;
}

const TITLES = {
  rules: "rules_title", stats: "stats_title", options: "options_title", scores: "scores_title",
  last_trick: "last_trick_title", restart: "restart_title", games: "games_title", leave: "leave_title",
  board: "board_title", seat: moderationTitle,
};
const BODIES = { rules: rulesHtml, stats: statsHtml, options: optionsHtml, scores: scoresHtml, leave: leaveHtml,
  last_trick: lastTrickHtml, restart: restartHtml, games: gamesHtml, board: boardHtml, seat: moderationHtml };

export function overlayHtml(state, kind = state.overlay) {
  if (!kind) return "";
  const body = BODIES[kind](state);
  return `<div class="backdrop" data-action="close"></div>` +
    `<div class="dialog dialog-${kind}" role="dialog" aria-modal="true" aria-labelledby="dialog-title" data-dialog="${kind}">` +
    `<header><h2 id="dialog-title">${esc(typeof TITLES[kind] === "function" ? TITLES[kind](state) : t(TITLES[kind]))}</h2>` +
    `<button type="button" class="close" data-action="close" aria-label="${esc(t("close"))}">✕</button></header>` +
    `<div class="dialog-body">${body}</div></div>`;
}
