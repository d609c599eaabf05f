// What goes out: a message to the table (the offline table, or the server), a device message, and what waits for the
// connection (create, join and the like; the device messages) until the server welcomes it.

export const WAITS = ["create", "join", "resume", "watch", "play_now"]; // messages that wait for the connection
const DEVICE_MESSAGES = ["device_code", "devices", "sign_out_device", "use_device_code"]; // sent once connected

/** Send `msg` to the table: the offline table, or the server (create, join... wait for the connection). */
export function toTable(state, msg) {
  if (state.offline.playing) return [{ do: "offline_send", msg }];
  if (state.greeted) return [{ do: "send", msg }];
  return unsent(state, msg);
}

/** A message that found no connection: create, join and the like wait for it (connecting), a device message too. */
export function unsent(state, msg) {
  if (DEVICE_MESSAGES.includes(msg.type)) {
    state.device.queue.push(msg);
    // a name to greet with when there is none yet (the code brings the player's own)
    const effects = state.prefs.name ? [] : [{ do: "name_someone" }];
    return state.signedOut === null ? [...effects, { do: "connect" }] : effects;
  }
  if (!WAITS.includes(msg.type)) return [];
  state.pending = msg;
  return connect(state);
}

/** Open the connection, once there is a name to greet with (a signed-out device never greets as someone new). */
export function connect(state) {
  if (!state.prefs.name || state.signedOut !== null) return [];
  return [{ do: "connect" }];
}

/** Send a device message now, or once connected (connecting if need be). */
export function toDevice(state, msg) {
  state.device.error = null;
  if (state.greeted) return [{ do: "send", msg }];
  return unsent(state, msg);
}

/** The intents of sending: a message the connection did not take after all. */
export const INTENTS = {
  unsent: (state, intent) => unsent(state, intent.msg),
};
