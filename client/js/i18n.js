// Translation lookup: one table per language, picked from the browser and switchable.
import en from "./i18n/en.js";
import nl from "./i18n/nl.js";
import { pluralOf } from "./format.js";

export const TABLES = { en, nl };
export const LANGS = Object.keys(TABLES);

let current = "en";

/** Pick the first supported language from the browser's list (Dutch or English). */
export function browserLanguage(list = navigator.languages || [navigator.language || "en"]) {
  for (const tag of list) {
    const base = String(tag).toLowerCase().split("-")[0];
    if (TABLES[base]) return base;
  }
  return "en";
}

export function setLanguage(lang) {
  current = TABLES[lang] ? lang : "en";
  document.documentElement.lang = current;
}

export function language() {
  return current;
}

/**
 * Return the text for `key` with {placeholders} filled in; a missing key is an error. A text with plural forms
 * ({one, other}) takes the form the language's plural rules give for `params.n`.
 */
export function t(key, params = {}) {
  let value = TABLES[current][key];
  if (value === undefined) throw new Error(`missing text "${key}" for ${current}`);
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
