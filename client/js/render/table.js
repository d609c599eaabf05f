// The table: opponents left, top and right in play order, the trick in the middle, your hand below. The grid places
// each area; in the page's order the status (its pass, hint and claim buttons) comes right after the hand, so the
// keyboard goes from the cards to those buttons with one Tab.
import { t, joinNames } from "../i18n.js";
import { esc } from "../html.js";
import { cardFace, cardBack, sortHand, cardName, shortName, keyed, copiesOf, playedFace } from "../cards.js";
import { position, seatName, plainName, moonTotal, takerText, teamName, seatCount, seatsFromMe, trickSpot, chairOf, claimsTaken, takes, bigTable, gridRows, gridSpot } from "./seats.js";
import { passStatus, chosenPlace, exchangeLines, receivedShown, receivedFrom, passBoardShown, passBoardHtml } from "./passing.js";
import { animFactor } from "../prefs.js";
import { winnersText, nextStepsHtml, canRestart, restartButton } from "./outcome.js";
import { nameHtml } from "./moderation.js";
import { ratingBadge } from "./playnow.js";
import { say } from "./say.js";

export const TABLE_SKELETON = `<section class="table-screen">
  <div class="opp" data-area="left"></div>
  <div class="opp" data-area="top"></div>
  <div class="opp" data-area="right"></div>
  <div class="center" data-area="center" role="region"></div>
  <div class="sr-only" data-area="news" aria-live="polite" aria-relevant="additions"></div>
  <div class="under-trick" data-area="caption"></div>
  <div class="hand-area" data-area="hand"></div>
  <div class="status" data-area="status"></div>
  <div class="me" data-area="me"></div>
  <button type="button" class="hand-below" data-area="below" data-action="to_hand" hidden></button>
</section>`;

function seatFlags(table, seat) {
  const s = table.seats[seat];
  const v = table.view;
  const acting = v && v.to_act.includes(seat) && ["playing", "passing", "moon_choice"].includes(v.phase);
  const flags = [];
  if (seat === table.host) flags.push(`<span class="badge host">${esc(t("host_badge"))}</span>`);
  if (s.kind === "computer") flags.push(`<span class="badge computer">${esc(t("computer_badge", { level: t(`level_${s.level}`) }))}</span>`);
  if (s.kind === "person" && (s.away || !s.connected)) flags.push(`<span class="badge away" data-away="${seat}">${esc(t("away_badge"))}</span>`);
  if (v && v.teams) flags.push(teamBadge(v, seat));
  if (v && tookKitty(v, seat)) flags.push(`<span class="badge kitty-badge" data-kitty="${seat}">${esc(t("kitty_badge"))}</span>`);
  return { acting, flags: flags.join(" ") };
}

/** A person's rating beside their name at an open table of a rated family (the stylesheet shows it on wide screens). */
function seatRating(table, seat) {
  const s = table.seats[seat];
  return s && s.kind === "person" && Array.isArray(table.ratings) ? ratingBadge(table.ratings[seat]) : "";
}

/** Whether `seat` took a card of this hand's kitty (everyone may know who did). */
export function tookKitty(v, seat) {
  return Boolean(v.kitty_takers) && v.kitty_takers.includes(seat);
}

/** The opponents that sit in one area of the screen (left, top or right), in play order. */
export function seatsIn(table, area) {
  const n = seatCount(table);
  return seatsFromMe(table.you, n).slice(1).filter((seat) => position(seat, table.you, n) === area);
}

/** Every opponent of one area, in play order. */
export function areaHtml(table, area) {
  return seatsIn(table, area).map((seat) => opponentHtml(table, seat)).join("");
}

/** In a team game, the small marker of the seat's team ("North–South"); partners share its colour. */
function teamBadge(v, seat) {
  const team = v.teams[seat];
  return `<span class="badge team team-${team}" data-team="${team}">${esc(teamName(v, team))}</span>`;
}

/** The hand just scored, once a hand is over (its row of the score table), else null. */
function scoredHand(v) {
  const last = v.history.length ? v.history[v.history.length - 1] : null;
  return last && (v.phase === "hand_over" || v.game_over) ? last : null;
}

