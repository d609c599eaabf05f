// The chat panel at the table: built once with the DOM (never innerHTML for what people typed), then
// updated in place, so typing, the scroll position and the focus survive every redraw. New lines are
// also written to a polite live region, which a screen reader reads without the focus moving.
import { t, language } from "../i18n.js";
import { PHRASES, CHAT_MAX, isMine, isMuted } from "../chat.js";
import { takes } from "./seats.js";
import { say } from "./say.js";
import { langName } from "./playnow.js";

const LIVE_KEEP = 5;

function make(doc, tag, attrs = {}, text = null) {
  const el = doc.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  if (text !== null) el.textContent = text;
  return el;
}

function build(root) {
  const doc = root.ownerDocument;
  root.replaceChildren();
  const toggle = make(doc, "button", { type: "button", class: "chat-toggle", "data-chat": "toggle", "aria-controls": "chat-panel", "aria-expanded": "false" });
  toggle.append(make(doc, "span", { class: "chat-toggle-label" }), make(doc, "span", { class: "chat-unread", hidden: "" }));
  const panel = make(doc, "section", { id: "chat-panel", class: "chat-panel", hidden: "" });
  const head = make(doc, "div", { class: "chat-head" });
  head.append(
    make(doc, "h2", { class: "chat-title" }),
    make(doc, "button", { type: "button", class: "chat-allow", role: "switch", "data-chat": "allow", hidden: "" }),
    make(doc, "button", { type: "button", class: "chat-close", "data-chat": "toggle" }),
  );
  const log = make(doc, "ol", { class: "chat-log", tabindex: "0" });
  const langs = make(doc, "p", { class: "chat-langs", hidden: "" }); // the languages spoken here, when several
  const off = make(doc, "p", { class: "chat-off", hidden: "" });
  const error = make(doc, "p", { class: "chat-error", hidden: "" });
  const phrases = make(doc, "div", { class: "chat-phrases", role: "group" });
  for (const key of PHRASES) phrases.append(make(doc, "button", { type: "button", "data-chat": "phrase", "data-phrase": key }));
  const form = make(doc, "form", { class: "chat-form", autocomplete: "off" });
  const label = make(doc, "label", { for: "chat-input", class: "sr-only" });
  const input = make(doc, "input", { id: "chat-input", type: "text", maxlength: String(CHAT_MAX), enterkeyhint: "send" });
  form.append(label, input, make(doc, "button", { type: "submit", class: "chat-send" }));
  // your own switch: chat off for yourself (and at a Play now table, with half the people there, for everyone)
  const mine = make(doc, "div", { class: "chat-mine", hidden: "" });
  mine.append(
    make(doc, "button", { type: "button", class: "chat-self", role: "switch", "data-chat": "self" }),
    make(doc, "span", { class: "chat-votes", hidden: "" }),
  );
  const people = make(doc, "details", { class: "chat-people" });
  people.append(make(doc, "summary"), make(doc, "div", { class: "chat-mutes" }));
  panel.append(head, langs, log, off, error, phrases, form, mine, people);
  const live = make(doc, "div", { id: "chat-live", class: "sr-only", "aria-live": "polite", "aria-atomic": "false" });
  root.append(toggle, panel, live);
  root.dataset.built = "1";
  root.dataset.told = "0";
}

function labels(root) {
  const q = (s) => root.querySelector(s);
  q(".chat-toggle-label").textContent = t("chat_title");
  q(".chat-title").textContent = t("chat_title");
  q(".chat-close").textContent = "×";
  q(".chat-close").setAttribute("aria-label", t("chat_close"));
  q(".chat-log").setAttribute("aria-label", t("chat_log"));
  q(".chat-self").setAttribute("aria-label", t("chat_mine"));
  q(".chat-self").title = t("chat_mine");
  q(".chat-phrases").setAttribute("aria-label", t("chat_phrases"));
  for (const b of root.querySelectorAll("[data-phrase]")) b.textContent = t(`phrase_${b.dataset.phrase}`);
  q('label[for="chat-input"]').textContent = t("chat_label");
  q("#chat-input").placeholder = t("chat_placeholder");
  q(".chat-send").textContent = t("chat_send");
  q(".chat-people summary").textContent = t("chat_people");
}

function hhmm(at) {
  const d = new Date(at * 1000);
  return `${String(d.getHours()).padStart(2, "0")}:${String(d.getMinutes()).padStart(2, "0")}`;
}

export function lineText(line) {
  return line.phrase ? t(`phrase_${line.phrase}`) : line.text;
}

function lineEl(doc, state, line) {
  const li = make(doc, "li", { class: `chat-line${isMine(state, line) ? " mine" : ""}${line.phrase ? " phrase" : ""}`, "data-id": String(line.id) });
  const time = make(doc, "time", { datetime: new Date(line.at * 1000).toISOString() }, hhmm(line.at));
  const who = line.from.seat === null ? `${line.from.name} (${t("chat_watcher")})` : line.from.name;
  li.append(time, " ", make(doc, "span", { class: "chat-name" }, `${who}:`), " ", make(doc, "span", { class: "chat-text" }, lineText(line)));
  return li;
}

