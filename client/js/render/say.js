// Words: what update.js keeps as data (a text's key and its values, a server error's code and parameters, a
// refusal's reason, a hint's order) worded here in the language of the moment. See docs/glossary.md ("words").
import { t, errorText, reasonText } from "../i18n.js";
import { shortName } from "../cards.js";
import { seatName } from "./seats.js";

/**
 * The text of `words` at `table` (a value `{seat}` in `params` is that seat's name there). Forms:
 * `{key, params}` a text of i18n/; `{server}` an error message from the server (its code and parameters, worded by
 * `errorText`); `{refusal}` a move's refusal reason (the core's `{code, params}`, worded by `reasonText`); `{hint}`
 * the hint's note (its cards in the order they go, or null); `{parts}` several words, one after the other.
 */
export function say(words, table = null) {
  if (!words) return "";
  if (typeof words === "string") return words;
  if (words.parts) return words.parts.map((w) => say(w, table)).filter(Boolean).join(" ");
  if (words.server) return errorText(words.server);
  if (words.refusal) return `${t("refusal_prefix")} ${reasonText(words.refusal)}`;
  if ("hint" in words) {
    if (!words.hint) return t("hint_play");
    const ordinals = t("ordinals");
    return t("hint_pass_order", { cards: words.hint.map((card, i) => `${ordinals[i]} ${shortName(card)}`).join(", ") });
  }
  const params = {};
  for (const [name, value] of Object.entries(words.params || {})) params[name] = valueText(value, table);
  return t(words.key, params);
}

/** One value of a text: a seat's name (`{seat}`), cards (`{cards}`: "10♦ A♠"), other words, or the value itself. */
function valueText(value, table) {
  if (value && typeof value === "object" && "seat" in value) {
    return table && table.seats[value.seat] ? seatName(table, value.seat) : "";
  }
  if (value && typeof value === "object" && Array.isArray(value.cards)) return value.cards.map(shortName).join(" ");
  if (value && typeof value === "object") return say(value, table);
  return value;
}