/**
 * Points taken this hand (hearts, for chips), and the running total (the team's in a team game) or the seat's chips.
 * Once the hand is over it shows what the score table shows for it: the hand's score (a moon gives the others the
 * points and its shooter none), not the points the seat took.
 */
function scoreLine(v, seat) {
  const scored = scoredHand(v);
  let n = v.points_taken[seat];
  if (scored && v.chips) n = scored.points[seat];
  else if (scored) n = `${scored.scores[seat] > 0 ? "+" : ""}${scored.scores[seat]}`;
  const attr = scored ? ` data-hand-score="${esc(n)}"` : "";
  const taken = `<span class="taken"${attr}>${esc(v.chips ? t("hearts_taken", { n }) : t("taken", { n }))}</span>`;
  if (v.chips) return `${taken} <span class="chips" data-chips="${v.chips[seat]}">${esc(t("chips_count", { n: v.chips[seat] }))}</span>`;
  // a narrow panel (a big table on a phone on its side) shows "12 (+3)", the total and this hand's points
  const short = t("score_short", { total: v.totals[seat], n: scored ? n : `+${n}` });
  return `${taken} <span class="total">${esc(t("total", { n: v.totals[seat] }))}</span>` +
    `<span class="score-short" aria-hidden="true">${esc(short)}</span>`;
}

export function opponentHtml(table, seat) {
  const v = table.view;
  const { acting, flags } = seatFlags(table, seat);
  const count = v.hand_sizes[seat];
  const backs = Array.from({ length: count }, () => cardBack(["mini"])).join("");
  const hasPassed = v.phase === "passing" && v.has_passed && v.has_passed[seat];
  const passed = hasPassed ? " has-passed" : "";
  const mark = hasPassed ? ` <span class="badge passed">✓<span class="passed-word"> ${esc(t("passed_badge"))}</span></span>` : "";
  return `<div class="player${acting ? " acting" : ""}${passed}" data-seat="${seat}" aria-current="${acting ? "true" : "false"}">` +
    `<div class="who"><span class="wind">${esc(chairOf(table, seat))}</span> ${nameHtml(table, seat)} ${seatRating(table, seat)} ${flags}${mark}</div>` +
    `<div class="score">${scoreLine(v, seat)}</div>` +
    `<div class="mini-fan" aria-label="${esc(t("cards_left", { n: count }))}" role="img">${backs}</div></div>`;
}

/** The trick to draw: a just-finished trick while it is held or sliding, else the current one. */
function shownTrick(state, now) {
  const v = state.table.view;
  const show = state.trickShow;
  if (show && now < show.slideUntil) return { trick: show.trick, sliding: now >= show.until, done: true };
  return { trick: v.trick, sliding: false, done: false };
}

// The card last played slides in once: a later redraw (a language switch, a notice) draws it at rest.
const ENTER_MS = 300;
let entering = { key: null, since: 0 };

function entersNow(v, card, count, now, factor = 1) {
  const key = `${v.hand_no}:${v.tricks.length}:${count}:${card}`; // the count: two decks may play a card twice
  if (entering.key !== key) entering = { key, since: now };
  return now - entering.since < ENTER_MS * factor; // at the player's animation speed (none when off)
}

/**
 * The slot of a played card: one of four sides at four seats, else a spot on a ring, toward its player. Where
 * cards of a ring overlap (a short screen, many seats), the lower one lies on top and of two side by side the right
 * one, so that every card's corner, with its rank and suit, stays in view.
 */
function slotOf(table, seat) {
  const n = seatCount(table);
  if (n === 4) return { pos: position(seat, table.you), style: "" };
  const { dx, dy } = trickSpot(seat, table.you, n);
  const z = 100 + Math.round(dy * 20) * 3 + Math.sign(Math.round(dx * 10)) + 1;
  return { pos: "ring", style: ` data-style="--dx:${dx.toFixed(3)};--dy:${dy.toFixed(3)};z-index:${z}"` };
}

