// Translation lookup: one table per language, picked from the browser and switchable.
import en from "./i18n/en.js";
import nl from "./i18n/nl.js";
import { pluralOf, decimal } from "./format.js";
import { language, speak } from "./language.js";

export const TABLES = { en, nl };
export const LANGS = Object.keys(TABLES);

/** Pick the first supported language from the browser's list (Dutch or English). */
export function browserLanguage(list = navigator.languages || [navigator.language || "en"]) {
  for (const tag of list) {
    const base = String(tag).toLowerCase().split("-")[0];
    if (TABLES[base]) return base;
  }
  return "en";
}

export function setLanguage(lang) {
  speak(TABLES[lang] ? lang : "en");
  document.documentElement.lang = language();
}

export { language };

/**
 * How this device is mostly pointed with: "mouse" where the main pointer is fine (a mouse or a trackpad: one clicks),
 * else "touch" (one taps).
 */
export function pointerKind() {
  const fine = typeof matchMedia === "function" && matchMedia("(pointer: fine)").matches;
  return fine ? "mouse" : "touch";
}

/**
 * Return the text for `key` with {placeholders} filled in; a missing key is an error. A text with plural forms
 * ({one, other}) takes the form the language's plural rules give for `params.n`; a text with pointer forms
 * ({touch, mouse}: "tap" or "click") the form for this device's pointer.
 */
export function t(key, params = {}) {
  let value = TABLES[language()][key];
  if (value === undefined) throw new Error(`missing text "${key}" for ${language()}`);
  if (value && typeof value === "object" && !Array.isArray(value) && "touch" in value) value = value[pointerKind()];
  if (value && typeof value === "object" && !Array.isArray(value) && "other" in value) {
    value = value[pluralOf(params.n)] ?? value.other;
  }
  if (typeof value !== "string") return value;
  return value.replace(/\{(\w+)\}/g, (_, name) => (name in params ? String(params[name]) : `{${name}}`));
}

/** Join names as "A, B and C" in the current language. */
export function joinNames(names) {
  if (names.length <= 1) return names.join("");
  return `${names.slice(0, -1).join(", ")} ${t("and")} ${names[names.length - 1]}`;
}

const SYMBOLS = { C: "♣", D: "♦", S: "♠", H: "♥" };

/** A card's short label in the current language: "Q♠" ("V♠" in Dutch), "10♦"; the joker "★Joker". */
export function cardLabel(card) {
  if (card === "JK") return `★${t("joker_short")}`;
  return (t("rank_short")[card[0]] || card[0]) + SYMBOLS[card[1]];
}

/**
 * The sentence of a game core's reason (`{code, params}`: why a card or a move is refused) in the current language:
 * `refused_<code>` filled in with its parameters. An unknown code shows as itself.
 */
export function reasonText(reason) {
  return reasonWords("refused", reason);
}

/** The sentence of a hand review's reason (`{code, params}`: what a costly decision did): `review_reason_<code>`. */
export function reviewReasonText(reason) {
  return reasonWords("review_reason", reason);
}

function reasonWords(prefix, reason) {
  if (!reason || !(`${prefix}_${reason.code}` in TABLES[language()])) return (reason && reason.code) || "";
  const given = reason.params || {};
  const params = {};
  for (const [name, value] of Object.entries(given)) params[name] = reasonParam(name, value, given);
  return t(`${prefix}_${reason.code}`, params);
}

/**
 * One parameter of a reason, as its sentence shows it: a card (`card`, `first`, `high`) or cards by their labels, a
 * suit (0 clubs to 3 hearts) and a phase by their words, points saved with one decimal, a seat by its `name` where the
 * reason gives one (else "Seat 2"), a list as "a, b".
 */
function reasonParam(name, value, given) {
  if (name === "card" || name === "first" || name === "high") return cardLabel(value);
  if (name === "cards") return value.map(cardLabel).join(" ");
  if (name === "suit") return t("refusal_suits")[value] ?? String(value);
  if (name === "phase") return t("refusal_phases")[value] ?? String(value);
  if (name === "cost") return decimal(value, 1);
  if (name === "seat") return given.name || t("seat_n", { n: value + 1 });
  if (Array.isArray(value)) return value.map(String).join(", ");
  return value;
}

/**
 * The sentence of a server `error` message in the current language: its code's text (`error_<code>`) filled in with
 * the message's parameters. A field's `problem` is worded from `problem_<problem>`, a `variant` by its name, a list as
 * "a, b, c", a number as the language writes it, and the game core's `reason` by `reasonText`. An unknown code shows
 * as itself.
 */
export function errorText(msg) {
  const table = TABLES[language()];
  if (!msg || !(`error_${msg.code}` in table)) return (msg && msg.code) || "";
  const params = {};
  for (const [name, value] of Object.entries(msg)) params[name] = paramText(name, value);
  if (msg.problem) params.problem = `problem_${msg.problem}` in table ? t(`problem_${msg.problem}`, params) : msg.problem;
  return t(`error_${msg.code}`, params);
}

/** One parameter of a server error, as its sentence shows it. */
function paramText(name, value) {
  if (name === "reason" && value && typeof value === "object") return reasonText(value);
  if (name === "variant" && `variant_${value}` in TABLES[language()]) return t(`variant_${value}`);
  if (Array.isArray(value)) return value.map(String).join(", ");
  if (typeof value === "number") return value.toLocaleString(language());
  return value;
}
