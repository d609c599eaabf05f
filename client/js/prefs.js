// Options remembered in the browser: table colour, card back, four-colour suits, sound, language, name.
const KEY = "hartenjagen.prefs";

export const CHOICES = {
  table: ["green", "blue", "red", "grey"],
  back: ["red", "blue", "green"],
};

export function loadPrefs(defaultLang) {
  let saved = {};
  try {
    saved = JSON.parse(localStorage.getItem(KEY) || "{}") || {};
  } catch {
    saved = {};
  }
  return {
    name: "",
    table: "green",
    back: "red",
    fourColour: false,
    sound: true,
    lang: defaultLang,
    level: "medium",
    ...saved,
  };
}

export function savePrefs(prefs) {
  localStorage.setItem(KEY, JSON.stringify(prefs));
}

/** Apply the visual options to the document root as data-* attributes the CSS reads. */
export function applyPrefs(prefs) {
  const root = document.documentElement;
  root.dataset.table = prefs.table;
  root.dataset.back = prefs.back;
  root.dataset.fourColour = prefs.fourColour ? "on" : "off";
  // the browser's bar (and an installed app's title bar) takes the dark edge of the chosen felt
  const theme = document.querySelector('meta[name="theme-color"]');
  if (theme) theme.content = THEME_COLOURS[prefs.table] || THEME_COLOURS.green;
}

/** The dark edge of each table colour (--felt-dark in app.css). */
const THEME_COLOURS = { green: "#134a27", blue: "#12314d", red: "#4d151e", grey: "#2c3034" };
