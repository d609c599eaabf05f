// Passing as the view describes it: all cards one way, each card its own way (the order chosen matters), or a pot.

/** "one" (every card to one seat), "several" (card i to pass_targets[i]), "pot", or "none" (no passing now). */
export function passForm(view) {
  if (!view || view.phase !== "passing") return "none";
  if (!view.pass_targets) return view.pass_count ? "pot" : "none";
  return new Set(view.pass_targets).size > 1 ? "several" : "one";
}

/** How many cards are chosen (the places of a "several" pass can have gaps). */
export function chosenCount(selected) {
  return selected.filter(Boolean).length;
}

/**
 * Choose or unchoose `card` for a pass whose order matters: it takes the first free place, or leaves its
 * place empty (the other cards keep theirs). Returns the new places, or null when every place is taken.
 */
export function toggleSlot(selected, card, count) {
  const places = Array.from({ length: count }, (_, i) => selected[i] ?? null);
  const at = places.indexOf(card);
  if (at >= 0) {
    places[at] = null;
    return places;
  }
  const free = places.indexOf(null);
  if (free < 0) return null;
  places[free] = card;
  return places;
}

/** Pairs [card, seat] of the cards passed or received, from parallel lists (seat null when unknown). */
export function cardSeats(cards, seats) {
  return (cards || []).map((card, i) => [card, seats ? seats[i] : null]);
}
