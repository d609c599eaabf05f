// The person's options and name, kept in this browser (the effect `save_prefs`): the language, the pace at a table
// one hosts and playing the only card follow a change at once.
import { listedLanguage } from "./hosting.js";
import { checkPace, autoPlay } from "./pace.js";

/** The person's intents about options and name. */
export const INTENTS = {
  name_typed: (state, intent) => { // kept as it is typed, without a redraw; the server hears it once the field is left
    if (intent.name === state.prefs.name) return [];
    state.prefs.name = intent.name;
    return [{ do: "save_prefs" }, { do: "quiet" }];
  },
  name: (state, intent) => {
    const changed = intent.name !== state.prefs.name;
    state.prefs.name = intent.name; // saved without a redraw: the player may be typing in the next field
    // The name is told to the server in `hello`: greet again under the new name (when it is not the one greeted).
    return [...(changed ? [{ do: "save_prefs" }] : []), { do: "quiet" }, ...(state.session ? [] : [{ do: "greet_again" }])];
  },
  pref: (state, intent) => setPref(state, intent.key, intent.value),
};

/** Change a preference; the language, the pace at a table one hosts and playing the only card follow it. */
function setPref(state, key, value) {
  state.prefs[key] = value;
  const effects = [{ do: "save_prefs" }];
  if (key === "lang") effects.push({ do: "language" }, ...listedLanguage(state, value)); // a listed table says its language
  effects.push({ do: "apply_prefs" });
  if (key === "computerPace") effects.push(...checkPace(state, true)); // the host's new choice goes to the table
  if (key === "autoPlay") effects.push(...autoPlay(state));
  return effects;
}