/** Who can be muted: the other people at the table and everyone who has chatted (watchers too). */
function people(state) {
  const table = state.table;
  const names = new Set();
  for (const s of table.seats) if (s.kind === "person" && s.name && s.seat !== table.you) names.add(s.name);
  for (const line of state.chat.lines) if (!isMine(state, line)) names.add(line.from.name);
  if (table.you !== null && table.you !== undefined) names.delete(table.seats[table.you].name);
  else if (state.myName) names.delete(state.myName);
  return [...names].sort((a, b) => a.localeCompare(b));
}

export function drawChat(state, doc) {
  const root = doc.getElementById("chat");
  if (!root) return;
  const table = state.table;
  // where the table takes chat (not the offline table: nobody else is there to read it)
  const here = Boolean(table) && state.screen === "table" && !state.replay && takes(table, "chat");
  root.hidden = !here;
  if (!here) return;
  if (!root.dataset.built) build(root);
  const lang = language();
  if (root.dataset.lang !== lang) {
    labels(root);
    root.dataset.lang = lang;
    root.dataset.logKey = ""; // phrases and "watching" in the new language
    root.dataset.peopleKey = "";
  }
  // the waiting room scrolls like a page: there the closed button is a line of its own above it
  root.dataset.where = table.status === "waiting" || !table.view ? "lobby" : "table";
  const chat = state.chat;
  const panel = root.querySelector(".chat-panel");
  const toggle = root.querySelector(".chat-toggle");
  root.classList.toggle("open", chat.open);
  panel.hidden = !chat.open;
  toggle.hidden = chat.open;
  toggle.setAttribute("aria-expanded", String(chat.open));
  const unread = root.querySelector(".chat-unread");
  unread.hidden = !chat.unread;
  unread.textContent = chat.unread ? String(chat.unread) : "";
  toggle.setAttribute("aria-label", chat.unread ? `${t("chat_title")}: ${t("chat_unread", { n: chat.unread })}` : t("chat_title"));

  const allowed = !table.chat || table.chat.allowed !== false;
  const seated = table.you !== null && table.you !== undefined;
  const mutedSeats = (table.chat && table.chat.muted) || [];
  const mine = seated && mutedSeats.includes(table.you); // this seat turned chat off for itself
  const playNow = Boolean(table.open && table.open.play_now);
  const talk = allowed && !mine;
  const off = root.querySelector(".chat-off");
  off.hidden = talk;
  const why = t(mine ? "chat_off_mine" : playNow ? "chat_off_votes" : "chat_off_note"); // your own switch first
  if (off.textContent !== why) off.textContent = why;
  root.querySelector(".chat-form").hidden = !talk;
  root.querySelector(".chat-phrases").hidden = !talk;
  const error = root.querySelector(".chat-error");
  error.hidden = !chat.error || !talk;
  error.textContent = say(chat.error);
  drawMine(root, table, { seated, mine, playNow, mutedSeats });
  drawLangs(root, table);
  const host = table.you !== null && table.you !== undefined && table.you === table.host;
  const allow = root.querySelector(".chat-allow");
  allow.hidden = !host;
  allow.dataset.value = String(!allowed);
  allow.setAttribute("aria-checked", String(allowed)); // a switch: its name the setting, its state checked or not
  allow.textContent = t(allowed ? "chat_on" : "chat_off");
  allow.title = t("chat_allow");
  allow.setAttribute("aria-label", t("chat_allow"));

  measure(root, doc);
  drawLog(root, state);
  drawPeople(root, state);
  announce(root, state);
}

/** Where people of several languages meet (Play now matches the game, whatever the language): which ones, so that
 * everyone knows what the others may read ("Players here speak: English / Nederlands"). */
function drawLangs(root, table) {
  const langs = (table.open && table.open.langs) || [];
  const line = root.querySelector(".chat-langs");
  line.hidden = langs.length < 2;
  const text = line.hidden ? "" : t("langs_here", { langs: langs.map(langName).join(" / ") });
  if (line.textContent !== text) line.textContent = text;
}

/** Your own chat switch, where the table takes it; at a Play now table, how many turned chat off so far. */
function drawMine(root, table, { seated, mine, playNow, mutedSeats }) {
  const row = root.querySelector(".chat-mine");
  row.hidden = !seated || !takes(table, "mute_chat");
  if (row.hidden) return;
  const button = root.querySelector(".chat-self");
  button.dataset.value = String(!mine);
  button.setAttribute("aria-checked", String(!mine));
  button.textContent = t(mine ? "chat_mine_off" : "chat_mine_on");
  const votes = root.querySelector(".chat-votes");
  votes.hidden = !playNow;
  const people = table.seats.filter((s) => s.kind === "person").length;
  if (playNow) votes.textContent = t("chat_votes", { n: mutedSeats.length, of: people });
}

