// The start screen: name, create a table with its options, or join one by code.
import { t } from "../i18n.js";
import { esc } from "../html.js";
import { showsInvite, inviteHtml, comebackHtml } from "./invite.js";

// Options per variant with their defaults, as shared/rules.py knows them.
export const VARIANT_OPTIONS = {
  classic: [
    ["passing", ["cycle", "off", "left", "right"], "cycle"],
    ["end_score", "number:25:500", 100],
    ["queen_breaks_hearts", "bool", false],
    ["moon", ["others", "self", "choose"], "others"],
    ["jack_of_diamonds", [0, -10], 0],
    ["tie", ["share", "play_on"], "share"],
    ["first_trick_points", "bool", false],
  ],
  dutch: [
    ["turn_score", "number:25:200", 50],
    ["dutch_end", ["at_or_below_zero", "exactly_zero"], "at_or_below_zero"],
    ["queen_value", [5, 13], 5],
    ["jack_of_clubs", [2, 0], 2],
    ["moon", ["choose", "others", "self"], "choose"],
    ["passing", ["off", "cycle", "left", "right"], "off"],
    ["jack_of_diamonds", [0, -10], 0],
    ["tie", ["share", "play_on"], "share"],
    ["first_trick_points", "bool", true],
  ],
};

function valueLabel(option, value) {
  if (typeof value === "number" && ["queen_value", "jack_of_clubs"].includes(option)) return t("points_unit", { n: value });
  return t(`${option}_${value}`);
}

function field(variant, [option, kind, def]) {
  const id = `opt-${variant}-${option}`;
  const name = `${variant}.${option}`;
  if (kind === "bool") {
    return `<label class="check" for="${id}"><input type="checkbox" id="${id}" name="${name}"${def ? " checked" : ""}> ${esc(t(option))}</label>`;
  }
  if (typeof kind === "string" && kind.startsWith("number:")) {
    const [, min, max] = kind.split(":");
    return `<label for="${id}">${esc(t(option))}</label>` +
      `<input type="number" id="${id}" name="${name}" min="${min}" max="${max}" step="1" value="${def}" inputmode="numeric">`;
  }
  const opts = kind.map((v) => `<option value="${v}"${v === def ? " selected" : ""}>${esc(valueLabel(option, v))}</option>`).join("");
  return `<label for="${id}">${esc(t(option))}</label><select id="${id}" name="${name}">${opts}</select>`;
}

/** The optional deal number: the same number deals the same cards, on every machine. */
function dealField(state) {
  const error = state.fieldError && state.fieldError.field === "deal" ? state.fieldError.text : null;
  const invalid = error ? ' aria-invalid="true" aria-describedby="deal-error"' : ' aria-describedby="deal-help"';
  return `<div class="grid deal-field">
      <label for="deal">${esc(t("deal_field"))}</label>
      <input id="deal" name="deal" inputmode="numeric" autocomplete="off" spellcheck="false" maxlength="12"` +
    ` placeholder="${esc(t("deal_placeholder"))}" value="${esc(state.dealPrefill)}"${invalid}>
      <p id="deal-help" class="field-help">${esc(t("deal_help"))}</p>
      ${error ? `<p id="deal-error" class="field-error" role="alert">${esc(error)}</p>` : ""}
    </div>`;
}

export function startHtml(state) {
  if (showsInvite(state)) return inviteHtml(state);
  const p = state.prefs;
  const levels = ["easy", "medium", "hard"].map(
    (l) => `<option value="${l}"${l === p.level ? " selected" : ""}>${esc(t(`level_${l}`))}</option>`,
  ).join("");
  const variants = Object.keys(VARIANT_OPTIONS).map(
    (v) => `<option value="${v}">${esc(t(`variant_${v}`))}</option>`,
  ).join("");
  const sets = Object.entries(VARIANT_OPTIONS).map(
    ([v, fields]) => `<fieldset class="grid variant-options" data-variant="${v}"${v === "classic" ? "" : " hidden"}>` +
      `<legend class="sr-only">${esc(t(`variant_${v}`))}</legend>${fields.map((f) => field(v, f)).join("")}</fieldset>`,
  ).join("");
  const notice = state.notice ? `<p class="notice ${state.notice.kind}" role="alert">${esc(state.notice.text)}</p>` : "";
  const joining = state.screen === "joining" ? `<p class="notice info" role="status">${esc(t("joining", { code: state.wantedCode }))}</p>` : "";
  return `<section class="start">
  <p class="tagline">${esc(t("tagline"))}</p>
  ${notice}${joining}
  ${comebackHtml(state)}
  <div class="panel name-panel">
    <label for="name">${esc(t("your_name"))}</label>
    <input id="name" name="name" maxlength="24" autocomplete="nickname" required placeholder="${esc(t("name_placeholder"))}" value="${esc(p.name)}">
  </div>
  <form class="panel" data-form="join">
    <h2>${esc(t("join_title"))}</h2>
    <label for="code">${esc(t("table_code"))}</label>
    <div class="row">
      <input id="code" name="code" autocapitalize="characters" autocomplete="off" spellcheck="false" placeholder="${esc(t("code_placeholder"))}" value="${esc(state.wantedCode || "")}">
      <button type="submit" class="primary">${esc(t("join_button"))}</button>
    </div>
  </form>
  <div id="daily-slot"></div>
  <form class="panel" data-form="create">
    <h2>${esc(t("create_title"))}</h2>
    <div class="grid">
      <label for="variant">${esc(t("variant"))}</label>
      <select id="variant" name="variant" data-change="variant">${variants}</select>
      <label for="level">${esc(t("bot_level"))}</label>
      <select id="level" name="level">${levels}</select>
    </div>
    ${sets}
    ${dealField(state)}
    <button type="submit" class="primary">${esc(t("create_button"))}</button>
  </form>
</section>`;
}
