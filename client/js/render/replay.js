// The replay viewer: every hand open, the passes, the kitty, the trick being played, step by step.
import { t } from "../i18n.js";
import { esc } from "../html.js";
import { cardFace, cardName, shortName, sortHand, keyed, copiesOf, playedFace } from "../cards.js";
import { position, chairName, moonWord } from "./seats.js";
import { snapshot, stepRange, passTarget, hasPasses, canStep, isPot, passedCards, handSeats } from "../replay.js";
import { rulesLine } from "./invite.js";
import { reviewHtml, timelineHtml, highlightAt, reviewErrorText } from "./review.js";
import { dateText } from "../format.js";

/** The number of seats of the replayed game: its hands say, else its seats. */
function gameSeats(data) {
  return data.hands && data.hands.length ? handSeats(data.hands[0]) : (data.seats || []).length || 4;
}

/** The seats of the replayed game, 0 to n - 1. */
function allSeats(data) {
  return Array.from({ length: gameSeats(data) }, (_, s) => s);
}

function seatLabel(data, seat) {
  const s = data.seats.find((x) => x.seat === seat) || {};
  return s.name || chairName(gameSeats(data), seat);
}

function who(data, seat, you) {
  const mine = seat === you ? ` <span class="badge you">${esc(t("you_suffix"))}</span>` : "";
  return `<span class="wind">${esc(chairName(gameSeats(data), seat))}</span> <span class="name">${esc(seatLabel(data, seat))}</span>${mine}`;
}

function seatHtml(data, hand, snap, seat, you, marked) {
  const cards = keyed(sortHand(snap.holds[seat])); // a card held twice (two decks): each copy marked on its own
  const received = copiesOf(snap.received[seat]);
  const passing = copiesOf(snap.stage === "dealt" && hasPasses(hand) ? hand.passes[seat] : []);
  const better = seat === you ? marked.better : new Set();
  const worse = seat === you ? marked.worse : new Set();
  const faces = cards.map(([card, key]) => {
    const classes = [received.has(key) ? "received" : "", passing.has(key) ? "passing" : "",
      better.has(card) ? "better" : "", worse.has(card) ? "worse" : ""].filter(Boolean);
    return cardFace(card, { classes, label: cardName(card) });
  }).join("");
  const score = hand.scores[seat];
  return `<div class="rp-seat pos-${position(seat, you ?? 0, gameSeats(data))}" data-seat="${seat}">` +
    `<div class="rp-who">${who(data, seat, you)}</div>` +
    `<div class="rp-score"><span>${esc(t("replay_tricks", { n: snap.tricksWon[seat] }))}</span>` +
    ` <span data-score="${seat}">${esc(t("replay_hand_score", { n: `${score > 0 ? "+" : ""}${score}` }))}</span>` +
    ` <span data-total="${seat}">${esc(t("total", { n: hand.totals[seat] }))}</span></div>` +
    `<div class="rp-hand" role="img" aria-label="${esc(t("replay_holds", { name: seatLabel(data, seat), n: cards.length }))}" data-count="${cards.length}">${faces}</div></div>`;
}

function centerHtml(data, hand, snap, step) {
  let title;
  if (snap.stage === "dealt") title = t("replay_dealt");
  else if (snap.stage === "exchanged") title = t("replay_exchanged");
  else title = t("replay_trick_no", { n: snap.trick.index + 1, of: hand.tricks.length });
  const cards = snap.stage === "play" ? snap.trick.cards.map(({ seat, card, cancelled }) =>
    `<figure class="lt-card${snap.trick.complete && seat === snap.trick.winner ? " won" : ""}" data-seat="${seat}">` +
    `${playedFace(card, { cancelled, label: t("card_played", { name: seatLabel(data, seat), card: cardName(card) }) })}` +
    `<figcaption>${esc(seatLabel(data, seat))}</figcaption></figure>`).join("") : "";
  const taker = snap.stage === "play" && snap.trick.complete ? takerLine(data, snap.trick) : "";
  const { last } = stepRange(hand);
  const moon = step === last && hand.moon !== null && hand.moon !== undefined
    ? `<p class="moon-note">☾ ${esc(t(`${moonWord(data.options)}_by`, { name: seatLabel(data, hand.moon) }))}</p>` : "";
  const voided = step === last ? voidedLine(hand) : "";
  return `<div class="rp-center" aria-live="polite"><p class="rp-stage">${esc(title)}</p>` +
    `<div class="lt-cards rp-trick">${cards}</div>${taker}${moon}${voided}${kittyLine(data, hand)}</div>`;
}

/** Who took a complete trick, or that no one did (every card of the suit led cancelled). */
function takerLine(data, trick) {
  if (trick.undecided) return `<p class="rp-taker undecided">${esc(t("trick_undecided"))}</p>`;
  if (trick.winner === null || trick.winner === undefined) return "";
  return `<p class="rp-taker">${esc(t("trick_won_by", { name: seatLabel(data, trick.winner) }))}</p>`;
}

