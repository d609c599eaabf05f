// Words kept as data: a text of i18n/ by its key, with its values. render/say.js words them in the language of the
// moment; the state never holds a sentence.

/** Words kept as data: the text `key` of i18n/ with its values (render/say.js words them). */
export function words(key, params = {}) {
  return { key, params };
}
