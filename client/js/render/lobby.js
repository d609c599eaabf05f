// The waiting room: the code, a copy-link button, the four seats, computer players and start.
import { t, joinNames } from "../i18n.js";
import { esc } from "../html.js";
import { seatsFromMe, position, seatCount, chairName, teamsOf, sidesOf, teamName, plainName, takes } from "./seats.js";
import { watchCount } from "./watch.js";
import { rulesLine } from "./invite.js";
import { dayText } from "../format.js";
import { ratingBadge, isPlayNowWaiting, playNowWaitingHtml } from "./playnow.js";
import { moderationButtons } from "./moderation.js";
import { say } from "./say.js";

function badges(table, s) {
  const out = [];
  if (s.seat === table.you) out.push(`<span class="badge you">${esc(t("you_suffix"))}</span>`);
  if (s.seat === table.host) out.push(`<span class="badge host">${esc(t("host_badge"))}</span>`);
  if (s.kind === "computer") out.push(`<span class="badge computer">${esc(t("computer_badge", { level: t(`level_${s.level}`) }))}</span>`);
  if (s.kind === "person" && (s.away || !s.connected)) out.push(`<span class="badge away">${esc(t("away_badge"))}</span>`);
  return out.join(" ");
}

export const TIMER_CHOICES = [10, 15, 30, 60];

/** The turn timer: a choice for the host, the setting for everyone else. */
function timerHtml(table, isHost) {
  const label = esc(t("timer_label"));
  const text = (n) => (n ? t("timer_seconds", { n }) : t("timer_off"));
  if (!isHost) return `<p class="muted timer-setting">${label}: ${esc(text(table.turn_timer))}</p>`;
  const options = [null, ...TIMER_CHOICES].map((n) =>
    `<option value="${n ?? "off"}"${(table.turn_timer ?? null) === n ? " selected" : ""}>${esc(text(n))}</option>`).join("");
  return `<p class="timer-setting"><label for="turn-timer">${label}</label> <select id="turn-timer" data-change="timer">${options}</select></p>`;
}

/** The host allows or refuses watchers (people with the link, without a seat); everyone sees how many watch. */
function watchSetting(table, isHost) {
  const w = table.watch;
  if (!w || table.daily) return "";
  const count = w.count ? ` <span class="badge" data-watch-count="${w.count}">${esc(watchCount(w.count))}</span>` : "";
  if (!isHost) return count ? `<p class="muted watch-setting">${count}</p>` : "";
  return `<div class="grid watch-setting"><label class="check" for="allow-watch"><input type="checkbox" id="allow-watch" data-change="allow_watch"` +
    `${w.allowed ? " checked" : ""}> ${esc(t("watch_allow"))}${count}</label></div>`;
}

function dailyHtml(table) {
  const d = table.daily;
  const counts = d.counts !== false;
  return `<div class="daily-box" data-counts="${counts}">` +
    `<p class="daily-date">${esc(t("daily_of", { date: dayText(d.date) }))}</p>` +
    `<p class="notice ${counts ? "info" : "warning"}" role="status" data-daily-counts="${counts}">${esc(t(counts ? "daily_counts" : "daily_not_counts"))}</p></div>`;
}

/**
 * One seat of the waiting room: its chair, who sits there (with their rating at an open table), and what can be done
 * with it. At a Play now table nobody moves seats or adds computer players: the table fills and starts by itself.
 */
export function seatCard(table, n, manage, count) {
  const s = table.seats[n];
  const empty = s.kind === "empty";
  const playNow = isPlayNowWaiting(table);
  let action = "";
  if (manage && empty) action = `<button type="button" data-action="add_computer" data-seat="${n}">${esc(t("add_computer"))}</button>`;
  else if (manage && s.kind === "computer") action = `<button type="button" data-action="remove_computer" data-seat="${n}">${esc(t("remove_computer"))}</button>`;
  if (empty && !playNow) action += `<button type="button" data-action="sit" data-seat="${n}">${esc(t("sit_here"))}</button>`;
  else if (table.you === null && s.kind === "computer") { // a watcher may take a computer player's seat before the start
    action += `<button type="button" data-action="sit" data-seat="${n}">${esc(t("watch_take", { name: s.name }))}</button>`;
  }
  action += moderationButtons(table, n);
  const name = empty ? `<span class="empty">${esc(t("seat_empty"))}</span>` : `<span class="name">${esc(s.name)}</span>`;
  const rating = s.kind === "person" && table.ratings ? ratingBadge(table.ratings[n]) : "";
  return `<li class="seat-card pos-${position(n, table.you, count)}${empty ? " is-empty" : ""}" data-seat="${n}" data-kind="${s.kind}">` +
    `<span class="wind">${esc(chairName(count, n))}</span> ${name} ${rating} ${badges(table, s)}<span class="seat-actions">${action}</span></li>`;
}

/**
 * The host lists the table on the start page (an open table anyone may sit down at; with people on every seat its
 * game is rated), or takes it off; everyone else sees that it is listed. Not at a daily table.
 */
