// Table chat: the lines the server sent (memory only, like the server), a refused line said in the panel, the panel
// opened or closed, and who is muted (this browser's own choice; main.js keeps it in the browser by name).
import { createChat, isMine, isMuted } from "../chat.js";
import { toTable } from "./sending.js";

const KEEP = 50; // lines kept, as on the server

/** The server's chat messages. */
export const MESSAGES = {
  chat: (state, msg) => {
    applyChat(state, msg);
    return [];
  },
  chat_history: (state, msg) => {
    applyChat(state, msg);
    return [];
  },
};

/** The person's chat intents. */
export const INTENTS = {
  chat: (state, intent) => {
    if (intent.text !== undefined) state.chat.error = null;
    return toTable(state, intent.text !== undefined ? { type: "chat", text: intent.text } : { type: "chat", phrase: intent.phrase });
  },
  chat_panel: (state) => {
    state.chat.open = !state.chat.open;
    if (state.chat.open) state.chat.unread = 0;
    return [];
  },
  mute: (state, intent) => toggleMute(state, intent.name),
};

/** `chat` and `chat_history` from the server. */
function applyChat(state, msg) {
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

const CHAT_ERRORS = ["chat_off_by_host", "chat_off_by_vote", "chat_off_by_you", "chat_limited", "chat_limited_address", "chat_busy"];

/** A refused chat line is told in the panel, not under the table. Returns true when it was one. */
export function chatError(state, msg) {
  const field = msg.field;
  if (!CHAT_ERRORS.includes(msg.code) && !(msg.code === "bad_message" && (field === "text" || field === "phrase"))) return false;
  state.chat.error = { server: msg }; // words: render/say.js says them in the language of the moment
  return true;
}

/** Mute the person called `name` in this browser's chat, or hear them again (kept in the browser: an effect). */
function toggleMute(state, name) {
  const muted = state.chat.muted;
  if (muted.has(name)) muted.delete(name);
  else muted.add(name);
  return [{ do: "save_muted", names: [...muted] }];
}

/** Leaving a table: its chat goes (the mutes stay). */
export function resetChat(state) {
  const muted = state.chat.muted;
  state.chat = { ...createChat(), muted };
}