/** At the end of a hand: the cards of tricks still undecided, which counted for nobody. */
function voidedLine(hand) {
  if (!hand.voided || !hand.voided.length) return "";
  const cards = sortHand(hand.voided).map(shortName).join(" ");
  return `<p class="rp-voided" data-voided="${esc(hand.voided.join(" "))}">${esc(t("replay_voided", { cards }))}</p>`;
}

/** The kitty of the hand, open as every hand is in a replay: "Kitty: Q♠ → Ellen" (taken, or still face down). */
function kittyLine(data, hand) {
  if (!hand.kitty || !hand.kitty.length) return "";
  const takers = hand.kitty_takers || [];
  const cards = hand.kitty.map((card, i) => {
    const taker = takers[i];
    return taker !== undefined && taker !== null && taker >= 0 ? `${shortName(card)} → ${seatLabel(data, taker)}` : shortName(card);
  }).join(", ");
  return `<p class="rp-kitty" data-kitty="${esc(hand.kitty.join(" "))}">${esc(t("replay_kitty", { cards }))}</p>`;
}

/** One seat's pass: "Anna to Bram: 5♣ 9♦ 3♠", "Anna: 5♣ → Bram, 9♦ → Carla, …" or "Anna into the pot: …". */
function passLine(data, hand, seat) {
  const from = seatLabel(data, seat);
  const cards = passedCards(hand, seat);
  const to = passTarget(hand, seat);
  if (to !== null) return t("replay_pass_line", { from, to: seatLabel(data, to), cards: cards.map((c) => shortName(c.card)).join(" ") });
  if (isPot(hand)) return t("replay_pot_line", { from, cards: cards.map((c) => shortName(c.card)).join(" ") });
  return t("replay_pass_each", { from, cards: cards.map((c) => `${shortName(c.card)} → ${seatLabel(data, c.to)}`).join(", ") });
}

/** What each seat got back from the pot. */
function potBackLines(data, hand) {
  if (!isPot(hand) || !hand.received) return "";
  return hand.received.map((cards, seat) => `<li>${esc(t("replay_pot_back", {
    name: seatLabel(data, seat), cards: sortHand(cards).map(shortName).join(" "),
  }))}</li>`).join("");
}

function passesHtml(data, hand) {
  if (!hasPasses(hand)) return `<p class="muted">${esc(t("replay_no_pass"))}</p>`;
  const lines = allSeats(data).map((seat) => `<li>${esc(passLine(data, hand, seat))}</li>`).join("");
  return `<p class="muted">${esc(t(`replay_passed_${hand.pass_direction}`))}</p><ul class="rp-pass-list">${lines}${potBackLines(data, hand)}</ul>`;
}

/** A seat's cell of one hand: its score and running total, or in a chips game its hearts, chips won and chips. */
function replayCell(h, s) {
  if (h.chips) {
    const won = h.chips_won[s] ? ` <span class="chips-won">+${h.chips_won[s]}</span>` : "";
    return `<td><span class="hand-score">${esc(t("hearts_taken", { n: h.points[s] }))}${won}</span><span class="running">${h.chips[s]}</span></td>`;
  }
  return `<td><span class="hand-score">${h.scores[s] > 0 ? "+" : ""}${h.scores[s]}</span><span class="running">${h.totals[s]}</span></td>`;
}

function totalsHtml(data, current, you) {
  const order = allSeats(data);
  const head = order.map((s) => `<th scope="col">${esc(seatLabel(data, s))}</th>`).join("");
  const rows = data.hands.map((h, i) => `<tr class="${i === current ? "current" : ""}">` +
    `<th scope="row"><button type="button" class="link-button" data-action="replay_hand" data-hand="${i}"` +
    ` aria-current="${i === current}">${i + 1}</button></th>` +
    order.map((s) => replayCell(h, s)).join("") +
    "</tr>").join("");
  const winners = data.winners || [];
  const lastHand = data.hands[data.hands.length - 1];
  const chips = Boolean(lastHand && lastHand.chips); // a chips game counts chips, not points
  const final = chips ? lastHand.chips : data.totals || [];
  const totals = order.map((s) => `<td class="grand${winners.includes(s) ? " winner" : ""}${s === you ? " you" : ""}">${final[s] ?? ""}</td>`).join("");
  return `<div class="table-wrap"><table class="scores${order.length !== 4 ? " wrap-names" : ""}" data-style="--cols:${order.length}"><thead><tr><th scope="col">${esc(t("hand_col"))}</th>${head}</tr></thead>` +
    `<tbody>${rows}</tbody><tfoot><tr><th scope="row">${esc(t(chips ? "chips" : "totals_row"))}</th>${totals}</tr></tfoot></table></div>`;
}

// Step icons drawn as SVG (the fonts of many phones lack the media-control symbols).
const BAR_L = '<rect x="3" y="4" width="2.5" height="16"/>';
const BAR_R = '<rect x="18.5" y="4" width="2.5" height="16"/>';
const ICONS = {
  start: `${BAR_L}<path d="M19 4v16L7 12z"/>`,
  prev_trick: '<path d="M12 4v16L2 12zM22 4v16L12 12z"/>',
  prev: '<path d="M17 4v16L5 12z"/>',
  next: '<path d="M7 4v16l12-8z"/>',
  next_trick: '<path d="M2 4v16l10-8zM12 4v16l10-8z"/>',
  end: `<path d="M5 4v16l12-8z"/>${BAR_R}`,
};

