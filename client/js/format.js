// Numbers, dates and plural forms in the language of the moment (Intl, for English and Dutch alike):
// "1,0" and "16,7%" in Dutch, "1.0" and "16.7%" in English, "1 ronde" beside "2 rondes", "1 december 2026".
import { language } from "./language.js";

const cache = new Map();

function cached(kind, options, make) {
  const key = `${kind}:${language()}:${JSON.stringify(options)}`;
  if (!cache.has(key)) cache.set(key, make(language(), options));
  return cache.get(key);
}

/** A number with exactly `decimals` digits after the decimal sign of the language (no grouping of thousands). */
export function decimal(n, decimals = 0) {
  const options = { minimumFractionDigits: decimals, maximumFractionDigits: decimals, useGrouping: false };
  return cached("number", options, (lang, o) => new Intl.NumberFormat(lang, o)).format(n);
}

/** A percentage given as a number from 0 to 100 ("16.7" → "16.7%" or "16,7%"), with at most one decimal. */
export function percent(n) {
  const options = { style: "percent", maximumFractionDigits: 1 };
  return cached("percent", options, (lang, o) => new Intl.NumberFormat(lang, o)).format(n / 100);
}

/** The plural category of `n` in the language ("one", "other", …), as the texts' plural forms are keyed. */
export function pluralOf(n) {
  return cached("plural", {}, (lang) => new Intl.PluralRules(lang)).select(Number(n));
}

/** A calendar day "2026-12-01" (UTC, as the server names days) in words: "1 December 2026", "1 december 2026". */
export function dayText(isoDay) {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(String(isoDay));
  if (!match) return String(isoDay);
  const at = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  const options = { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" };
  return cached("day", options, (lang, o) => new Intl.DateTimeFormat(lang, o)).format(at);
}

/** A moment (ms since 1970) as a short date and time: "1 Dec 2026, 14:05". */
export function momentText(ms) {
  const options = { day: "numeric", month: "short", year: "numeric", hour: "2-digit", minute: "2-digit" };
  return cached("moment", options, (lang, o) => new Intl.DateTimeFormat(lang, o)).format(ms);
}

/** A moment (ms since 1970) as a date in words: "1 December 2026". */
export function dateText(ms) {
  const options = { day: "numeric", month: "long", year: "numeric" };
  return cached("date", options, (lang, o) => new Intl.DateTimeFormat(lang, o)).format(ms);
}
