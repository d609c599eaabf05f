// Passing at the table: what to choose and where each chosen card goes, and afterwards what went where.
import { t, joinNames } from "../i18n.js";
import { esc } from "../html.js";
import { sortHand, shortName, keyCard, keyed, cardFace, cardName } from "../cards.js";
import { seatName, plainName, chairOf, position, seatCount } from "./seats.js";
import { passForm, chosenCount, cardSeats } from "../passing.js";

/** "Bram (West)": the name and chair of the seat a card goes to or comes from. */
function seatWithWind(table, seat) {
  return t("name_wind", { name: plainName(table, seat), wind: chairOf(table, seat) });
}

/** "Waiting for Ellen and Bram to pass…": the others the passing still waits for. */
function passWaiting(table) {
  const names = table.view.to_act.filter((s) => s !== table.you).map((s) => seatName(table, s));
  if (!names.length) return t("pass_waiting");
  return t(names.length > 1 ? "pass_waiting_many" : "pass_waiting_one", { names: joinNames(names) });
}

/** Whether the middle of the table shows the pass: a seated person's hand while cards are passed. */
export function passBoardShown(table) {
  const v = table.view;
  return table.you !== null && Boolean(v) && v.phase === "passing" && passForm(v) !== "none";
}

// The arrow beside the name the cards go to, pointing at that seat on the screen (aria-hidden: the words say it).
const ARROWS = { left: "←", top: "↑", right: "→" };

/** "← Ellen (West)": the seat the cards go to, with an arrow toward it (before the name, or after it on the right). */
function towardHtml(table, seat, key) {
  const where = position(seat, table.you, seatCount(table));
  const arrow = ARROWS[where] ? `<span class="pb-arrow" aria-hidden="true">${ARROWS[where]}</span>` : "";
  const text = `<span class="pb-to-text">${esc(t(key, { name: seatWithWind(table, seat) }))}</span>`;
  return `<p class="pb-to" data-to="${seat}" data-toward="${where}">${where === "right" ? `${text} ${arrow}` : `${arrow} ${text}`}</p>`;
}

/**
 * The cards of each place: before passing the chosen ones (keys of their copies, a place of a pass several ways may
 * be empty), once passed the cards given (each to the seat of its place).
 */
function placedCards(state) {
  const v = state.table.view;
  const count = v.pass_count;
  if (!v.passed) return Array.from({ length: count }, (_, i) => state.selected[i] || null);
  if (passForm(v) !== "several" || !v.passed_to) return v.passed.map((card) => `${card}#done`);
  const left = v.passed.map((card, i) => [card, v.passed_to[i]]);
  return v.pass_targets.map((seat) => {
    const at = left.findIndex(([, to]) => to === seat);
    return at < 0 ? null : `${left.splice(at, 1)[0][0]}#done`;
  });
}

/** One place of the pass: its card (a chosen one taps back into the hand), or an empty place. */
function slotHtml(state, key, label) {
  const v = state.table.view;
  if (!key) return `<span class="pb-empty"><span class="pb-empty-text">${esc(t("pass_open"))}</span></span>`;
  const card = keyCard(key);
  if (v.passed) return cardFace(card, { classes: ["pb-card"] });
  const name = `${cardName(card)}${label ? `, ${label}` : ""}, ${t("card_take_back")}`;
  return cardFace(card, { tag: "button", classes: ["pb-card"], attrs: `type="button" data-action="card" data-key="${key}"`, label: name });
}

/**
 * The pass in the middle of the table: where the cards go (the seat, with an arrow toward it; the pot; or each place
 * its own seat, as a plan of places), and a place for each card, filled as cards are chosen and shown once passed;
 * under them `kitty`, the kitty lying face down on the table (HTML, "" without one).
 */
export function passBoardHtml(state, kitty = "") {
  const table = state.table;
  const v = table.view;
  const form = passForm(v);
  const done = Boolean(v.passed);
  const cards = placedCards(state);
  const kittyNote = kitty ? `<div class="pb-kitty">${kitty}</div>` : "";
  const attrs = `class="pass-board${done ? " passed" : ""}" data-pass-board="${form}" data-style="--places:${cards.length}"`;
  if (form === "several") {
    const ordinals = t("ordinals");
    const items = v.pass_targets.map((seat, i) => {
      const key = cards[i];
      // "1st → Ellen (West)": the chair in a span of its own, which a phone on its side leaves out
      const label = `${esc(t("pass_place", { n: ordinals[i], name: plainName(table, seat) }))} ` +
        `<span class="pb-wind">(${esc(chairOf(table, seat))})</span>`;
      return `<li data-place="${i + 1}" data-to="${seat}"${key ? ` data-card="${keyCard(key)}"` : ""}>` +
        `<span class="pb-label">${label}</span>${slotHtml(state, key, t("card_goes_to", { name: seatName(table, seat) }))}</li>`;
    }).join("");
    const title = `<p class="pb-to">${esc(t(done ? "pass_board_passed" : "pass_plan"))}</p>`;
    return `<section ${attrs} aria-label="${esc(t("pass_plan"))}">${title}<ol class="pass-plan pb-places">${items}</ol>${kittyNote}</section>`;
  }
  const title = form === "pot"
    ? `<p class="pb-to" data-to="pot">${esc(t("passed_pot"))}</p>`
    : towardHtml(table, v.pass_targets[0], done ? "passed_to" : "pass_board_to");
  const items = cards.map((key, i) => `<li data-place="${i + 1}"${key ? ` data-card="${keyCard(key)}"` : ""}>${slotHtml(state, key, "")}</li>`).join("");
  return `<section ${attrs} aria-label="${esc(t("pass_plan"))}">${title}<ol class="pb-places">${items}</ol>${kittyNote}</section>`;
}