// The trick at n seats other than four, in card widths: its width and height, the smallest in which no card covers
// another (from seven seats on they overlap a little), and where the kitty lies (down from the middle); then the
// same for a short screen, the ring wider and flatter (cards overlap a little, each one's corner in view).
const RINGS = {
  3: { w: 3.4, h: 2.6, ky: -0.65, ws: 3.4, hs: 2.6, kys: -0.65 },
  5: { w: 3.2, h: 4.0, ky: 0.1, ws: 4.2, hs: 2.6, kys: -0.7 },
  6: { w: 3.4, h: 4.3, ky: 0, ws: 4.4, hs: 3.0, kys: 0 },
};
const FOUR_HIGH = 3.15; // the four-seat trick's height: a ring taller than that gets smaller cards
const FOUR_SHORT = 2.9; // the same on a short screen

/** The trick's size at n seats (four seats keep their own layout), as style properties. */
function ringStyle(n) {
  const r = RINGS[n] || { w: 4.6, h: 4.4, ky: 0, ws: 4.6, hs: 3.4, kys: 0 };
  const fit = (most, h) => Math.min(1, most / h).toFixed(3);
  return `--tw:${r.w};--th:${r.h};--ky:${r.ky};--fit:${fit(FOUR_HIGH, r.h)};` +
    `--tws:${r.ws};--ths:${r.hs};--kys:${r.kys};--fits:${fit(FOUR_SHORT, r.hs)}`;
}

/** The kitty cards still face down on the table: while a finished trick is held, as they lay before it was taken. */
function kittyLying(state, done) {
  const v = state.table.view;
  const show = state.trickShow;
  const takers = done && show && show.kittyBefore ? show.kittyBefore : v.kitty_takers;
  return takers ? takers.filter((s) => s === -1).length : 0;
}

/** The face-down kitty in the middle of the table (under the trick's cards), named where it lies. */
function kittyHtml(v, count) {
  if (!count) return "";
  const backs = Array.from({ length: count }, () => cardBack(["kitty-card"])).join("");
  const rule = kittyRule(v, count);
  const label = `${t("kitty_lying", { n: count })}${rule ? `: ${rule}` : ""}`;
  return `<div class="kitty" role="img" data-kitty-lying="${count}" aria-label="${esc(label)}" title="${esc(label)}">` +
    `<div class="kitty-cards">${backs}</div><span class="kitty-label" aria-hidden="true">${esc(t("kitty_label"))}</span></div>`;
}

/** Who takes the kitty cards that still lie, from the variant's rule ("the kitty goes to the winner of the first
 * trick"), or "" when none lies there. */
function kittyRule(v, lying) {
  const rule = v.scoring && v.scoring.kitty_rule;
  if (!rule || !lying) return "";
  const next = rule === "first_two" && lying < v.kitty_takers.length; // the first card went with trick 1
  return t(next ? "kitty_rule_first_two_next" : `kitty_rule_${rule}`);
}

/** The cards of undecided tricks that wait on the table: while a finished trick is held, as they lay before it. */
function pendingLying(state, done) {
  const show = state.trickShow;
  if (done && show && show.pendingBefore) return show.pendingBefore;
  return state.table.view.pending || [];
}

/** The waiting cards of undecided tricks (Cancellation Hearts): a small stack in the middle, with how many. */
function pendingHtml(cards) {
  if (!cards.length) return "";
  const backs = Array.from({ length: Math.min(cards.length, 3) }, () => cardBack(["pending-card"])).join("");
  const label = t("pending_lying", { n: cards.length, cards: sortHand(cards).map(shortName).join(" ") });
  return `<div class="pending" role="img" data-pending="${cards.length}" aria-label="${esc(label)}" title="${esc(label)}">` +
    `<div class="pending-stack">${backs}</div><span class="pending-count" aria-hidden="true">${esc(t("pending_short", { n: cards.length }))}</span></div>`;
}

/**
 * One card of the trick in its slot, its player's name on it (at every table size, for as long as the trick is shown:
 * it goes with the card to the taker); a card an identical one cancelled is struck through and says so.
 */
