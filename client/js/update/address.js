// The address: what the page was opened with (/t/CODE, ?deal=N, ?device=CODE), the browser's Back and Forward (the
// screen follows the address, the replay viewer its own), and the address of what is on screen.
import { cleanCode } from "../devices.js";
import { joinTable, leave } from "./seating.js";

/** The browser's Back and Forward. */
export const INTENTS = {
  address: (state, intent) => followAddress(state, intent),
};

/**
 * What the page was opened with: /t/CODE (the table wanted), /?deal=N (deal number N in the new-table form),
 * /?device=CODE (a one-time code from another device, its QR code: that player moves here once connected), and what
 * this browser keeps (the player token, the name a device was signed out of).
 */
export function applyOpened(state, { path, search, playerToken, signedOut: outOf }) {
  state.playerToken = playerToken;
  state.signedOut = outOf;
  const tableCode = path.match(/^\/t\/([A-Za-z0-9]+)\/?$/);
  if (tableCode) state.wantedCode = tableCode[1].toUpperCase();
  const query = new URLSearchParams(search);
  const deal = (query.get("deal") || "").trim();
  const deviceCode = cleanCode(query.get("device"));
  if (deviceCode) state.device.linked = deviceCode;
  if (/^\d{1,12}$/.test(deal)) state.dealPrefill = state.dealLink = deal;
  return [];
}

/**
 * The browser's Back and Forward (`path`, `search`, `share`: the replay link's key, or null): the screen follows
 * the address, the replay viewer follows its own.
 */
function followAddress(state, { path, search, share }) {
  if (share && !(state.replay && state.replay.key.share === share)) return [{ do: "load", what: "replay", key: { share } }];
  if (share) return [];
  if (state.replay) state.replay = null; // the viewer closes; the screen under it follows the address too
  const tableCode = (path.match(/^\/t\/([A-Za-z0-9]+)\/?$/) || [])[1];
  const atTable = state.screen === "table" && (state.session || state.watching);
  if (atTable && screenAddress(state) !== path) return leave(state); // back to the start page: stand up (asked first during a game)
  if (!atTable && tableCode && state.screen !== "joining") {
    const effects = [{ do: "code_field", code: tableCode.toUpperCase() }]; // what a refusal is about
    if (state.prefs.name) return [...effects, ...joinTable(state, tableCode.toUpperCase())];
    return [...effects, { do: "reload" }]; // the invitation, as when the link is opened
  }
  if (!atTable && path === "/") {
    state.wantedCode = null;
    state.invite = null;
    state.notice = null; // it was about the page left behind
    const deal = (new URLSearchParams(search).get("deal") || "").trim();
    state.dealLink = /^\d{1,12}$/.test(deal) ? deal : "";
  }
  return [];
}

/** The address of what is on screen: the table's link, the start page, or null (joining, an invitation: as it is). */
export function screenAddress(state) {
  if (state.screen === "table" && state.session) return state.session.link || `/t/${state.session.code}`;
  if (state.screen === "table" && state.watching) return `/t/${state.watching}`;
  if (state.screen === "start" && !state.wantedCode) return "/";
  return null;
}