function openSetting(table, isHost) {
  const open = table.open;
  if (!open || table.daily) return "";
  if (!isHost) return open.listed ? `<p class="muted open-setting" data-listed>${esc(t("listed_note"))}</p>` : "";
  return `<div class="grid open-setting"><label class="check" for="list-open"><input type="checkbox" id="list-open" data-change="set_open"` +
    `${open.listed ? " checked" : ""} aria-describedby="list-open-help"> ${esc(t("list_open"))}</label>` +
    `<p id="list-open-help" class="field-help">${esc(t("list_open_help"))}</p></div>`;
}

/** A seat's person for the sides' sentence: their name, or "whoever sits North" while it is empty. */
function sideName(table, seat) {
  const s = table.seats[seat];
  return s.kind === "empty" ? t("team_open_seat", { seat: chairName(seatCount(table), seat) }) : plainName(table, seat);
}

/**
 * A team game's waiting room: the two sides, partners together (your own side first), who you play with and
 * against; to change sides, Sit here on an empty seat of the other side, or a button that takes a computer player's
 * seat there when it has no empty one.
 */
function sidesHtml(table, teams, manage, count) {
  const me = table.you;
  const sides = sidesOf(teams);
  if (me !== null) sides.sort((a, b) => Number(b.includes(me)) - Number(a.includes(me)));
  const boxes = sides.map((seats) => {
    const team = teams[seats[0]];
    const mine = me !== null && seats.includes(me);
    const ordered = mine ? [me, ...seats.filter((s) => s !== me)] : seats;
    // an empty seat has its own Sit here; a side of computer players only gets a button of its own
    const free = seats.some((s) => table.seats[s].kind === "empty") ? undefined : seats.find((s) => table.seats[s].kind === "computer");
    const move = me !== null && !mine && free !== undefined // a watcher has Take …'s seat on each computer player
      ? `<button type="button" class="side-join" data-action="sit" data-seat="${free}" data-side="${team}">${esc(t("team_join"))}</button>` : "";
    const yours = mine ? ` <span class="badge you">${esc(t("team_side_you"))}</span>` : "";
    return `<section class="side team-${team}${mine ? " mine" : ""}" data-side="${team}" aria-labelledby="side-${team}">` +
      `<h3 id="side-${team}"><span class="badge team team-${team}">${esc(teamName({ teams }, team))}</span>${yours}</h3>` +
      `<ul class="seats">${ordered.map((n) => seatCard(table, n, manage, count)).join("")}</ul>${move}</section>`;
  }).join("");
  const names = (seats) => seats.map((s) => sideName(table, s));
  let line = t("team_lobby_note", { a: teamName({ teams }, teams[sides[0][0]]), b: teamName({ teams }, teams[sides[1][0]]) });
  if (me !== null) {
    const partners = sides[0].filter((s) => s !== me);
    line += ` ${t("team_you_with", { partner: joinNames(names(partners)), others: joinNames(names(sides[1])) })}`;
  }
  return `<p class="team-line" role="status" data-team-line>${esc(line)}</p><div class="sides">${boxes}</div>`;
}

export function lobbyHtml(state, now = Date.now()) {
  const table = state.table;
  if (isPlayNowWaiting(table)) return playNowWaitingHtml(state, seatCard, now);
  const isHost = table.host === table.you && takes(table, "start");
  const manage = isHost && !table.daily && takes(table, "add_computer"); // a daily table's computer players stay
  const count = seatCount(table);
  const teams = teamsOf(table);
  const seats = teams
    ? sidesHtml(table, teams, manage, count)
    : `<ul class="seats">${seatsFromMe(table.you, count).map((n) => seatCard(table, n, manage, count)).join("")}</ul>`;
  const full = table.seats.every((s) => s.kind !== "empty");
  const link = new URL(table.link || `/t/${table.code}`, location.href).href;
  const host = isHost
    ? `<div class="host-actions">
        ${manage ? `<button type="button" data-action="fill_computers"${full ? " disabled" : ""}>${esc(t("fill_computers"))}</button>` : ""}
        <button type="button" class="primary" data-action="start"${full ? "" : " disabled"}>${esc(t("start_game"))}</button>
        ${full ? "" : `<p class="muted">${esc(count === 4 ? t("need_four") : t("need_players", { n: count }))}</p>`}
      </div>`
    : `<p class="muted" role="status">${esc(t("waiting_for_host"))}</p>`;
  const timer = timerHtml(table, isHost) + watchSetting(table, isHost) + openSetting(table, isHost);
  const notice = state.notice ? `<p class="notice ${state.notice.kind}" role="alert">${esc(say(state.notice.words, state.table))}</p>` : "";
  // A daily table has no one to invite; before the start it says whether this game counts for the board.
  const top = table.daily ? dailyHtml(table) : `<div class="code-box">
    <span class="code-label">${esc(t("code_label"))}</span>
    <strong class="code" data-code="${esc(table.code)}">${esc(table.code)}</strong>
    <input class="link" readonly value="${esc(link)}" aria-label="${esc(t("copy_link"))}">
    <button type="button" data-action="copy" data-link="${esc(link)}">${esc(state.copied ? t("link_copied") : t("copy_link"))}</button>
  </div>`;
  return `<section class="lobby">
  <h2>${esc(t(table.daily ? "daily_title" : "waiting_title"))}</h2>
  <p class="muted lobby-rules">${esc(rulesLine(table.options || {}))}</p>
  ${top}
  ${notice}
  ${seats}
  ${timer}
  ${host}
</section>`;
}
