// The start screen: name, create a table with its options, or join one by code.
import { t } from "../i18n.js";
import { esc } from "../html.js";
import { showsInvite, inviteHtml, comebackHtml } from "./invite.js";
import { passingName } from "./seats.js";
import { playNowHtml } from "./playnow.js";
import { say } from "./say.js";
import { decimal } from "../format.js";
import { noNetwork, offered } from "../network.js";
import { lengthControl, numberField, fieldErrorText } from "./length.js";

// The options that say how long a game lasts: the same control as Play now's (a number, its common values one tap away).
const LENGTHS = ["end_score", "turn_score"];

// Options per variant as [option, kind, default], as shared/variants.py's VARIANTS offer them (a browser test
// compares the two): kind "bool" is a checkbox, "number:lo:hi" a number field, a list a dropdown, default first.
const PASSING = ["cycle", "off", "left", "right", "scatter", "left_right", "achterhoeks"];
const FEW_PASSING = ["cycle", "off", "left", "right"]; // three and five seats (no across), and two decks
const passing = (def, forms = PASSING) => ["passing", [def, ...forms.filter((p) => p !== def)], def];
const GENTLEMEN = [["gentleman_3", "bool", false], ["gentleman_4", "bool", false]];
const TIE_AND_FIRST = [["tie", ["share", "play_on"], "share"], ["first_trick_points", "bool", false]];
const CLASSIC = [
  passing("cycle"),
  ["end_score", "number:25:500", 100],
  ["queen_breaks_hearts", "bool", false],
  ["moon", ["others", "self", "choose"], "others"],
  ["jack_of_diamonds", [0, -10], 0],
  ...TIE_AND_FIRST,
  ...GENTLEMEN,
];
const DUTCH = [
  ["turn_score", "number:25:200", 50],
  ["dutch_end", ["at_or_below_zero", "exactly_zero"], "at_or_below_zero"],
  ["queen_value", [5, 13], 5],
  ["jack_of_clubs", [2, 0], 2],
  ["moon", ["choose", "others", "self"], "choose"],
  passing("off"),
  ["jack_of_diamonds", [0, -10], 0],
  ["tie", ["share", "play_on"], "share"],
  ["first_trick_points", "bool", true],
  ...GENTLEMEN,
];
const without = (fields, ...names) => fields.filter(([option]) => !names.includes(option));
// Three and five seats (and two decks): classic's options without the jack of diamonds, passing as the core offers it
// there (cycle, off, left, right).
const FEW_SEATS = [passing("cycle", FEW_PASSING), ...without(CLASSIC, "passing", "jack_of_diamonds")];
const achterhoeks = (end) => [
  passing("achterhoeks"), ["end_score", "number:25:500", end], ["doubling_nine", "bool", true], ...TIE_AND_FIRST,
  ["gentleman_4", "bool", false],
];

export const VARIANT_OPTIONS = {
  classic: CLASSIC,
  dutch: DUTCH,
  omnibus: [...without(CLASSIC, "jack_of_diamonds"), ["bonus_card", ["jack", "ten"], "jack"]],
  spot_hearts: [["spot_form", [1, 2, 3], 1], ...CLASSIC],
  hooligan: CLASSIC,
  black_maria: without(CLASSIC, "passing", "queen_breaks_hearts"),
  parker_brothers: without(CLASSIC, "jack_of_diamonds"),
  belgian: without(CLASSIC, "passing", "queen_breaks_hearts", "gentleman_4"),
  achterhoeks: achterhoeks(100),
  achterhoeks_bar: achterhoeks(50),
  chips: [["start_chips", "number:4:200", 20], ["ante", "number:1:20", 1], ["hand_limit", "number:0:500", 20], ...TIE_AND_FIRST],
  dutch52: DUTCH,
  three: [...FEW_SEATS, ["removed", ["two_of_diamonds", "three_of_clubs"], "two_of_diamonds"]],
  three_kitty: [...FEW_SEATS, ["kitty", ["first_trick", "first_points"], "first_trick"]],
  five: FEW_SEATS,
  five_kitty: [...FEW_SEATS, ["kitty", ["first_trick", "first_two"], "first_trick"]],
  dutch5: DUTCH.map((f) => (f[0] === "passing" ? passing("off", FEW_PASSING) : f)),
  three_jokers: FEW_SEATS,
  cancellation: [
    ["seats", "number:6:12", 6],
    ...without(FEW_SEATS, "gentleman_3", "gentleman_4"),
    ["kitty", ["first_trick", "first_points"], "first_trick"],
    ["spade_ten", "bool", false],
  ],
  extreme: FEW_SEATS,
};

