// The HTTP side of the server: statistics, today's board, my finished games, replays and their reviews, the open
// tables, the leaderboard, a table before joining it. update.js says what to ask (the effect `fetch`, with an `ask`);
// this fetches it and resolves to the answer, a message update.js applies: {ask, status, ok, data}, or {ask, failed}
// when the server was not reached. Nothing here changes the state.

async function getJson(path, token, seatToken = null) {
  const headers = token ? { "X-Player-Token": token } : {};
  if (seatToken) headers["X-Seat-Token"] = seatToken;
  const res = await fetch(path, { headers });
  let data = null;
  try {
    data = await res.json();
  } catch {
    data = null;
  }
  return { status: res.status, ok: res.ok, data };
}

/**
 * Ask the server what `ask` says (`path`, with the player's `token` or a `seatToken` when it names one). Offline, the
 * statistics answer with the last figures kept on this device (`kept`).
 */
export async function fetchAnswer(ask) {
  try {
    return { ask, ...(await getJson(ask.path, ask.token || null, ask.seatToken || null)) };
  } catch {
    return { ask, failed: true, ...(ask.what === "stats" ? { kept: keptStats(ask.token) } : {}) };
  }
}

// The last statistics the server gave, with when: shown offline (the service worker never keeps /api answers).
const STATS_KEY = "hartenjagen.stats";

/** Keep the statistics of this player token (the effect `keep_stats`). */
export function keepStats(token, data) {
  try {
    localStorage.setItem(STATS_KEY, JSON.stringify({ token, at: Date.now(), data }));
  } catch {
    // storage full or refused: nothing kept
  }
}

/** The kept statistics of this player token as {..., offlineAt}, or null. */
function keptStats(token) {
  try {
    const kept = JSON.parse(localStorage.getItem(STATS_KEY) || "null");
    if (kept && kept.token === token && kept.data && typeof kept.at === "number") return { ...kept.data, offlineAt: kept.at };
  } catch {
    // unreadable: as if nothing was kept
  }
  return null;
}
