// Cards as two-letter names ("QS", "TD", the joker "JK"): sorting, names for people and screen readers, drawing,
// and the copies of a card (with two or three decks a hand can hold the same card twice).
import { t, cardLabel } from "./i18n.js";
import { esc } from "./html.js";

export const RANKS = "23456789TJQKA";
export const SUITS = "CDSH";
export const SYMBOLS = { C: "♣", D: "♦", S: "♠", H: "♥" };
export const JOKER = "JK";
const JOKER_MARK = "★";
// Alternating colours in the hand: clubs (black), diamonds (red), spades (black), hearts (red); the jokers count as
// hearts and lie after the ace of hearts (the first one played ranks above it).
const SUIT_ORDER = { C: 0, D: 1, S: 2, H: 3 };

/** Whether a card is a joker. */
export function isJoker(card) {
  return card === JOKER;
}

/** A card's place in the sorted hand: its suit, then its rank (a joker after the ace of hearts). */
function order(card) {
  return isJoker(card) ? [SUIT_ORDER.H, RANKS.length] : [SUIT_ORDER[card[1]], RANKS.indexOf(card[0])];
}

export function sortHand(cards) {
  return [...cards].sort((a, b) => {
    const [sa, ra] = order(a);
    const [sb, rb] = order(b);
    return sa - sb || ra - rb;
  });
}

export function rankLabel(card) {
  if (isJoker(card)) return JOKER_MARK;
  return t("rank_short")[card[0]] || card[0];
}

/** Short label such as "Q♠" ("V♠" in Dutch); the joker is "★Joker". */
export function shortName(card) {
  return cardLabel(card);
}

/** Accessible name such as "queen of spades" / "schoppen vrouw"; "joker". */
export function cardName(card) {
  if (isJoker(card)) return t("joker_name");
  return t("card_name", { rank: t("rank_names")[card[0]], suit: t("suit_names")[card[1]] });
}

/** The key of one copy of a card in a hand: its name and which copy it is ("AS#0", "AS#1"). */
export function copyKey(card, copy) {
  return `${card}#${copy}`;
}

/** The card a copy's key stands for. */
export function keyCard(key) {
  return key.split("#")[0];
}

/** The cards of a hand as they lie, each with its copy's key: [[card, key], ...]. */
export function keyed(cards) {
  const seen = {};
  return cards.map((card) => {
    const copy = seen[card] || 0;
    seen[card] = copy + 1;
    return [card, copyKey(card, copy)];
  });
}

/** The keys of the copies `names` mean (a name twice: its first two copies), for marking cards of a hand. */
export function copiesOf(names) {
  return new Set(keyed(names || []).map(([, key]) => key));
}

/**
 * The face of a card as HTML, drawn with CSS and text only (crisp at any size).
 * `tag` is "button" for the player's own cards and "div" for cards on the table; `inner` is HTML on the card (a
 * trick's card carries its player's name: it moves, and is covered, with the card).
 */
export function cardFace(card, { tag = "div", classes = [], attrs = "", label = cardName(card), inner = "" } = {}) {
  if (isJoker(card)) return jokerFace({ tag, classes, attrs, label, inner });
  const suit = card[1];
  const cls = ["card", "face", `suit-${suit}`, ...classes].join(" ");
  const role = tag === "div" ? ' role="img"' : "";
  const rank = esc(rankLabel(card));
  const sym = SYMBOLS[suit];
  return `<${tag} class="${cls}" data-card="${card}"${role} aria-label="${esc(label)}" ${attrs}>` +
    `<span class="corner tl" aria-hidden="true"><b>${rank}</b><i>${sym}</i></span>` +
    `<span class="pip" aria-hidden="true">${sym}</span>` +
    `<span class="corner br" aria-hidden="true"><b>${rank}</b><i>${sym}</i></span>` +
    `${inner}</${tag}>`;
}

/** The joker's face: a star in each corner over the word, a large star in the middle, drawn in its own colours. */
function jokerFace({ tag, classes, attrs, label, inner = "" }) {
  const cls = ["card", "face", "joker", ...classes].join(" ");
  const role = tag === "div" ? ' role="img"' : "";
  const word = esc(t("joker_short"));
  const corner = (where) => `<span class="corner ${where}" aria-hidden="true"><b>${JOKER_MARK}</b><i>${word}</i></span>`;
  return `<${tag} class="${cls}" data-card="${JOKER}"${role} aria-label="${esc(label)}" ${attrs}>` +
    `${corner("tl")}<span class="pip" aria-hidden="true">${JOKER_MARK}</span>${corner("br")}${inner}</${tag}>`;
}

/**
 * A card played to a trick: where an identical card cancelled it (two decks), struck through with a small
 * "cancelled" label over it, and its accessible name says so.
 */
export function playedFace(card, { cancelled = false, classes = [], label = cardName(card), inner = "" } = {}) {
  if (!cancelled) return cardFace(card, { classes, label, inner });
  const face = cardFace(card, { classes: [...classes, "cancelled"], label: `${label}, ${t("card_cancelled")}`, inner });
  return `<span class="cancel-wrap">${face}<span class="cancel-tag" aria-hidden="true">${esc(t("card_cancelled"))}</span></span>`;
}

export function cardBack(classes = []) {
  return `<div class="${["card", "back", ...classes].join(" ")}" aria-hidden="true"></div>`;
}
