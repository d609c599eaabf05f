// The connection: the server's welcome (back at the seat or table on screen, or the intent that waited is sent now),
// a table that lives on another node, the connection's status, and a device signed out from another device.
import { SIGNED_OUT } from "../session.js";
import { WAITS } from "./sending.js";
import { leftTable } from "./seating.js";

/** The server messages about the connection itself. */
export const MESSAGES = {
  welcome: (state, msg) => {
    state.restarting = false; // the server is back
    state.playerToken = msg.player_token;
    state.myName = msg.name; // a watcher's own chat lines carry this name
    return [{ do: "save_player_token", token: msg.player_token }, ...welcomed(state)];
  },
  pong: () => [],
  moved: (state, msg) => { // the table lives on another node: greet there, and send again what was sent here
    if (msg.again && WAITS.includes(msg.again.type)) state.pending = msg.again;
    return [{ do: "move", path: msg.path }];
  },
};

/**
 * A `welcome` with another player token than the one this device greeted with: that token holds nobody, it was signed
 * out while this page was closed. Say so, and become the new player the server offers only when the person starts
 * fresh. Null for any other message.
 */
export function greetedAsNobody(state, msg) {
  if (msg.type !== "welcome" || !msg.player_token || !state.playerToken || msg.player_token === state.playerToken) return null;
  const effects = signedOut(state);
  state.conn = "closed";
  return [...effects, { do: "stop" }];
}

/** `welcome`: back at the seat or table on screen, or the intent that waited for the connection is sent now. */
function welcomed(state) {
  state.greeted = true;
  const effects = [];
  if (state.session) {
    effects.push({ do: "send", msg: { type: "resume", code: state.session.code, seat_token: state.session.seat_token, last_seq: state.seq } });
  } else if (state.watching) {
    effects.push({ do: "send", msg: { type: "watch", code: state.watching } }); // watchers are not stored: watch again
  } else if (state.pending) {
    effects.push({ do: "send", msg: state.pending });
    state.pending = null;
  } else if (!state.comeback) {
    effects.push({ do: "send", msg: { type: "my_tables" } }); // a seat this player holds, maybe on another device
  }
  for (const msg of state.device.queue.splice(0)) effects.push({ do: "send", msg });
  return effects;
}

/** Another device signed this one out: its token holds nobody. Say so; a new player only when the person asks. */
function signedOut(state) {
  const effects = [{ do: "mark_signed_out", name: state.prefs.name }, ...leftTable(state)];
  state.signedOut = state.prefs.name || "";
  state.playerToken = null;
  state.pending = null;
  return [...effects, { do: "signed_out" }]; // the connection opens again once the person starts fresh (or uses a code)
}

/** The connection's status changed (`closeCode`: the close that started a reconnect, or the final close). */
export function applyConnection(state, status, closeCode) {
  state.conn = status;
  if (closeCode === 1012) state.restarting = true; // the server is restarting: it will be back, and so will we
  const effects = closeCode === SIGNED_OUT ? signedOut(state) : [];
  if (status !== "online") state.greeted = false;
  return effects;
}
