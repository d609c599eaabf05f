// Cards as two-letter names ("QS", "TD"): sorting, names for people and screen readers, and drawing.
import { t } from "./i18n.js";
import { esc } from "./html.js";

export const RANKS = "23456789TJQKA";
export const SUITS = "CDSH";
export const SYMBOLS = { C: "♣", D: "♦", S: "♠", H: "♥" };
// Alternating colours in the hand: clubs (black), diamonds (red), spades (black), hearts (red).
const SUIT_ORDER = { C: 0, D: 1, S: 2, H: 3 };

export function sortHand(cards) {
  return [...cards].sort(
    (a, b) => SUIT_ORDER[a[1]] - SUIT_ORDER[b[1]] || RANKS.indexOf(a[0]) - RANKS.indexOf(b[0]),
  );
}

export function rankLabel(card) {
  return t("rank_short")[card[0]] || card[0];
}

/** Short label such as "Q♠" ("V♠" in Dutch). */
export function shortName(card) {
  return rankLabel(card) + SYMBOLS[card[1]];
}

/** Accessible name such as "queen of spades" / "schoppen vrouw". */
export function cardName(card) {
  return t("card_name", { rank: t("rank_names")[card[0]], suit: t("suit_names")[card[1]] });
}

/**
 * The face of a card as HTML, drawn with CSS and text only (crisp at any size).
 * `tag` is "button" for the player's own cards and "div" for cards on the table.
 */
export function cardFace(card, { tag = "div", classes = [], attrs = "", label = cardName(card) } = {}) {
  const suit = card[1];
  const cls = ["card", "face", `suit-${suit}`, ...classes].join(" ");
  const role = tag === "div" ? ' role="img"' : "";
  const rank = esc(rankLabel(card));
  const sym = SYMBOLS[suit];
  return `<${tag} class="${cls}" data-card="${card}"${role} aria-label="${esc(label)}" ${attrs}>` +
    `<span class="corner tl" aria-hidden="true"><b>${rank}</b><i>${sym}</i></span>` +
    `<span class="pip" aria-hidden="true">${sym}</span>` +
    `<span class="corner br" aria-hidden="true"><b>${rank}</b><i>${sym}</i></span>` +
    `</${tag}>`;
}

export function cardBack(classes = []) {
  return `<div class="${["card", "back", ...classes].join(" ")}" aria-hidden="true"></div>`;
}