const MEASURES = ["--chat-top", "--above-status", "--above-hand", "--me-top", "--me-h", "--me-bottom", "--me-right"];

/**
 * At the table the stylesheet (chat.css) places the chat by these numbers, so that the open panel never covers the
 * hand or the status (whose turn it is, the buttons) and the closed button sits beside your own panel on a phone:
 * the top bar's bottom; how far above the bottom of the screen the status and the hand begin; your own panel's
 * place in the page.
 */
function measure(root, doc) {
  const win = doc.defaultView;
  const box = (selector) => {
    const el = doc.querySelector(selector);
    return el && el.getClientRects().length ? el.getBoundingClientRect() : null;
  };
  const status = box('#screen [data-area="status"]');
  const hand = box('#screen [data-area="hand"]');
  if (root.dataset.where !== "table" || !status || !hand) {
    for (const name of MEASURES) root.style.removeProperty(name);
    return;
  }
  const px = (n) => `${Math.round(n)}px`;
  // the room your own panel keeps for the closed button beside it (on a phone upright; its width with the count)
  const toggle = root.querySelector(".chat-toggle");
  if (!toggle.hidden) doc.documentElement.style.setProperty("--chat-room", px(toggle.offsetWidth + 8));
  const top = box("#top");
  const me = box('#screen [data-area="me"] > :first-child') || box('#screen [data-area="me"]') || status;
  const set = {
    "--chat-top": px(Math.max(0, top ? top.bottom : 0)),
    "--above-status": px(win.innerHeight - status.top),
    "--above-hand": px(win.innerHeight - hand.top),
    "--me-top": px(me.top + win.scrollY),
    "--me-h": px(me.height),
    "--me-bottom": px(me.bottom + win.scrollY),
    "--me-right": px(doc.documentElement.clientWidth - me.right),
  };
  for (const [name, value] of Object.entries(set)) root.style.setProperty(name, value);
}

function drawLog(root, state) {
  const chat = state.chat;
  const shown = chat.lines.filter((l) => !isMuted(state, l));
  const key = `${chat.code}|${shown.map((l) => l.id).join(",")}`;
  if (root.dataset.logKey === key) return;
  root.dataset.logKey = key;
  const log = root.querySelector(".chat-log");
  const atEnd = log.scrollHeight - log.scrollTop - log.clientHeight < 40;
  const doc = root.ownerDocument;
  log.replaceChildren(...shown.map((l) => lineEl(doc, state, l)));
  if (!shown.length) log.append(make(doc, "li", { class: "chat-empty" }, t("chat_empty")));
  if (atEnd) log.scrollTop = log.scrollHeight;
}

function drawPeople(root, state) {
  const names = people(state);
  const muted = state.chat.muted;
  const key = names.map((n) => `${n}:${muted.has(n) ? 1 : 0}`).join("\u001f");
  if (root.dataset.peopleKey === key) return;
  root.dataset.peopleKey = key;
  const box = root.querySelector(".chat-mutes");
  const doc = root.ownerDocument;
  const active = doc.activeElement && box.contains(doc.activeElement) ? doc.activeElement.dataset.name : null;
  const rows = names.map((name) => {
    const on = muted.has(name);
    const button = make(doc, "button", {
      type: "button", class: `chat-mute${on ? " on" : ""}`, "data-chat": "mute", "aria-pressed": String(on),
      "aria-label": t(on ? "chat_unmute" : "chat_mute", { name }),
    });
    button.dataset.name = name;
    button.append(make(doc, "span", { class: "chat-mute-name" }, name), " ", make(doc, "span", { class: "chat-mute-state" }, t(on ? "chat_muted" : "chat_mute_short")));
    return button;
  });
  box.replaceChildren(...rows);
  if (!rows.length) box.append(make(doc, "p", { class: "muted" }, t("chat_nobody")));
  if (active !== null) {
    const again = rows.find((b) => b.dataset.name === active);
    if (again) again.focus();
  }
}

/** New lines of others (not muted) go to the polite live region, each once. */
function announce(root, state) {
  const live = root.querySelector("#chat-live");
  const code = state.chat.code;
  if (root.dataset.toldCode !== String(code)) {
    // another table, or a (re)join: its history is not read out, only what comes after it
    root.dataset.toldCode = String(code);
    root.dataset.told = String(state.chat.seen || 0);
    live.replaceChildren();
  }
  const told = Number(root.dataset.told || 0);
  let newest = told;
  for (const line of state.chat.lines) {
    if (line.id <= told) continue;
    newest = Math.max(newest, line.id);
    if (isMine(state, line) || isMuted(state, line)) continue;
    live.append(make(root.ownerDocument, "p", {}, t("chat_said", { name: line.from.name, text: lineText(line) })));
  }
  root.dataset.told = String(newest);
  while (live.childElementCount > LIVE_KEEP) live.firstElementChild.remove();
}