function playedHtml(table, { seat, card, cancelled }, enter) {
  const { pos, style } = slotOf(table, seat);
  const label = t("card_played", { name: seatName(table, seat), card: cardName(card) });
  const classes = [`played${enter ? ` enter-${pos}` : ""}`];
  const name = seat === table.you ? t("played_by_you") : seatName(table, seat);
  const inner = `<span class="played-name" aria-hidden="true">${esc(name)}</span>`;
  return `<div class="slot slot-${pos}" data-seat="${seat}"${style}>${playedFace(card, { cancelled, classes, label, inner })}</div>`;
}

/**
 * Where the first of two identical cards ranks higher (the rules say so: Extreme Hearts): the places in the trick of the first of each
 * two identical cards, which ranks above the other; else none.
 */
function firstOfTwins(v, cards) {
  const firsts = new Set();
  if (!v.scoring || v.scoring.identical !== "first_wins") return firsts;
  cards.forEach(({ card }, i) => {
    const earlier = cards.findIndex((c) => c.card === card);
    if (earlier < i) firsts.add(earlier);
  });
  return firsts;
}

/**
 * One card of a big table's trick in its place on the grid (rows 2 and 3: a phone upright has the kitty and the
 * waiting cards in row 1), its player's name under it; the lead and (Extreme Hearts) the first of two identical
 * cards say so on the card's lower half, which leaves its corner free.
 */
function namedHtml(table, { seat, card, cancelled }, { enter, lead, first }) {
  const { row, col } = gridSpot(seat, table.you, seatCount(table));
  const { dx, dy } = trickSpot(seat, table.you, seatCount(table));
  const name = seat === table.you ? t("played_by_you") : seatName(table, seat);
  const said = [t("card_played", { name: seatName(table, seat), card: cardName(card) })];
  const marks = [];
  if (first) { said.push(t("card_first_twin")); marks.push(`<span class="mark first-twin">${esc(t("first_twin_mark"))}</span>`); }
  if (lead) { said.push(t("card_lead")); marks.push(`<span class="mark lead">${esc(t("lead_mark"))}</span>`); }
  const classes = [`played${enter ? " enter-grid" : ""}`];
  const face = playedFace(card, { cancelled, classes, label: said.join(", ") });
  const flags = `${lead ? " data-lead" : ""}${first ? " data-first-twin" : ""}`;
  return `<div class="slot slot-grid${lead ? " lead" : ""}" data-seat="${seat}"${flags}` +
    ` data-style="--dx:${dx.toFixed(3)};--dy:${dy.toFixed(3)};grid-area:${row + 1} / ${col + 1} / span 1 / span 2">` +
    `<div class="played-face">${face}${marks.length ? `<span class="marks" aria-hidden="true">${marks.join("")}</span>` : ""}</div>` +
    `<span class="played-by" aria-hidden="true">${esc(name)}</span></div>`;
}

/**
 * A big table's trick: two rows of named cards round the table in play order, as large as the room between the
 * seats allows, none over another; the kitty and the cards of undecided tricks beside them.
 */
function gridTrickHtml(table, { cards, kitty, pending, sliding, winner, trick }) {
  const n = seatCount(table);
  const { cols } = gridRows(n);
  let style = `--cols:${cols};--subcols:${2 * cols}`;
  let slide = "";
  if (sliding && winner !== null) {
    const { dx, dy } = trickSpot(winner, table.you, n);
    style += `;--wx:${dx.toFixed(3)};--wy:${dy.toFixed(3)}`;
    slide = " slide-ring";
  } else if (sliding && trick.undecided) {
    slide = " slide-pending";
  }
  const side = kitty || pending ? `<div class="trick-side">${kitty}${pending}</div>` : "";
  return `<div class="trick grid${side ? " has-side" : ""}${slide}" data-seats="${n}" data-style="${style}"` +
    ` aria-label="${esc(t("table_center"))}">${side}${cards}</div>`;
}

