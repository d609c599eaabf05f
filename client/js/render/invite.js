// The invitation on /t/CODE, "Back to your table" on the start page, and the leave confirmation.
import { t } from "../i18n.js";
import { esc } from "../html.js";
import { chairName, passingName, teamsOf, sidesOf, teamName } from "./seats.js";
import { say } from "./say.js";

/** The game and when it ends, in words: "Omnibus Hearts, game ends at 100 points" (from the table's options). */
export function variantLine(options) {
  const variant = options.variant || "classic";
  const name = t(`variant_${variant}`);
  if (options.start_chips !== undefined) {
    const chips = t("invite_rules_chips", { variant: name, n: options.start_chips, ante: options.ante });
    return `${chips}, ${options.hand_limit ? t("invite_rules_hands", { n: options.hand_limit }) : t("invite_rules_all_chips")}`;
  }
  if (options.turn_score !== undefined) return t("invite_rules_dutch", { variant: name, n: options.turn_score });
  const key = variant === "achterhoeks_bar" ? "invite_rules_over" : "invite_rules_classic";
  return t(key, { variant: name, n: options.end_score ?? 100 });
}

/** The table's rules in one line: game, when it ends, passing, how strong the computer players are. */
export function rulesLine(options, level) {
  const parts = [variantLine(options)];
  if (options.passing) parts.push(passingName(options.variant, options.passing, options.seats));
  if (["easy", "medium", "hard"].includes(level)) parts.push(t("invite_rules_computers", { level: t(`level_${level}`) }));
  return parts.join(" · ");
}

/** True when the link's table is known and the invitation should replace the full start form. */
export function showsInvite(state) {
  const invite = state.invite;
  return Boolean(invite && invite.status === "ok" && invite.code === state.wantedCode && !state.session);
}

/** A team game's sides on the invitation: who sits on each (empty chairs named), and that the side can be chosen. */
function inviteSides(info) {
  const teams = teamsOf({ teams: info.teams });
  if (!teams || !info.seats) return "";
  const n = info.seats.length;
  const items = sidesOf(teams).map((seats) => {
    const team = teams[seats[0]];
    const who = seats.map((seat) => {
      const s = info.seats[seat];
      const chair = chairName(n, seat);
      return s && s.kind !== "empty" && s.name ? t("team_invite_seat", { name: s.name, seat: chair }) : t("team_invite_free", { seat: chair });
    });
    return `<li class="team-${team}" data-side="${team}"><span class="badge team team-${team}">${esc(teamName({ teams }, team))}</span> ${esc(who.join(", "))}</li>`;
  }).join("");
  return `<div class="invite-sides"><p>${esc(t("team_invite_note"))}</p><ul>${items}</ul></div>`;
}

/** "You are invited to table CODE": host, rules in one line, a focused name field and one Join button. */
export function inviteHtml(state) {
  const info = state.invite.data;
  const code = state.invite.code;
  const nameError = state.fieldError && state.fieldError.field === "name" ? say(state.fieldError.words) : null;
  const notice = state.notice ? `<p class="notice ${state.notice.kind}" role="alert">${esc(say(state.notice.words, state.table))}</p>` : "";
  const joining = state.screen === "joining" ? `<p class="notice info" role="status">${esc(t("joining", { code }))}</p>` : "";
  const host = info.host ? `<span class="invite-host">${esc(t("invite_host", { host: info.host }))}</span><br>` : "";
  const playing = info.status === "playing" && !info.seats.some((s) => s.kind === "empty")
    ? `<p class="muted invite-playing">${esc(t("invite_playing"))}</p>` : "";
  return `<section class="start invite" data-invite="${esc(code)}">
  <form class="panel" data-form="join">
    <h2>${esc(t("invite_title", { code }))}</h2>
    <p>${host}<span class="invite-rules">${esc(rulesLine(info.options || {}, info.computer_level))}</span></p>
    ${inviteSides(info)}${playing}${notice}${joining}
    <label for="name">${esc(t("your_name"))}</label>
    <input type="hidden" name="code" value="${esc(code)}">
    <div class="row">
      <input id="name" name="name" maxlength="24" autocomplete="nickname" required autofocus placeholder="${esc(t("name_placeholder"))}" value="${esc(state.prefs.name)}"${nameError ? ' aria-invalid="true" aria-describedby="name-error"' : ""}>
      <button type="submit" class="primary">${esc(t("join_button"))}</button>
    </div>
    ${nameError ? `<p id="name-error" class="field-error" role="alert">${esc(nameError)}</p>` : ""}
  </form>
  <p class="invite-other"><button type="button" data-action="own_table">${esc(t("invite_other"))}</button></p>
</section>`;
}

/** On the start page: back to the table whose seat this browser still holds (checked live with the server). */
export function comebackHtml(state) {
  const back = state.comeback;
  if (!back || state.session || state.wantedCode) return "";
  const seat = chairName(back.seats || 4, back.seat);
  return `<div class="panel comeback" data-comeback="${esc(back.code)}">
    <h2>${esc(t("comeback_title"))}</h2>
    <button type="button" class="primary" data-action="comeback">${esc(t("comeback_button", { code: back.code, seat }))}</button>
  </div>`;
}

/**
 * Asked before a player leaves a game that is being played: a computer player takes the seat. Staying is the
 * main (first, yellow) button; standing up, which cannot be undone mid-hand, is the plain one.
 */
export function leaveHtml() {
  return `<p class="confirm-question">${esc(t("leave_question"))}</p>` +
    `<div class="confirm-buttons"><button type="button" class="primary" data-action="close" data-stay>${esc(t("leave_stay"))}</button>` +
    `<button type="button" data-action="leave_confirm">${esc(t("leave_confirm"))}</button></div>`;
}