function controlsHtml(hands, at) {
  const back = canStep(hands, at, -1);
  const forward = canStep(hands, at, 1);
  const button = (move, key, enabled) =>
    `<button type="button" id="rp-${move.replace("_", "-")}" data-action="replay_${move}" aria-label="${esc(t(key))}" title="${esc(t(key))}"${enabled ? "" : " disabled"}>` +
    `<svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false" fill="currentColor">${ICONS[move]}</svg></button>`;
  return `<div class="rp-controls" role="toolbar" aria-label="${esc(t("replay_steps"))}">` +
    button("start", "replay_first", at.step > 0) +
    button("prev_trick", "replay_prev_trick", back) +
    button("prev", "replay_prev", back) +
    button("next", "replay_next", forward) +
    button("next_trick", "replay_next_trick", forward) +
    button("end", "replay_last", at.step < stepRange(hands[at.hand]).last) +
    `</div>`;
}

function facts(data) {
  const out = [rulesLine(data.options || {})];
  if (data.deal !== null && data.deal !== undefined) out.push(t("deal_no", { n: data.deal }));
  if (data.finished_at) {
    out.push(dateText(data.finished_at * 1000));
  }
  return out.filter(Boolean).join(" · ");
}

/** Your review of this hand: a button to ask for it (your own games only), its progress, or the review. */
function reviewSection(r, hand, review, reviewed) {
  if (!r.key || !r.key.id || r.you === null || r.you === undefined) return ""; // your own games only
  let body;
  if (reviewed) body = reviewHtml(reviewed, hand, r.step);
  else if (review && review.status === "loading") body = `<p class="notice info" role="status">${esc(t("review_loading"))}</p>`;
  else {
    const failed = review && review.status === "error"
      ? `<p class="notice error" role="alert">${esc(reviewErrorText(review.code))}</p>` : "";
    body = `${failed}<button type="button" data-action="replay_review">${esc(t("review_ask"))}</button>`;
  }
  return `<section class="rp-review" aria-labelledby="rp-review-title"><h3 id="rp-review-title">${esc(t("review_title"))}</h3>${body}</section>`;
}

export function replayHtml(state) {
  const r = state.replay;
  const back = `<button type="button" data-action="replay_close">${esc(t("replay_back"))}</button>`;
  if (r.status !== "ok") {
    const text = { loading: "replay_loading", not_found: "replay_not_found", error: "replay_error" }[r.status];
    const kind = r.status === "loading" ? "info" : "error";
    return `<section class="replay"><h2>${esc(t("replay_title"))}</h2>` +
      `<p class="notice ${kind}" role="${kind === "error" ? "alert" : "status"}" data-replay="${r.status}">${esc(t(text))}</p>${back}</section>`;
  }
  const data = r.data;
  const hand = data.hands[r.hand];
  if (!hand) return `<section class="replay"><h2>${esc(t("replay_title"))}</h2><p class="notice error" role="alert">${esc(t("replay_error"))}</p>${back}</section>`;
  const snap = snapshot(hand, r.step);
  const total = data.hands.length;
  const hands = data.hands.map((h, i) =>
    `<option value="${i}"${i === r.hand ? " selected" : ""}>${esc(t("replay_hand_of", { n: i + 1, total }))}</option>`).join("");
  const review = r.reviews && r.reviews[r.hand];
  const reviewed = review && review.status === "ok" ? review.data.review : null;
  const marked = highlightAt(hand, reviewed, r.step);
  const seats = allSeats(data).map((s) => seatHtml(data, hand, snap, s, r.you, marked)).join("");
  return `<section class="replay" data-hand="${r.hand}" data-step="${r.step}">
  <div class="rp-head"><h2>${esc(t("replay_title"))}</h2>` +
    `<label for="replay-hand" class="sr-only">${esc(t("replay_hand"))}</label><select id="replay-hand" data-change="replay_hand">${hands}</select>` +
    `${back}<p class="muted rp-facts">${esc(facts(data))}</p></div>
  <div class="rp-board${gameSeats(data) !== 4 ? " ring" : ""}">${seats}${centerHtml(data, hand, snap, r.step)}</div>
  ${controlsHtml(data.hands, { hand: r.hand, step: r.step })}
  ${reviewed ? timelineHtml(reviewed, hand, r.step) : ""}
  <p class="muted rp-keys">${esc(t("replay_keys"))}</p>
  ${reviewSection(r, hand, review, reviewed)}
  <section class="rp-passes"><h3>${esc(t("replay_passes"))}</h3>${passesHtml(data, hand)}</section>
  <section class="rp-totals"><h3>${esc(t("scores_title"))}</h3>${totalsHtml(data, r.hand, r.you)}</section>
</section>`;
}