/** The status while passing: the lines to show and the buttons (the middle of the table shows where the cards go). */
export function passStatus(state) {
  const table = state.table;
  const v = table.view;
  if (v.passed) return { lines: [passWaiting(table)], plan: "", buttons: [] };
  const form = passForm(v);
  const ready = chosenCount(state.selected) === v.pass_count;
  const disabled = ready ? "" : " disabled";
  let line;
  let label;
  // once every card is chosen, the line says what is left to do (pass them, or change the choice)
  if (form === "one") {
    const dir = t(`pass_dir_${v.pass_direction}`);
    line = t(ready ? "pass_ready" : "pass_choose", { n: v.pass_count, name: seatName(table, v.pass_targets[0]), dir });
    label = t("pass_button", { dir });
  } else if (form === "pot") {
    line = t(ready ? "pass_ready_pot" : "pass_choose_pot", { n: v.pass_count });
    label = t("pass_button_pot");
  } else {
    line = t(ready ? "pass_ready_each" : "pass_choose_each", { n: v.pass_count });
    label = t("pass_button_each");
  }
  const buttons = [`<button type="button" class="primary" data-action="pass"${disabled}>${esc(label)}</button>`,
    `<button type="button" data-action="hint">${esc(t("hint"))}</button>`];
  return { lines: [line], buttons };
}

/** Where a chosen card (the key of its copy) goes, for its accessible name and its badge: {place: 1.., to: seat} or null. */
export function chosenPlace(state, key) {
  const v = state.table.view;
  const at = state.selected.indexOf(key);
  if (at < 0 || passForm(v) !== "several") return null;
  return { place: at + 1, to: v.pass_targets[at] };
}

/** "Passed: 5♣ → Bram, 9♦ → Carla" (each card with its seat, `cardKey` wording one), sorted as the hand is. */
function eachLine(table, pairs, key, cardKey) {
  const order = sortHand(pairs.map(([card]) => card));
  const seatOf = new Map(pairs);
  return t(key, { cards: order.map((card) => t(cardKey, { card: shortName(card), name: seatName(table, seatOf.get(card)) })).join(", ") });
}

/** The line of the cards you passed: to one seat, one by one to several, or into the pot. */
function passedLine(table) {
  const v = table.view;
  const cards = v.passed;
  const seats = v.passed_to;
  const text = sortHand(cards).map(shortName).join(" ");
  let line;
  if (!seats) line = `${t("passed_pot")}: ${text}`;
  else if (new Set(seats).size === 1) line = `${t("passed_to", { name: seatName(table, seats[0]) })}: ${text}`;
  else line = eachLine(table, cardSeats(cards, seats), "passed_each", "card_to");
  return `<span class="passed-line" data-passed="${esc(cards.join(" "))}">${esc(line)}</span>`;
}

/** The line of the cards you received: from one seat, one by one from several, or from the pot. */
function receivedLine(table) {
  const v = table.view;
  const seats = v.received_from;
  const text = sortHand(v.received).map(shortName).join(" ");
  let line;
  if (!seats) line = `${t("received_pot")}: ${text}`;
  else if (new Set(seats).size === 1) line = `${t("received_from", { name: seatName(table, seats[0]) })}: ${text}`;
  else line = eachLine(table, cardSeats(v.received, seats), "received_each", "card_from");
  return `<span class="received-line">${esc(line)}</span>`;
}

/** Whether the cards you received are still marked: until your first card of the hand. */
export function receivedShown(v) {
  if (!v.received || !v.received.length || v.phase === "passing") return false;
  const mine = (trick) => Boolean(trick) && trick.cards.some((c) => c.seat === v.seat);
  return !v.tricks.some(mine) && !mine(v.trick);
}

/** The cards you passed and where (the whole hand), and the cards you received (until your first card). */
export function exchangeLines(table) {
  const v = table.view;
  const out = [];
  if (v.passed && v.passed.length) out.push(passedLine(table));
  if (receivedShown(v)) out.push(receivedLine(table));
  return out;
}

/** Who a received card (the key of its copy: the second copy is the second one received) came from (null from the pot, or when not known). */
export function receivedFrom(v, key) {
  if (!v.received_from) return null;
  const at = keyed(v.received).findIndex(([, k]) => k === key);
  return at >= 0 ? v.received_from[at] : null;
}