// The variants in the dropdown, in groups.
export const VARIANT_GROUPS = [
  ["classic", ["classic", "omnibus", "spot_hearts", "hooligan", "black_maria", "parker_brothers", "chips"]],
  ["dutch", ["dutch", "dutch52"]],
  ["house", ["belgian", "achterhoeks_bar"]],
  ["team", ["achterhoeks"]],
  ["seats", ["three", "three_kitty", "five", "five_kitty", "dutch5", "three_jokers"]],
  ["decks", ["cancellation", "extreme"]],
];

// A field whose label differs in one variant.
const LABELS = { achterhoeks_bar: { end_score: "end_score_over" }, chips: { tie: "tie_chips" } };

function valueLabel(variant, option, value) {
  if (typeof value === "number" && ["queen_value", "jack_of_clubs"].includes(option)) return t("points_unit", { n: value });
  if (option === "passing") return passingName(variant, value);
  return t(`${option}_${value}`);
}

/** The default of a variant's option as the form offers it (undefined: the form does not offer it). */
export function optionDefault(variant, option) {
  const found = (VARIANT_OPTIONS[variant] || []).find(([o]) => o === option);
  return found ? found[2] : undefined;
}

/** A variant's option in the form's own words: its label and its value ("Jack of diamonds", "−10 points"); null for
 * an option the form does not offer. */
export function optionWords(variant, option, value) {
  const found = (VARIANT_OPTIONS[variant] || []).find(([o]) => o === option);
  if (!found) return null;
  const kind = found[1];
  const label = t((LABELS[variant] || {})[option] || option);
  if (kind === "bool") return { label, value: t(value ? "switch_on" : "switch_off") };
  if (typeof kind === "string") return { label, value: String(value) };
  return { label, value: valueLabel(variant, option, value) };
}

/** The fields the form shows for a variant: every option the core offers it. */
export function formFields(variant) {
  return VARIANT_OPTIONS[variant];
}

function field(state, variant, [option, kind, def]) {
  const id = `opt-${variant}-${option}`;
  const name = `${variant}.${option}`;
  const text = t((LABELS[variant] || {})[option] || option);
  const label = esc(text);
  if (kind === "bool") {
    return `<label class="check" for="${id}"><input type="checkbox" id="${id}" name="${name}"${def ? " checked" : ""}> ${label}</label>`;
  }
  if (typeof kind === "string" && kind.startsWith("number:")) {
    const [, min, max] = kind.split(":").map(Number);
    const error = fieldErrorText(state, id, say); // a number out of range, said in the page's own words
    if (LENGTHS.includes(option)) return lengthControl({ id, name, label: text, min, max, value: def, error });
    return numberField({ id, name, label: text, min, max, value: def, error });
  }
  const opts = kind.map((v) => `<option value="${v}"${v === def ? " selected" : ""}>${esc(valueLabel(variant, option, v))}</option>`).join("");
  return `<label for="${id}">${label}</label><select id="${id}" name="${name}">${opts}</select>`;
}

/** One variant's fieldset: a one-line summary with a link to its rules, then its options. */
function variantSet(state, variant) {
  const summary = `<p class="field-help variant-summary" id="summary-${variant}">${esc(t(`summary_${variant}`))} ` +
    `<button type="button" class="text-link" data-action="rules_at" data-section="${variant}">${esc(t("rules_of_game"))}</button></p>`;
  return `<fieldset class="grid variant-options" data-variant="${variant}" aria-describedby="summary-${variant}"${variant === "classic" ? "" : " hidden"}>` +
    `<legend class="sr-only">${esc(t(`variant_${variant}`))}</legend>${summary}${formFields(variant).map((f) => field(state, variant, f)).join("")}</fieldset>`;
}