export function centerHtml(state, now) {
  const table = state.table;
  // no trick yet: the middle shows the pass (and the kitty lying face down)
  if (passBoardShown(table)) return passBoardHtml(state, kittyHtml(table.view, kittyLying(state, false)));
  const n = seatCount(table);
  const { trick, sliding, done } = shownTrick(state, now);
  let cards = "";
  if (trick) {
    const count = trick.cards.length;
    const firsts = firstOfTwins(table.view, trick.cards);
    cards = trick.cards.map((played, i) => {
      const enter = !done && i === count - 1 && entersNow(table.view, played.card, count, now, animFactor(state.prefs));
      return bigTable(n) ? namedHtml(table, played, { enter, lead: i === 0, first: firsts.has(i) }) : playedHtml(table, played, enter);
    }).join("");
  }
  const winner = done && trick.winner !== null ? trick.winner : null;
  const kitty = kittyHtml(table.view, kittyLying(state, done));
  const pending = pendingHtml(pendingLying(state, done));
  if (bigTable(n)) return gridTrickHtml(table, { cards, kitty, pending, sliding, winner, trick });
  if (n === 4 && !kitty && !pending) {
    const slide = sliding && winner !== null ? ` slide-${position(winner, table.you)}` : "";
    return `<div class="trick${slide}" aria-label="${esc(t("table_center"))}">${cards}</div>`;
  }
  let style = ringStyle(n);
  let slide = "";
  if (sliding && winner !== null) {
    const { dx, dy } = trickSpot(winner, table.you, n);
    style += `;--wx:${dx.toFixed(3)};--wy:${dy.toFixed(3)}`;
    slide = " slide-ring";
  } else if (sliding && trick.undecided) {
    slide = " slide-pending"; // no one takes it: its cards go to the middle, to wait there
  }
  const both = kitty && pending ? " kitty-and-pending" : "";
  return `<div class="trick ring${slide}${both}" data-seats="${n}" data-style="${style}" aria-label="${esc(t("table_center"))}">${kitty}${pending}${cards}</div>`;
}

/** What the trick just finished did: who took it (with the cards that waited for it), or that no one did. */
function trickCaption(state, table, trick, done) {
  if (!done) return "";
  if (trick.undecided) return `<p class="trick-caption undecided">${esc(t("trick_undecided"))}</p>`;
  if (trick.winner === null) return "";
  const waited = state.trickShow && state.trickShow.pendingBefore ? state.trickShow.pendingBefore.length : 0;
  return `<p class="trick-caption">${esc(takerText(table, trick.winner, waited))}</p>`;
}

/** Under the trick, in a row of its own so it never lies over a card: who took the trick, and the hand number. */
export function captionHtml(state, now) {
  const table = state.table;
  const v = table.view;
  const { trick, done } = shownTrick(state, now);
  // (screen readers hear who took it from the news beside the trick)
  const caption = trickCaption(state, table, trick, done);
  const info = [];
  if (v.scoring && v.scoring.hearts_must_break && v.hearts_broken) info.push(t("hearts_broken"));
  if (v.counting_down) info.push(t("counting_down"));
  const pot = v.pot !== null && v.pot !== undefined ? ` · <span class="pot" data-pot="${v.pot}">${esc(t("pot_count", { n: v.pot }))}</span>` : "";
  return `${caption}<p class="hand-no">${esc(t("hand_no", { n: v.hand_no + 1 }))}${info.length ? ` · ${esc(info.join(" · "))}` : ""}${pot}` +
    `${kittyNote(table)}${kittyRuleNote(table.view, kittyLying(state, done))}${pendingNote(pendingLying(state, done))}</p>`;
}

/** How many cards of undecided tricks wait, under the trick too (on a short screen the trick's cards cover the stack). */
function pendingNote(cards) {
  if (!cards.length) return "";
  return ` · <span class="pending-note" data-pending="${cards.length}">${esc(t("pending_note", { n: cards.length }))}</span>`;
}

