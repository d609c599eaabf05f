// The moment of a table: who must do what right now. A hint, a selection, a refusal and a card played by itself each
// belong to one moment, and go when the game moves on.

/** Who must do what right now; a hint or a selection belongs to one such moment. */
export function momentKey(table) {
  const v = table && table.view;
  if (!v) return null;
  return `${v.hand_no}:${v.phase}:${v.tricks.length}:${v.trick ? v.trick.cards.length : 0}`;
}
