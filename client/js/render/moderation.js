// A person at the table: report them, or (the host, between hands) remove them, each with a reason. The waiting
// room has both buttons on the seat; at the table a seated person's name opens a small dialog with them.
import { t } from "../i18n.js";
import { esc } from "../html.js";
import { seatsOpen } from "./watch.js";
import { plainName, takes } from "./seats.js";
import { ratingText } from "./playnow.js";
import { canModerate } from "../seating.js";
import { say } from "./say.js";

export const REASON_MAX = 200;


/** The host may remove someone only between hands (before the start, between hands, after game over). */
export function canRemove(table, seat) {
  return canModerate(table, seat) && table.host === table.you && seatsOpen(table) && takes(table, "remove_player");
}

/** The waiting room's buttons on another person's seat: Remove… (the host) and Report…. */
export function moderationButtons(table, seat) {
  if (!canModerate(table, seat)) return "";
  const name = plainName(table, seat);
  const remove = canRemove(table, seat)
    ? `<button type="button" data-action="moderate" data-kind="remove" data-who="${seat}" aria-label="${esc(t("remove_title", { name }))}">${esc(t("remove_button"))}</button>`
    : "";
  const report = takes(table, "report")
    ? `<button type="button" data-action="moderate" data-kind="report" data-who="${seat}" aria-label="${esc(t("report_title", { name }))}">${esc(t("report_button"))}</button>`
    : "";
  return `${remove}${report}`;
}

/** At the table: another person's name is a button that opens what can be done about them. */
export function nameHtml(table, seat) {
  const name = plainName(table, seat);
  if (!canModerate(table, seat)) return `<span class="name">${esc(name)}</span>`;
  return `<button type="button" class="name-menu" data-action="moderate" data-who="${seat}" aria-haspopup="dialog"` +
    ` aria-label="${esc(t("seat_menu_label", { name }))}"><span class="name">${esc(name)}</span></button>`;
}

/** The dialog's title: the person's name, or what is being done about them. */
export function moderationTitle(state) {
  const m = state.moderation;
  const table = state.table;
  if (!m || !table) return "";
  const name = plainName(table, m.seat);
  if (m.kind === "report") return t("report_title", { name });
  if (m.kind === "remove") return t("remove_title", { name });
  return name;
}

/** The reason's form: a required line of up to 200 characters, then Send (or Remove) and Cancel. */
function reasonForm(state, name) {
  const m = state.moderation;
  const remove = m.kind === "remove";
  const error = m.error ? `<p id="mod-error" class="notice error" role="alert" data-moderation-error>${esc(say(m.error, state.table))}</p>` : "";
  return `<form data-form="moderation" class="moderation-form" data-kind="${m.kind}" data-who="${m.seat}">
    <label for="mod-reason">${esc(t(remove ? "remove_reason" : "report_reason", { name }))}</label>
    <textarea id="mod-reason" name="reason" rows="3" maxlength="${REASON_MAX}" required data-autofocus` +
    ` placeholder="${esc(t(remove ? "remove_placeholder" : "report_placeholder"))}"${m.error ? ' aria-describedby="mod-error"' : ""}>${esc(m.reason || "")}</textarea>
    ${error}
    <div class="confirm-buttons">
      <button type="submit" class="primary"${m.sending ? " disabled" : ""}>${esc(remove ? t("remove_send", { name }) : t("report_send"))}</button>
      <button type="button" data-action="close">${esc(t("cancel"))}</button>
    </div>
  </form>`;
}

/** The dialog about one person: their rating, Report… and (the host, between hands) Remove…; or the reason's form. */
export function moderationHtml(state) {
  const m = state.moderation;
  const table = state.table;
  if (!m || !table || !table.seats[m.seat]) return `<p>${esc(t("loading"))}</p>`;
  const name = plainName(table, m.seat);
  if (m.kind) return reasonForm(state, name);
  const r = table.ratings ? table.ratings[m.seat] : null;
  const rating = ratingText(r)
    ? `<p data-seat-rating>${esc(t("seat_rating", { value: ratingText(r), games: t("ratings_games", { n: r.games }) }))}</p>` : "";
  const isHost = table.host === table.you && takes(table, "remove_player");
  let remove = "";
  if (isHost && canRemove(table, m.seat)) {
    remove = `<button type="button" data-action="moderate" data-kind="remove" data-who="${m.seat}">${esc(t("remove_button"))}</button>`;
  } else if (isHost) {
    remove = `<p class="muted" data-remove-later>${esc(t("remove_between_hands"))}</p>`;
  }
  return `${rating}<div class="confirm-buttons seat-menu">` +
    `<button type="button" data-action="moderate" data-kind="report" data-who="${m.seat}">${esc(t("report_button"))}</button>${remove}</div>`;
}
