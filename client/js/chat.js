// Table chat: a new chat's state (the lines the server sent are kept in memory only, like the server), who is muted
// (this browser's own choice, kept in localStorage by name), and the chat panel's events. update/chat.js changes the
// chat's state, render/chat.js draws it.

export const PHRASES = ["well_played", "oops", "again", "thanks", "good_luck"];
export const CHAT_MAX = 200; // code points on the server; the input's maxlength counts UTF-16 units, so it is stricter
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

/** Keep who is muted in this browser (the effect `save_muted`: their names). */
export function saveMuted(muted) {
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