/**
 * Show the chosen variant's options only; gentleman's rule 4 can be ticked only while cards are passed; where the
 * number of players is chosen, the passing cycle names its hands for that number (an across only when it is even).
 * Called when the form changes and after every redraw of it.
 */
export function syncOptionFields(container) {
  const variant = container.querySelector("#variant");
  if (!variant) return;
  for (const set of container.querySelectorAll(".variant-options")) {
    set.hidden = set.dataset.variant !== variant.value;
    const passes = set.querySelector(`[name="${set.dataset.variant}.passing"]`);
    const rule4 = set.querySelector(`[name="${set.dataset.variant}.gentleman_4"]`);
    if (passes && rule4) rule4.disabled = passes.value === "off";
    nameCycle(set, passes);
  }
}

/** The passing cycle's name for the number of players a variant's own field says (Cancellation Hearts). */
function nameCycle(set, passes) {
  const seats = set.querySelector(`[name="${set.dataset.variant}.seats"]`);
  const cycle = passes && seats ? passes.querySelector('option[value="cycle"]') : null;
  const n = seats ? Number(seats.value) : 0;
  if (!cycle || !Number.isInteger(n) || n < 3) return;
  const text = passingName(set.dataset.variant, "cycle", n);
  if (cycle.textContent !== text) cycle.textContent = text;
}

function variantChoices() {
  return VARIANT_GROUPS.map(([group, names]) => `<optgroup label="${esc(t(`variant_group_${group}`))}">` +
    names.map((v) => `<option value="${v}">${esc(t(`variant_${v}`))}</option>`).join("") + "</optgroup>").join("");
}

/** The optional deal number: the same number deals the same cards, on every machine. */
function dealField(state) {
  const error = state.fieldError && state.fieldError.field === "deal" ? say(state.fieldError.words) : null;
  const invalid = error ? ' aria-invalid="true" aria-describedby="deal-error"' : ' aria-describedby="deal-help"';
  return `<div class="grid deal-field">
      <label for="deal">${esc(t("deal_field"))}</label>
      <input id="deal" name="deal" inputmode="numeric" autocomplete="off" spellcheck="false" maxlength="12"` +
    ` placeholder="${esc(t("deal_placeholder"))}" value="${esc(state.dealPrefill)}"${invalid}>
      <p id="deal-help" class="field-help">${esc(t("deal_help"))}</p>
      ${error ? `<p id="deal-error" class="field-error" role="alert">${esc(error)}</p>` : ""}
    </div>`;
}

/**
 * A /?deal=N link: the number on top, with one button that plays it (it sends the new-table form below with this deal
 * number, as its own Create table does) and one that plays it offline.
 */
function dealLinkHtml(state, offline) {
  const n = state.dealLink;
  if (!n || state.screen === "joining") return "";
  const play = !offered("deal_online", offline) ? "" : `<button type="submit" form="create-form" class="primary" data-deal="${esc(n)}">${esc(t("deal_link_play", { n }))}</button>`;
  return `<div class="panel deal-link" data-deal-link="${esc(n)}">
    <h2>${esc(t("deal_no", { n }))}</h2>
    <p class="muted">${esc(t("deal_link_intro"))}</p>
    <p class="deal-link-buttons">${play}<button type="submit" form="create-form" name="where" value="offline" data-deal="${esc(n)}"` +
    `${offline ? ' class="primary"' : ""}>${esc(t("offline_button"))}</button></p>
  </div>`;
}

// The steps of the offline game's start, as its worker tells them (worker.js): our Python, the runtime, our modules.
const ENGINE_STEPS = ["files", "runtime", "python"];

