// The cards of the hand just over, in the score table: the point cards each seat took (whatever scores in the
// variant, as the server lists them in view.point_cards) and what the kitty held, with who took each card. The
// server opens them only once the hand is over; while a hand is played both fields are null and nothing is drawn.
import { t } from "../i18n.js";
import { esc } from "../html.js";
import { sortHand, shortName, cardName } from "../cards.js";
import { seatName } from "./seats.js";

/** One card as a small face in a line of text: "Q♠" in its suit's colour, its full name for screen readers. */
function cardChip(card, fromKitty = false) {
  const mark = fromKitty ? ` <span class="sr-only">(${esc(t("kitty_label"))})</span>` : "";
  return `<span class="card-chip suit-${card[1]}${fromKitty ? " from-kitty" : ""}" data-card="${card}"` +
    `${fromKitty ? ` title="${esc(t("kitty_label"))}"` : ""}><span aria-hidden="true">${esc(shortName(card))}</span>` +
    `<span class="sr-only">${esc(cardName(card))}</span>${mark}</span>`;
}

/** The kitty cards `seat` took, by name and how often (two decks may put the same card in a kitty twice). */
function kittyOf(v, seat) {
  const out = {};
  (v.kitty_cards || []).forEach((card, i) => {
    if (v.kitty_takers[i] === seat) out[card] = (out[card] || 0) + 1;
  });
  return out;
}

/** One seat's cards: its point cards in hand order, those that came from the kitty marked, or "none". */
function pointCardsCell(table, v, seat) {
  const cards = sortHand(v.point_cards[seat] || []);
  const kitty = kittyOf(v, seat);
  const chips = cards.map((card) => {
    const fromKitty = kitty[card] > 0;
    if (fromKitty) kitty[card] -= 1;
    return cardChip(card, fromKitty);
  });
  const body = chips.length ? `<div class="chips">${chips.join(" ")}</div>` : `<span class="muted">${esc(t("point_cards_none"))}</span>`;
  return `<li class="point-cards" data-seat="${seat}" data-cards="${esc(cards.join(" "))}">` +
    `<span class="sr-only">${esc(seatName(table, seat))}: </span>${body}</li>`;
}

/**
 * Under the score table, while the hand just scored is over: each seat's point cards in a column under its name (laid
 * out on the score table's columns, outside the table, which keeps a row per hand); "" while a hand is played, when
 * the server sends none.
 */
export function pointCardsHtml(table, v, order, wrapNames) {
  if (!Array.isArray(v.point_cards) || !v.history.length) return "";
  const n = v.history.length;
  const id = `point-cards-${n}`;
  return `<div class="hand-cards${wrapNames ? " wrap-names" : ""}" data-style="--cols:${order.length}" data-hand="${n - 1}">` +
    `<p class="hand-cards-title" id="${id}">${esc(t("point_cards_title", { n }))}</p>` +
    `<ul aria-labelledby="${id}">${order.map((seat) => pointCardsCell(table, v, seat)).join("")}</ul></div>`;
}

// Stands for a piece of HTML in a text while the text is escaped (no text holds it).
const SLOT = "\u0001";

/** A text with one placeholder filled by HTML: the text escaped, the HTML as it is. */
function withHtml(key, name, html, params = {}) {
  return esc(t(key, { ...params, [name]: SLOT })).replace(SLOT, html);
}

/** Under the score table, once the hand is over: what the kitty held and who took it ("The kitty held: Q♠ → Ellen"). */
export function kittyHeldHtml(table, v) {
  if (!Array.isArray(v.kitty_cards) || !v.kitty_cards.length) return "";
  const items = v.kitty_cards.map((card, i) => {
    const seat = v.kitty_takers[i];
    const name = seat === table.you ? t("kitty_you") : seat >= 0 ? seatName(table, seat) : t("kitty_nobody");
    return `<span class="kitty-held-card" data-taker="${seat}">${withHtml("card_to", "card", cardChip(card), { name })}</span>`;
  });
  const takers = v.kitty_takers.join(" ");
  return `<p class="kitty-held" data-kitty-cards="${esc(v.kitty_cards.join(" "))}" data-kitty-takers="${takers}">` +
    `${withHtml("kitty_held", "cards", items.join(", "))}</p>`;
}
