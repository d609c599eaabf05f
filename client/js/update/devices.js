// Your player on other devices: the one-time code shown, a code from another device used here (this device becomes
// that player), the list of devices, one signed out, and a signed-out device that starts fresh.
import { cleanCode, deviceLabel } from "../devices.js";
import { words } from "../words.js";
import { toDevice } from "./sending.js";

/** The server's device messages. */
export const MESSAGES = {
  device_code: (state, msg) => {
    state.device.code = msg;
    return [];
  },
  device_joined: (state, msg) => {
    state.playerToken = msg.player_token; // this device now holds that player, with a token of its own
    const effects = [{ do: "save_player_token", token: msg.player_token }];
    state.myName = msg.name;
    state.device.joined = msg.name;
    state.device.linked = null;
    state.notice = { words: words("device_joined", { name: msg.name }), kind: "info" };
    state.prefs.name = msg.name; // the player's own name came with the code
    effects.push({ do: "save_prefs" }, { do: "name_field", name: msg.name }, { do: "load", what: "stats" });
    if (state.overlay === "stats") effects.push({ do: "send", msg: { type: "devices" } });
    effects.push({ do: "send", msg: { type: "my_tables" } }); // the player's seats: offered as "Back to your table"
    effects.push({ do: "replace_address", path: "/", ifSearch: "device=" });
    return effects;
  },
  device_code_used: (state, msg) => { // the code on screen moved this player to another device: it is used up
    if (state.device.code && state.device.code.code === msg.code) state.device.code = { ...state.device.code, used: msg };
    return state.overlay === "stats" ? [{ do: "send", msg: { type: "devices" } }] : [];
  },
  devices: (state, msg) => {
    state.device.list = msg.devices;
    return [];
  },
};

/** The person's device intents. */
export const INTENTS = {
  device_code: (state) => toDevice(state, { type: "device_code" }),
  sign_out_device: (state, intent) => toDevice(state, { type: "sign_out_device", device: intent.device }),
  // a code from another device: this device becomes that player (both keep working)
  use_device_code: (state, intent) => useDeviceCode(state, intent.text),
  // a signed-out device starts fresh: its next connection greets as a new player
  start_fresh: (state) => startFresh(state),
  device_name: (state, intent) => { // a name to greet with; the code from the other device brings the player's own
    state.prefs.name = intent.name;
    return [{ do: "save_prefs" }];
  },
};

/** A signed-out device starts fresh: the next hello makes a new player. */
function startFresh(state) {
  state.signedOut = null;
  return [{ do: "start_fresh" }];
}

/** Use a code from another device here (a signed-out device starts fresh with it). */
function useDeviceCode(state, text) {
  const deviceCode = cleanCode(text);
  if (!deviceCode) {
    state.device.error = words("device_code_bad");
    return [];
  }
  const fresh = state.signedOut !== null ? startFresh(state) : []; // a code from another device links again
  return [...fresh, ...toDevice(state, { type: "use_device_code", code: deviceCode, label: deviceLabel() })];
}