/** Who took the kitty, under the trick: "kitty: Ellen" (nothing while it lies on the table, where it is drawn). */
function kittyNote(table) {
  const takers = table.view.kitty_takers;
  if (!takers || !takers.some((s) => s >= 0)) return "";
  const names = [...new Set(takers.filter((s) => s >= 0))].map((s) => (s === table.you ? t("kitty_you") : seatName(table, s)));
  return ` · <span class="kitty-note" data-kitty-takers="${takers.join(" ")}">${esc(t("kitty_taken_by", { names: joinNames(names) }))}</span>`;
}

/** While kitty cards lie on the table, under the trick: who takes them and when. */
function kittyRuleNote(v, lying) {
  const rule = kittyRule(v, lying);
  return rule ? ` · <span class="kitty-rule" data-kitty-rule="${esc(v.scoring.kitty_rule)}">${esc(rule)}</span>` : "";
}

/** Between hands, the people who pressed Next hand and now wait for you (while you have not): "Bram is waiting for
 * you: press Next hand.", or "" when nobody waits for you yet (or you pressed it). */
export function waitedBy(table) {
  const ready = table.ready || [];
  if (table.you === null || ready.includes(table.you)) return "";
  const names = table.seats.filter((s) => s.seat !== table.you && s.kind === "person" && ready.includes(s.seat))
    .map((s) => seatName(table, s.seat));
  return names.length ? t("ready_waited_by", { names: joinNames(names), n: names.length }) : "";
}

/** "Waiting for Ellen…": the connected people who have not pressed Next hand yet. */
export function readyWaiting(table) {
  const ready = table.ready || [];
  const names = table.seats.filter((s) => s.seat !== table.you && s.kind === "person" && s.connected && !ready.includes(s.seat))
    .map((s) => seatName(table, s.seat));
  return names.length ? t("ready_waiting_for", { names: joinNames(names) }) : t("ready_waiting");
}

/** A hand without passing in a game that passes cards in other hands (the first trick not yet played). */
function holdHand(v) {
  return Boolean(v.rules.passing) && v.rules.passing !== "off" && v.pass_direction === "hold" && v.tricks.length === 0;
}

export function statusHtml(state) {
  const table = state.table;
  const v = table.view;
  const me = table.you;
  const lines = [];
  const buttons = [];
  let plan = "";
  if (v.phase === "passing") {
    const pass = passStatus(state);
    lines.push(...pass.lines);
    buttons.push(...pass.buttons);
  } else if (v.phase === "playing") {
    if (v.turn === me) {
      lines.push(t("your_turn"));
      if (takes(table, "hint")) buttons.push(`<button type="button" data-action="hint">${esc(t("hint"))}</button>`);
      // offered only where the view says the claim is sure to hold (judged from this seat's own cards and the cards
      // played): a claim that could be refused is never offered, and it comes back only with a view that changed
      if (claimsTaken(table) && v.claim) buttons.push(`<button type="button" data-action="claim">${esc(t("claim_button"))}</button>`);
    } else {
      lines.push(t("turn_of", { name: seatName(table, v.turn) }));
    }
    if (holdHand(v)) lines.push(t("hold_hand"));
  } else if (v.phase === "moon_choice") {
    if (v.moon_choices.length) {
      const n = moonTotal(v);
      lines.push(`${t("moon_title")} ${t("moon_question")}`);
      for (const choice of v.moon_choices) {
        buttons.push(`<button type="button" class="primary" data-action="moon" data-choice="${choice}">${esc(t(`moon_choice_${choice}`, { n }))}</button>`);
      }
      if (takes(table, "hint")) buttons.push(`<button type="button" data-action="hint">${esc(t("hint"))}</button>`);
    } else {
      lines.push(t("moon_waiting", { name: seatName(table, v.moon_seat) }));
    }
  }
  if (state.deadlineAt && ["passing", "playing", "moon_choice"].includes(v.phase)) {
    lines.push(t("timer_left", { s: Math.max(0, Math.ceil((state.deadlineAt - Date.now()) / 1000)) }));
  }
  if (v.game_over) {
    // the score table may be closed: who won and what comes next stay under the table
    lines.push(t("game_over"), winnersText(table, v));
    plan = nextStepsHtml(state, "status"); // the main step (who agreed to play again under it), the host's other choices
  } else if (v.phase === "hand_over") {
    const ready = table.ready && table.ready.includes(me);
    lines.push(ready ? readyWaiting(table) : waitedBy(table) || t("scores_title"));
    // Next hand in reach once the score table is closed too: the others may be waiting for it
    if (!ready) buttons.push(`<button type="button" class="primary" data-action="ready">${esc(t("next_hand"))}</button>`);
  }
  // The last trick can be looked at any time in a hand once a trick was taken, until the next deal.
  if (["playing", "moon_choice", "hand_over"].includes(v.phase) && v.tricks.length) {
    buttons.push(`<button type="button" data-action="open" data-overlay="last_trick">${esc(t("last_trick"))}</button>`);
  }
  buttons.push(`<button type="button" data-action="open" data-overlay="scores">${esc(t("score_button"))}</button>`);
  buttons.push(...gameButtons(state));
  const notice = state.notice
    ? `<p class="notice ${state.notice.kind}" role="alert" data-notice="${state.notice.kind}">${esc(say(state.notice.words, state.table))}</p>` : "";
  const exchange = exchangeLines(table).join("");
  return `<p class="turn-line" role="status">${lines.map((l) => `<span>${esc(l)}</span>`).join("")}${exchange}</p>${plan}${keyHint(state)}${notice}<div class="buttons">${buttons.join("")}</div>`;
}

