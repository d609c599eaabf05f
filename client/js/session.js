// Seat tokens remembered per table code, so a reload or reconnect returns to the same seat.
const KEY = "hartenjagen.sessions";
const TOKEN_KEY = "hartenjagen.player_token";

function all() {
  try {
    return JSON.parse(localStorage.getItem(KEY) || "{}") || {};
  } catch {
    return {};
  }
}

export function loadSession(code) {
  return all()[code] || null;
}

export function saveSession(session) {
  const sessions = all();
  sessions[session.code] = { ...session, at: Date.now() };
  localStorage.setItem(KEY, JSON.stringify(sessions));
}

/** The most recently stored seat (any table), or null: offered as "Back to your table" once it is checked live. */
export function latestSession() {
  const sessions = Object.values(all()).filter((s) => s && s.code && s.seat_token);
  sessions.sort((a, b) => (b.at || 0) - (a.at || 0));
  return sessions[0] || null;
}

export function forgetSession(code) {
  const sessions = all();
  delete sessions[code];
  localStorage.setItem(KEY, JSON.stringify(sessions));
}

export function loadPlayerToken() {
  return localStorage.getItem(TOKEN_KEY);
}

export function savePlayerToken(token) {
  if (token) localStorage.setItem(TOKEN_KEY, token);
}

const SIGNED_OUT_KEY = "hartenjagen.signed_out";
/** Close code 4001 (server/connection/closing.py): the player signed this device out on another device. */
export const SIGNED_OUT = 4001;

/** Another device signed this one out of `name`: its token and seats go, and a reload still says so. */
export function markSignedOut(name) {
  localStorage.removeItem(TOKEN_KEY);
  localStorage.removeItem(KEY);
  localStorage.setItem(SIGNED_OUT_KEY, name || "");
}

/** The name this device was signed out of (it greets nobody until the person starts fresh), or null. */
export function signedOutOf() {
  return localStorage.getItem(SIGNED_OUT_KEY);
}

/** The name a `storage` event says this device was just signed out of (another page of it learnt so), or null. */
export function signedOutIn(event) {
  return event.key === SIGNED_OUT_KEY && event.newValue !== null ? event.newValue : null;
}

/** The person starts fresh on a signed-out device: the next hello makes a new player. */
export function startFresh() {
  localStorage.removeItem(SIGNED_OUT_KEY);
}
