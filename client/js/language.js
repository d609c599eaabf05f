// The language of the moment, on its own: i18n.js sets it (setLanguage checks the texts have it), and the texts
// and the number and date formats (format.js) read it.
let current = "en";

/** The language the page speaks now ("en" or "nl"). */
export function language() {
  return current;
}

/** Make `lang` the language of the moment (only through i18n.js's setLanguage, which checks it). */
export function speak(lang) {
  current = lang;
}