/** How far the offline game's start is: a bar and its step, with the runtime's megabytes while they come. */
function progressHtml(progress) {
  const step = progress ? progress.step : "files";
  const n = ENGINE_STEPS.indexOf(step) + 1;
  const bytes = progress && step === "runtime" && progress.total > 0;
  const value = n - 1 + (bytes ? Math.min(1, progress.loaded / progress.total) : 0);
  const mb = (b) => decimal(b / 1e6, 1);
  const size = bytes ? `, ${t("offline_mb", { loaded: mb(progress.loaded), total: mb(progress.total) })}` : "";
  return `<span class="offline-progress" data-offline-progress="${step}">` +
    `<progress max="${ENGINE_STEPS.length}" value="${value.toFixed(2)}" aria-label="${esc(t("offline_starting"))}"></progress>` +
    `<span>${esc(t("offline_step", { n, of: ENGINE_STEPS.length, what: t(`offline_step_${step}`) }) + size)}</span></span>`;
}

/**
 * The offline game's engine as the person needs to know it: with no network, its start step by step, then "Ready to
 * play without a network" (or that it could not start); with one, whether this device keeps it for playing offline.
 * Drawn in its own slot (render/index.js), so that its progress never redraws the form being filled in.
 */
export function engineHtml(state, offline = noNetwork()) {
  const o = state.offline;
  const ready = `<span class="offline-state ready" data-offline-ready>${esc(t("offline_ready"))}</span>`;
  if (o.status === "starting") return progressHtml(o.progress);
  if (offline && o.status === "failed") return `<span class="offline-state" data-offline-failed>${esc(t("offline_failed"))}</span>`;
  if (offline) return o.status === "ready" ? ready : "";
  if (o.kept === true) return ready;
  return o.kept === "keeping" ? `<span class="offline-state" data-offline-keeping>${esc(t("offline_keeping"))}</span>` : "";
}

/** With no network: the notice with Play offline beside it (the new-table form below chooses the game) and how far
 * the offline game's engine is. */
function noNetworkHtml(state) {
  const play = state.screen === "joining" ? ""
    : `<button type="submit" form="create-form" name="where" value="offline" class="primary" data-offline-now>${esc(t("offline_button"))}</button>`;
  return `<div class="notice info offline-now" data-no-network>
    <p role="status">${esc(t("offline_no_network"))}</p>
    <div class="offline-now-play">${play}<span class="engine-slot" aria-live="polite"></span></div>
  </div>`;
}

/** The offline game kept in this browser, to continue where it was. */
function keptHtml(state) {
  if (!state.offline.saved || state.offline.playing) return "";
  return `<div class="panel comeback" data-offline-kept="${esc(state.offline.saved.table_id)}">
    <h2>${esc(t("offline_continue_title"))}</h2>
    <button type="button" class="primary" data-action="offline_continue">${esc(t("offline_continue"))}</button>
  </div>`;
}

/** Join a table by its code (online only: an offline page has nobody's table to join). */
function joinHtml(state) {
  const codeError = state.fieldError && state.fieldError.field === "code" ? say(state.fieldError.words) : null;
  return `<form class="panel" data-form="join">
    <h2>${esc(t("join_title"))}</h2>
    <label for="code">${esc(t("table_code"))}</label>
    <div class="row">
      <input id="code" name="code" autocapitalize="characters" autocomplete="off" spellcheck="false" placeholder="${esc(t("code_placeholder"))}" value="${esc(state.wantedCode || "")}"${codeError ? ' aria-invalid="true" aria-describedby="code-error"' : ""}>
      <button type="submit" class="primary">${esc(t("join_button"))}</button>
    </div>
    ${codeError ? `<p id="code-error" class="field-error" role="alert">${esc(codeError)}</p>` : ""}
  </form>`;
}

/**
 * The start page. With no network it offers only what plays without one (network.js holds the one list of what needs
 * it): Play offline beside the notice that says so, the kept game, and the new-table form to choose the offline game.
 */
