// One control for how long a game lasts (the end score, or the score at which Dutch Hearts' count turns), the same in
// the Play now form and the new-table form: a number field with its common values one tap away. The forms take no
// check of the browser's own (`novalidate`): a number out of range is said at its field in the page's own words
// (`badNumber`, called when a form is sent; events.js).
import { t } from "../i18n.js";
import { esc } from "../html.js";

export const PRESETS = [25, 50, 100]; // the lengths most people choose (Play now's people meet at one table by them)

/** The error text of a form field, when the state holds a refusal for it (`state.fieldError`), else null. */
export function fieldErrorText(state, id, say) {
  return state.fieldError && state.fieldError.field === id ? say(state.fieldError.words) : null;
}

/**
 * A game's length: its label, a number field (`min`..`max`, `value`) and a button for each common value in range, the
 * one the field holds pressed; `error` (a text) is said under it and describes the field.
 */
export function lengthControl({ id, name, label, min, max, value, option, error }) {
  const described = error ? ` aria-invalid="true" aria-describedby="${id}-error"` : "";
  const presets = PRESETS.filter((n) => n >= min && n <= max).map((n) =>
    `<button type="button" class="length-preset" data-action="preset" data-for="${id}" data-value="${n}"` +
    ` aria-pressed="${n === Number(value)}" aria-label="${esc(t("points_unit", { n }))}">${n}</button>`).join("");
  return `<label for="${id}">${esc(label)}</label>` +
    `<div class="length-control"><input type="number" id="${id}" name="${name}" min="${min}" max="${max}" step="1"` +
    ` inputmode="numeric" value="${esc(value)}"${option ? ` data-option="${option}"` : ""}${described}>` +
    `<span class="length-presets" role="group" aria-label="${esc(t("length_presets"))}">${presets}</span></div>` +
    (error ? `<p id="${id}-error" class="field-error" role="alert">${esc(error)}</p>` : "");
}

/** A number field with the page's own words for a value out of range (the new-table form's other numbers). */
export function numberField({ id, name, label, min, max, value, error }) {
  const described = error ? ` aria-invalid="true" aria-describedby="${id}-error"` : "";
  return `<label for="${id}">${esc(label)}</label>` +
    `<input type="number" id="${id}" name="${name}" min="${min}" max="${max}" step="1" value="${esc(value)}" inputmode="numeric"${described}>` +
    (error ? `<p id="${id}-error" class="field-error" role="alert">${esc(error)}</p>` : "");
}

/** A preset pressed: its field takes the value (the form is not redrawn: the buttons follow the field, `syncLengths`). */
export function choosePreset(button, root) {
  const input = root.querySelector(`#${CSS.escape(button.dataset.for)}`);
  if (!input) return;
  input.value = button.dataset.value;
  syncLengths(root);
}

/** Each preset pressed while its field holds its value (after typing, a preset's press and every redraw). */
export function syncLengths(root) {
  for (const button of root.querySelectorAll(".length-preset")) {
    const input = root.querySelector(`#${CSS.escape(button.dataset.for)}`);
    const on = Boolean(input) && input.value.trim() !== "" && Number(input.value) === Number(button.dataset.value);
    if (button.getAttribute("aria-pressed") !== String(on)) button.setAttribute("aria-pressed", String(on));
  }
}

/**
 * The first number field of `form` in view that holds no whole number in its range (the browser's own check is off),
 * as the intent that says so at the field; null when every one is fine.
 */
export function badNumber(form) {
  const bad = [...form.querySelectorAll('input[type="number"]')]
    .find((input) => !input.disabled && input.getClientRects().length > 0 && !input.validity.valid);
  if (!bad) return null;
  return { type: "field_problem", field: bad.id, words: { key: "number_range", params: { min: bad.min, max: bad.max } } };
}
