// Options remembered in the browser: table colour, card back, four-colour suits, sound, language, name, the computer
// players' pace at a table one hosts, animation speed, and playing the only legal card by itself.
const KEY = "hartenjagen.prefs";

export const CHOICES = {
  table: ["green", "blue", "red", "grey"],
  back: ["red", "blue", "green"],
  computerPace: ["slow", "normal", "fast"], // the computer players' pace at a table this player hosts
  anim: ["slow", "normal", "fast", "off"], // this browser's own animations
};

// Each animation speed as a factor of the normal times of the client's own animations (the card that comes in, the
// trick that is held and slides to its taker, the hand's cards). Off: nothing moves, and a finished trick stays only
// briefly (half the normal time), so that its last card is still seen.
const ANIM_FACTORS = { slow: 1.6, normal: 1, fast: 0.5, off: 0 };

/** The factor of the chosen animation speed (0 when animations are off). */
export function animFactor(prefs) {
  return ANIM_FACTORS[prefs && prefs.anim] ?? 1;
}

export function loadPrefs(defaultLang) {
  let saved = {};
  try {
    saved = JSON.parse(localStorage.getItem(KEY) || "{}") || {};
  } catch {
    saved = {};
  }
  if ("botPace" in saved) { // saved before the preference took its name: moved once
    const { botPace, ...rest } = saved;
    saved = { computerPace: botPace, ...rest };
    try {
      localStorage.setItem(KEY, JSON.stringify(saved));
    } catch {
      // a browser that refuses to store: the old name is read again next time
    }
  }
  return {
    name: "",
    table: "green",
    back: "red",
    fourColour: false,
    sound: true,
    lang: defaultLang,
    level: "medium",
    computerPace: "normal",
    anim: "normal",
    autoPlay: false, // play the only legal card by itself
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
  root.dataset.anim = prefs.anim; // the stylesheet scales (or stops) its animations
  // the browser's bar (and an installed app's title bar) takes the dark edge of the chosen felt
  const theme = document.querySelector('meta[name="theme-color"]');
  if (theme) theme.content = THEME_COLOURS[prefs.table] || THEME_COLOURS.green;
}

/** The dark edge of each table colour (--felt-dark in app.css). */
const THEME_COLOURS = { green: "#134a27", blue: "#12314d", red: "#4d151e", grey: "#2c3034" };
