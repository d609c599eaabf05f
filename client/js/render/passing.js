// Passing at the table: what to choose and where each chosen card goes, and afterwards what went where.
import { t, joinNames } from "../i18n.js";
import { esc } from "../html.js";
import { sortHand, shortName, keyCard, keyed } from "../cards.js";
import { seatName, plainName, chairOf } from "./seats.js";
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

/** The place of each card to choose: "1st → Bram (West): 5♣", the card still open as "…". */
function planHtml(state) {
  const table = state.table;
  const ordinals = t("ordinals");
  const items = table.view.pass_targets.map((seat, i) => {
    const card = state.selected[i] ? keyCard(state.selected[i]) : null;
    const chosen = card ? `<span class="plan-card">${esc(shortName(card))}</span>` : `<span class="plan-open">${esc(t("pass_open"))}</span>`;
    return `<li data-place="${i + 1}" data-to="${seat}"${card ? ` data-card="${card}"` : ""}>` +
      `${esc(t("pass_place", { n: ordinals[i], name: seatWithWind(table, seat) }))}: ${chosen}</li>`;
  }).join("");
  return `<ol class="pass-plan" aria-label="${esc(t("pass_plan"))}">${items}</ol>`;
}

/** The status while passing: the lines to show, the plan of places (cards going several ways) and the buttons. */
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
  return { lines: [line], plan: form === "several" ? planHtml(state) : "", buttons };
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