/** What the keys do in the hand, while it waits for a pass or a card, once the keyboard came to the hand; else "". */
function keyHint(state) {
  const key = keysKey(state);
  return key ? `<p class="key-hint" id="key-hint">${esc(t(key))}</p>` : "";
}

/** The text of the keys to say now (`keys_pass`, `keys_play`), or null. */
function keysKey(state) {
  const v = state.table.view;
  if (!state.keysUsed) return null;
  if (v.phase === "passing" && !v.passed) return "keys_pass";
  return v.phase === "playing" && v.turn === state.table.you ? "keys_play" : null;
}

/**
 * The smaller buttons beside the main step: after game over Queue again (a Play now table), the replay (seated only)
 * and its share link; while a game is played the host's Start over (after game over it is one of the host's choices).
 */
export function gameButtons(state) {
  const table = state.table;
  const out = [];
  // a Play now table after game over: queue again for the same game (this table's options, the person's own wait)
  if (table.status === "finished" && table.you !== null && table.open && table.open.play_now && takes(table, "leave")) {
    out.push(`<button type="button" data-action="queue_again">${esc(t("queue_again"))}</button>`);
  }
  if (table.status === "finished" && table.replay && !state.offline.playing) { // an offline game is on no server
    // a watcher sat in no seat, and whoever sat down after game over played none of it: "my" replay
    // (/api/games/{id}) is not theirs; the share link works for anyone
    const late = Boolean(state.session) && state.session.late === table.replay.id;
    if (table.you !== null && !late) out.push(`<button type="button" data-action="replay" data-id="${esc(table.replay.id)}" data-share="${esc(table.replay.share)}">${esc(t("replay_button"))}</button>`);
    out.push(`<button type="button" data-action="copy_share" data-share="${esc(table.replay.share)}">` +
      `${esc(state.shareCopied ? t("share_copied") : t("share_link"))}</button>`);
  }
  if (canRestart(table) && table.status === "playing") out.push(restartButton());
  return out;
}

/** Split the sorted hand into rows so cards stay large enough to tap on a narrow screen. */
function rows(cards, width, height) {
  // a phone on its side: one row along the bottom (two would leave the trick no room)
  if (width >= 640 || width > height || cards.length <= 7) return [cards];
  const half = Math.ceil(cards.length / 2);
  return [cards.slice(0, half), cards.slice(half)];
}