export function startHtml(state) {
  if (showsInvite(state)) return inviteHtml(state);
  const p = state.prefs;
  const levels = ["easy", "medium", "hard"].map(
    (l) => `<option value="${l}"${l === p.level ? " selected" : ""}>${esc(t(`level_${l}`))}</option>`,
  ).join("");
  const variants = variantChoices();
  const sets = Object.keys(VARIANT_OPTIONS).map((v) => variantSet(state, v)).join("");
  const notice = state.notice ? `<p class="notice ${state.notice.kind}" role="alert">${esc(say(state.notice.words, state.table))}</p>` : "";
  const signedOut = state.signedOut !== null
    ? `<div class="notice error" role="alert" data-signed-out><p>${esc(t("signed_out", { name: state.signedOut }))}</p>
    <button type="button" class="primary" data-action="start_fresh">${esc(t("start_fresh"))}</button></div>`
    : "";
  const offline = noNetwork(); // no network: only what plays without one (network.js)
  const joining = state.screen === "joining" && state.offline.playing
    ? `<p class="notice info" role="status" data-offline-starting>${esc(t("offline_starting"))} <span class="engine-slot"></span></p>`
    : state.screen === "joining" && !state.wantedCode ? `<p class="notice info" role="status" data-finding>${esc(t("play_now_finding"))}</p>`
    : state.screen === "joining" ? `<p class="notice info" role="status">${esc(t("joining", { code: state.wantedCode }))}</p>` : "";
  const nameError = state.fieldError && state.fieldError.field === "name" ? say(state.fieldError.words) : null;
  return `<section class="start"><div class="start-main">
  <p class="tagline">${esc(t("tagline"))}</p>
  ${signedOut}${notice}${joining}${offline ? noNetworkHtml(state) : ""}
  ${dealLinkHtml(state, offline)}
  ${keptHtml(state)}
  ${comebackHtml(state)}
  <div class="panel name-panel">
    <label for="name">${esc(t("your_name"))}</label>
    <input id="name" name="name" maxlength="24" autocomplete="nickname" required placeholder="${esc(t("name_placeholder"))}" value="${esc(p.name)}"${nameError ? ' aria-invalid="true" aria-describedby="name-error"' : ""}>
    ${nameError ? `<p id="name-error" class="field-error" role="alert">${esc(nameError)}</p>` : ""}
  </div>
  ${waysHtml(offered("play_now", offline))}
  ${playNowHtml(state, !offered("play_now", offline))}
  <div id="open-slot"></div>
  ${offered("join", offline) ? joinHtml(state) : ""}
  </div><div class="start-side">
  <form class="panel new-table" data-form="create" id="create-form" novalidate aria-labelledby="create-title">
    <p class="kicker">${esc(t("create_friends"))}</p>
    <h2 id="create-title">${esc(t("create_title"))}</h2>
    <p class="field-help create-intro">${esc(t("create_intro"))}</p>
    <div class="grid variant-choice">
      <label for="variant">${esc(t("variant"))}</label>
      <select id="variant" name="variant" data-change="variant">${variants}</select>
    </div>
    ${sets}
    <div class="grid">
      <label for="level">${esc(t("computer_level"))}</label>
      <select id="level" name="level">${levels}</select>
    </div>
    ${dealField(state)}
    ${offered("create", offline) ? `<button type="submit" class="primary">${esc(t("create_button"))}</button>` : ""}
    <p class="offline-play">
      <button type="submit" name="where" value="offline" data-offline-play${offline ? ' class="primary"' : ""} aria-describedby="offline-help">${esc(t("offline_button"))}</button>
      <span id="offline-help" class="field-help">${esc(t("offline_help"))}</span>
      ${offline ? "" : '<span class="engine-slot" aria-live="polite"></span>'}
    </p>
  </form>
  ${offered("daily", offline) ? '<div id="daily-slot"></div>' : ""}
</div></section>`;
}

/**
 * The two ways to play, on top of the start page where the forms do not both fit the first screen (a phone): with
 * friends (a table of one's own, its link sent to them) and with strangers (Play now). Each brings its form into view.
 */
function waysHtml(playNow) {
  const way = (form, title, text) => `<button type="button" class="way" data-action="to_form" data-form="${form}">` +
    `<strong>${esc(t(title))}</strong><span>${esc(t(text))}</span></button>`;
  return `<nav class="panel ways" aria-labelledby="ways-title"><h2 id="ways-title">${esc(t("ways_title"))}</h2><div class="ways-row">` +
    `${way("create-form", "way_friends", "way_friends_text")}${playNow ? way("play-now-form", "way_strangers", "way_strangers_text") : ""}</div></nav>`;
}
