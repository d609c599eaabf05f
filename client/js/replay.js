// Replays as plain data: where a hand stands after a number of steps, and how steps move.
// A hand's steps: 0 = the cards as dealt; with passing, 1 = after the exchange; then one step per card played.

// Where each seat passes to: as shared/rules.py's PASS_OFFSETS (replays from before pass_targets was sent).
const PASS_OFFSETS = { hold: 0, left: 1, across: 2, right: 3 };

/** The number of seats a hand was dealt to (four in a replay that does not say). */
export function handSeats(hand) {
  return hand.dealt && hand.dealt.length ? hand.dealt.length : 4;
}

/** One empty list per seat of the hand. */
function perSeat(hand) {
  return Array.from({ length: handSeats(hand) }, () => []);
}

/** Whether cards were passed in this hand of a replay. */
export function hasPasses(hand) {
  return Boolean(hand.passes && hand.passes.some((p) => p && p.length));
}

/** The first step at which cards are played, and the last step of the hand. */
export function stepRange(hand) {
  const first = hasPasses(hand) ? 1 : 0;
  const played = hand.tricks.reduce((n, trick) => n + trick.cards.length, 0);
  return { first, last: first + played };
}

/** The steps at which a trick is complete. */
function trickEnds(hand) {
  const ends = [];
  let at = stepRange(hand).first;
  for (const trick of hand.tricks) {
    at += trick.cards.length;
    ends.push(at);
  }
  return ends;
}

/** Who a seat passes to in this hand when all its cards go one way (null without passing, or when they go several ways). */
export function passTarget(hand, seat) {
  const targets = passOffsets(hand);
  if (!targets.length || new Set(targets).size > 1 || targets[0] === 0) return null;
  return (seat + targets[0]) % handSeats(hand);
}

/** The offset each passed card goes to, in the order a seat listed them (0: into the pot). */
function passOffsets(hand) {
  if (hand.pass_targets) return hand.pass_targets;
  const offset = PASS_OFFSETS[hand.pass_direction] || 0;
  return offset ? [offset, offset, offset] : [];
}

/** Whether this hand's cards went into a pot, to be shuffled and dealt back. */
export function isPot(hand) {
  const targets = passOffsets(hand);
  return targets.length > 0 && targets.every((o) => o === 0);
}

/** Where each card a seat passed went: [{card, to}] in the seat's order (to is null for the pot). */
export function passedCards(hand, seat) {
  const targets = passOffsets(hand);
  const n = handSeats(hand);
  return ((hand.passes || [])[seat] || []).map((card, i) => ({ card, to: targets[i] ? (((seat + targets[i]) % n) + n) % n : null }));
}

/** What each seat received in the exchange: as the server says, else worked out from the passes. */
function receivedCards(hand) {
  if (hand.received) return hand.received;
  const received = perSeat(hand);
  for (let seat = 0; seat < handSeats(hand); seat++) {
    for (const { card, to } of passedCards(hand, seat)) if (to !== null) received[to].push(card);
  }
  return received;
}

/**
 * The table at `step` of `hand`: the cards each seat still holds, the trick on the table
 * (with its winner once complete), how many tricks each seat has taken, and the stage.
 */
export function snapshot(hand, step) {
  const { first } = stepRange(hand);
  const holds = hand.dealt.map((cards) => [...cards]);
  const received = perSeat(hand);
  const exchanged = hasPasses(hand) && step >= 1;
  if (exchanged) {
    const got = receivedCards(hand);
    hand.passes.forEach((cards, seat) => {
      for (const card of cards || []) holds[seat].splice(holds[seat].indexOf(card), 1);
    });
    got.forEach((cards, seat) => {
      holds[seat].push(...cards);
      received[seat].push(...cards);
    });
  }
  let left = Math.max(0, step - first);
  let trick = null;
  const tricksWon = Array(handSeats(hand)).fill(0);
  for (const [index, t] of hand.tricks.entries()) {
    if (left <= 0) break;
    const cards = t.cards.slice(0, left);
    for (const { seat, card } of cards) holds[seat].splice(holds[seat].indexOf(card), 1);
    const complete = cards.length === t.cards.length;
    if (complete && t.winner !== null && t.winner !== undefined) tricksWon[t.winner] += 1;
    const undecided = complete && Boolean(t.undecided);
    trick = { index, leader: t.leader, cards: cancelledSoFar(cards), complete, winner: complete ? t.winner : null, undecided };
    left -= cards.length;
  }
  let stage = "play";
  if (step < first || (step === first && !exchanged)) stage = "dealt";
  else if (step === first) stage = "exchanged";
  return { holds, received: exchanged && step === first ? received : perSeat(hand), trick, tricksWon, stage };
}

/** The cards of a trick played so far, a card marked cancelled only once the identical card that cancels it is played. */
function cancelledSoFar(cards) {
  return cards.map((c) => (c.cancelled && cards.filter((o) => o.card === c.card).length < 2 ? { ...c, cancelled: false } : c));
}

/** The position one step from (hand, step) in `direction` (+1 or -1), crossing into the next or previous hand. */
export function stepCard(hands, at, direction) {
  const { last } = stepRange(hands[at.hand]);
  const step = at.step + direction;
  if (step >= 0 && step <= last) return { hand: at.hand, step };
  if (direction > 0 && at.hand + 1 < hands.length) return { hand: at.hand + 1, step: 0 };
  if (direction < 0 && at.hand > 0) return { hand: at.hand - 1, step: stepRange(hands[at.hand - 1]).last };
  return at;
}

/** The end of the next trick (+1) or of the previous one (-1), else the hand's start or end. */
export function stepTrick(hands, at, direction) {
  const hand = hands[at.hand];
  const ends = trickEnds(hand);
  const { first, last } = stepRange(hand);
  if (direction > 0) {
    const next = ends.find((e) => e > at.step);
    if (next !== undefined) return { hand: at.hand, step: next };
    return at.step < last ? { hand: at.hand, step: last } : stepCard(hands, at, 1);
  }
  const previous = ends.filter((e) => e < at.step).pop();
  if (previous !== undefined) return { hand: at.hand, step: previous };
  if (at.step > first) return { hand: at.hand, step: first };
  if (at.step > 0) return { hand: at.hand, step: 0 };
  return stepCard(hands, at, -1);
}

/** Whether a step is possible in `direction` at all. */
export function canStep(hands, at, direction) {
  const to = stepCard(hands, at, direction);
  return to.hand !== at.hand || to.step !== at.step;
}
