// Table chat: the lines the server sent (memory only, like the server), who is muted (this browser's
// own choice, kept in localStorage by name), and the chat panel's events. render/chat.js draws it.

export const PHRASES = ["well_played", "oops", "again", "thanks", "good_luck"];
export const CHAT_MAX = 200; // code points on the server; the input's maxlength counts UTF-16 units, so it is stricter
const KEEP = 50; // lines kept, as on the server
const MUTE_KEY = "hartenjagen.muted";

export function createChat() {
  return { code: null, lines: [], seen: 0, open: false, unread: 0, error: null, muted: loadMuted() };
}

function loadMuted() {
  try {
    const names = JSON.parse(localStorage.getItem(MUTE_KEY) || "[]");
    return new Set(Array.isArray(names) ? names.filter((n) => typeof n === "string") : []);
  } catch {
    return new Set();
  }
}

function saveMuted(muted) {
  try {
    localStorage.setItem(MUTE_KEY, JSON.stringify([...muted]));
  } catch {
    // private mode: muting lasts as long as the page
  }
}

/** True when the line was sent by this page's own connection (its seat, or as a watcher under its name). */
export function isMine(state, line) {
  const table = state.table;
  if (!table || !line.from) return false;
  if (table.you !== null && table.you !== undefined) return line.from.seat === table.you;
  return line.from.seat === null && line.from.name === state.myName;
}

export function isMuted(state, line) {
  return Boolean(line.from) && state.chat.muted.has(line.from.name) && !isMine(state, line);
}

/** `chat` and `chat_history` from the server. */
export function applyChat(state, msg) {
  const chat = state.chat;
  if (msg.type === "chat_history") {
    chat.code = msg.code;
    chat.lines = (msg.messages || []).slice(-KEEP);
    chat.unread = 0;
    chat.seen = chat.lines.length ? chat.lines[chat.lines.length - 1].id : 0; // the history is not read out
    return;
  }
  if (state.table && chat.code !== state.table.code) {
    chat.code = state.table.code; // a table we created: it has no history
    chat.lines = [];
    chat.seen = 0;
  }
  if (chat.lines.some((l) => l.id === msg.id)) return;
  chat.lines.push(msg);
  if (chat.lines.length > KEEP) chat.lines.shift();
  if (isMine(state, msg)) chat.error = null;
  else if (!chat.open && !isMuted(state, msg)) chat.unread += 1;
}

/** A refused chat line is told in the panel, not under the table. Returns true when it was one. */
export function chatError(state, msg) {
  const field = msg.field;
  if (!["chat_off", "chat_limited", "chat_busy"].includes(msg.code) && !(msg.code === "bad_message" && (field === "text" || field === "phrase"))) return false;
  state.chat.error = { server: msg }; // words: render/say.js says them in the language of the moment
  return true;
}

/** Mute the person called `name` in this browser's chat, or hear them again (kept in localStorage). */
export function toggleMute(state, name) {
  const muted = state.chat.muted;
  if (muted.has(name)) muted.delete(name);
  else muted.add(name);
  saveMuted(muted);
}

/** Leaving a table: its chat goes (the mutes stay). */
export function resetChat(state) {
  const muted = state.chat.muted;
  state.chat = { ...createChat(), muted };
}

/** The chat panel's clicks and its form: intents (update.js changes the state), and where the focus goes. */
export function bindChat({ state, dispatch }) {
  const root = document.getElementById("chat");
  if (!root) return;
  root.addEventListener("click", (event) => {
    const target = event.target.closest("[data-chat]");
    if (!target) return;
    const what = target.dataset.chat;
    if (what === "toggle") toggle(state, dispatch, root);
    else if (what === "phrase") dispatch({ type: "chat", phrase: target.dataset.phrase });
    else if (what === "mute") dispatch({ type: "mute", name: target.dataset.name });
    else if (what === "allow") dispatch({ type: "allow_chat", allowed: target.dataset.value === "true" });
    else if (what === "self") dispatch({ type: "mute_chat", muted: target.dataset.value === "true" });
  });
  root.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && state.chat.open && !state.overlay) {
      event.stopPropagation();
      toggle(state, dispatch, root);
    }
  });
  root.addEventListener("submit", (event) => {
    event.preventDefault();
    const input = root.querySelector("#chat-input");
    const text = input.value.trim();
    if (!text) return;
    dispatch({ type: "chat", text });
    input.value = "";
  });
}

/** Open or close the panel; the focus goes with it (into the panel, or back to the button that opens it). */
function toggle(state, dispatch, root) {
  dispatch({ type: "chat_panel" });
  const chat = state.chat;
  requestAnimationFrame(() => requestAnimationFrame(() => {
    if (!chat.open) return root.querySelector(".chat-toggle").focus();
    const log = root.querySelector(".chat-log");
    log.scrollTop = log.scrollHeight;
    // a keyboard and a mouse: straight into the input; a touch screen: no keyboard popping up uninvited
    const input = root.querySelector("#chat-input");
    const typing = window.matchMedia("(pointer: fine)").matches && input.offsetParent !== null;
    (typing ? input : root.querySelector(".chat-close")).focus();
  }));
}