/** The key of the card that takes the keyboard focus: the one that had it, else the first playable, else the first. */
function focusedKey(state, cards, legal) {
  if (state.focusCard && cards.some(([, key]) => key === state.focusCard)) return state.focusCard;
  const playable = cards.find(([card]) => legal.has(card));
  return (playable || cards[0] || [null, null])[1];
}

export function handHtml(state, now, width, height = Infinity) {
  const table = state.table;
  const v = table.view;
  const cards = keyed(sortHand(v.hand)); // each copy of a card (two decks) its own key: "AS#0", "AS#1"
  const legal = new Set(v.legal);
  const passing = v.phase === "passing" && !v.passed;
  const myTurn = v.phase === "playing" && v.turn === table.you;
  const received = copiesOf(receivedShown(v) ? v.received : []);
  const hinted = copiesOf(state.hint);
  const focus = focusedKey(state, cards, legal);
  const html = rows(cards, width, height).map((row) => `<div class="hand-row" data-style="--n:${row.length}">` + row.map(([card, key]) => {
    const classes = [];
    const extra = [`data-key="${key}"`];
    let label = cardName(card);
    if (passing && v.pass_refusals && v.pass_refusals[card]) {
      classes.push("dimmed"); // gentleman's rule 4: a tap says why
      label += `, ${t("card_not_passable")}`;
    } else if (passing) {
      classes.push("choosable");
      const on = state.selected.includes(key);
      if (on) { classes.push("selected"); label += `, ${t("card_selected")}`; }
      const place = on ? chosenPlace(state, key) : null;
      if (place) {
        label += `, ${t("card_goes_to", { name: seatName(table, place.to) })}`;
        extra.push(`data-place="${place.place}"`);
      }
      extra.push(`aria-pressed="${on}"`);
    } else if (myTurn && legal.has(card)) {
      classes.push("legal");
    } else if (v.refusals && v.refusals[card] && v.refusals[card].code !== "not_your_turn") {
      classes.push("dimmed");
      label += `, ${t("card_not_playable")}`;
    }
    if (received.has(key)) {
      classes.push("received");
      const from = receivedFrom(v, key);
      label += `, ${from === null ? t("card_received") : t("card_received_from", { name: seatName(table, from) })}`;
    }
    if (hinted.has(key)) classes.push("hint");
    extra.push(`tabindex="${key === focus ? 0 : -1}"`, 'type="button"', 'data-action="card"');
    return cardFace(card, { tag: "button", classes, attrs: extra.join(" "), label });
  }).join("") + "</div>").join("");
  const keys = keysKey(state) ? ' aria-describedby="key-hint"' : "";
  return `<div class="hand" role="group" aria-label="${esc(t("your_hand"))}"${keys} data-count="${cards.length}">${html}</div>`;
}

export function meHtml(table) {
  const v = table.view;
  const me = table.you;
  const { acting, flags } = seatFlags(table, me);
  return `<div class="player self${acting ? " acting" : ""}" data-seat="${me}" aria-current="${acting ? "true" : "false"}">` +
    `<span class="wind">${esc(chairOf(table, me))}</span> <span class="name">${esc(plainName(table, me))}</span> <span class="badge you">${esc(t("you_suffix"))}</span> ${seatRating(table, me)} ${flags}` +
    ` <span class="score">${scoreLine(v, me)}</span>${myKitty(v)}</div>`;
}

/** The note at the foot of a screen too short for the whole table: the hand is further down (a tap scrolls to it). */
export function belowHtml() {
  return `${esc(t("hand_below"))} <span aria-hidden="true">↓</span>`;
}

/** The kitty cards you took, face up for you alone: "Your kitty: Q♠ 5♥". */
function myKitty(v) {
  if (!v.kitty || !v.kitty.length) return "";
  const cards = sortHand(v.kitty).map((c) => `<span class="kitty-face suit-${c[1]}" data-card="${c}">` +
    `<span aria-hidden="true">${esc(shortName(c))}</span><span class="sr-only">${esc(cardName(c))}</span></span>`).join(" ");
  return ` <span class="my-kitty" data-my-kitty="${v.kitty.join(" ")}">${esc(t("kitty_yours"))} ${cards}</span>`;
}
