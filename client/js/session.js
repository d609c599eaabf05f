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
  sessions[session.code] = session;
  localStorage.setItem(KEY, JSON.stringify(sessions));
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
