// The HTTP side of the server: statistics, today's board, my finished games and replays.
// Each loader puts what it got (or "error") in the state and asks for a redraw.

/** Today's date in UTC as YYYY-MM-DD: the day the daily deal belongs to. */
export function todayUtc(now = new Date()) {
  return now.toISOString().slice(0, 10);
}

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

// The last statistics the server gave, with when: shown offline (the service worker never keeps /api answers).
const STATS_KEY = "hartenjagen.stats";

function keepStats(token, data) {
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

export function createRemote(state, request) {
  async function loadStats() {
    state.stats = null;
    if (!state.playerToken) {
      state.stats = { games_played: 0 };
      request();
      return;
    }
    try {
      const res = await getJson("/api/stats", state.playerToken);
      if (res.status === 404) state.stats = { games_played: 0 };
      else state.stats = res.ok && res.data ? res.data : "error";
      if (state.stats !== "error") keepStats(state.playerToken, state.stats);
    } catch {
      state.stats = keptStats(state.playerToken) || "error"; // offline: the last figures, with their time
    }
    request();
  }

  async function loadDaily() {
    const date = todayUtc();
    if (state.daily && state.daily.date === date && state.daily.status === "loading") return;
    state.daily = { date, status: "loading", data: state.daily && state.daily.date === date ? state.daily.data : null };
    request();
    let daily;
    try {
      const res = await getJson(`/api/daily/${date}`, state.playerToken);
      daily = res.ok && res.data ? { date, status: "ok", data: res.data } : { date, status: "error", data: null };
    } catch {
      daily = { date, status: "error", data: null };
    }
    state.daily = daily;
    request();
  }

  async function loadGames() {
    state.games = "loading";
    request();
    if (!state.playerToken) {
      state.games = [];
      request();
      return;
    }
    try {
      const res = await getJson("/api/games", state.playerToken);
      if (res.status === 404 || res.status === 400) state.games = [];
      else if (!res.ok || !res.data || !Array.isArray(res.data.games)) state.games = "error";
      else state.games = [...res.data.games].sort((a, b) => (b.finished_at || 0) - (a.finished_at || 0));
    } catch {
      state.games = "error";
    }
    request();
  }

  /** Open the replay viewer on a finished game: `{share}` (anyone with the key) or `{id}` (a game I sat in). */
  async function loadReplay(key, you = null) {
    state.replay = { status: "loading", key, data: null, hand: 0, step: 0, you, reviews: {} };
    request();
    const path = key.share ? `/api/replays/${encodeURIComponent(key.share)}` : `/api/games/${encodeURIComponent(key.id)}`;
    let replay;
    try {
      const res = await getJson(path, key.share ? null : state.playerToken);
      if (res.ok && res.data && Array.isArray(res.data.hands)) replay = { ...state.replay, status: "ok", data: res.data };
      else replay = { ...state.replay, status: res.status === 404 ? "not_found" : "error" };
    } catch {
      replay = { ...state.replay, status: "error" };
    }
    if (state.replay && state.replay.key === key) state.replay = replay; // not closed or replaced meanwhile
    request();
  }

  /** The hard player's review of your decisions in hand `hand` of the replay's game (your own games only). */
  async function loadReview(hand) {
    const r = state.replay;
    if (!r || !r.key || !r.key.id) return;
    r.reviews = r.reviews || {};
    if (r.reviews[hand] && r.reviews[hand].status !== "error") return;
    const entry = r.reviews[hand] = { status: "loading", data: null };
    request();
    const path = `/api/games/${encodeURIComponent(r.key.id)}/review/${hand}`;
    try {
      // 202: still being computed (seconds of CPU); ask again until it is there, while this replay stays open.
      for (let asks = 0; asks < 400; asks++) {
        const res = await getJson(path, state.playerToken);
        if (res.status === 202 && res.data && res.data.status === "pending") {
          await new Promise((done) => setTimeout(done, Math.max(500, Number(res.data.retry_ms) || 1500)));
          if (state.replay !== r || r.reviews[hand] !== entry) return; // closed or replaced meanwhile
          continue;
        }
        if (res.ok && res.data && res.data.review) Object.assign(entry, { status: "ok", data: res.data });
        else Object.assign(entry, { status: "error", code: (res.data && res.data.error) || "error" });
        break;
      }
      if (entry.status === "loading") Object.assign(entry, { status: "error", code: "error" });
    } catch {
      Object.assign(entry, { status: "error", code: "error" });
    }
    request();
  }

  /** What the link's table is before joining (host, seats, rules): for the invitation on /t/CODE. */
  async function loadInvite(code) {
    state.invite = { code, status: "loading", data: null };
    request();
    let invite;
    try {
      const res = await getJson(`/api/tables/${encodeURIComponent(code)}`);
      invite = { code, status: res.ok && res.data ? "ok" : res.status === 404 ? "not_found" : "error", data: res.data };
    } catch {
      invite = { code, status: "error", data: null };
    }
    if (state.invite && state.invite.code === code) state.invite = invite;
    request();
  }

  /** Offer "Back to your table" for the latest stored seat, once the server says that token still holds it. */
  async function checkComeback(session, forget) {
    if (!session) return;
    try {
      const res = await getJson(`/api/tables/${encodeURIComponent(session.code)}`, null, session.seat_token);
      if (res.ok && res.data && res.data.you !== null && res.data.you !== undefined) {
        state.comeback = { code: session.code, seat: res.data.you, seats: (res.data.seats || []).length || 4 };
      } else if (res.status === 404 || (res.ok && res.data && res.data.you === null)) {
        forget(session.code); // the table closed, or the seat went to someone else
      }
    } catch {
      // offline: offer nothing now
    }
    request();
  }

  /**
   * The open tables for the start page's list. The list on screen stays until the new one is there (no flicker every
   * few seconds); a failed refresh keeps the last list, a first failure says the list is not available.
   */
  let openAsked = 0;
  async function loadOpenTables() {
    const asked = ++openAsked;
    const before = state.openTables;
    if (!before) state.openTables = { status: "loading", tables: null, at: 0 };
    let tables = null;
    try {
      const res = await getJson("/api/open-tables");
      if (res.ok && res.data && Array.isArray(res.data.tables)) tables = res.data.tables;
    } catch {
      tables = null;
    }
    if (asked !== openAsked) return; // a later refresh is under way: it has the newer list
    const last = state.openTables && state.openTables.tables;
    state.openTables = tables ? { status: "ok", tables, at: Date.now() } : { status: "error", tables: last || null, at: Date.now() };
    request();
  }

  /** The leaderboard of `family` over `period` (all | week), with your own place (your player token). */
  async function loadBoard(family, period) {
    const board = { family, period, status: "loading", data: null };
    const same = state.board && state.board.family === family && state.board.period === period;
    if (same && state.board.data) board.data = state.board.data; // shown while it refreshes
    state.board = board;
    request();
    let status = "error";
    let data = null;
    try {
      const res = await getJson(`/api/leaderboard/${encodeURIComponent(family)}/${encodeURIComponent(period)}`, state.playerToken);
      if (res.ok && res.data && Array.isArray(res.data.top)) {
        status = "ok";
        data = res.data;
      }
    } catch {
      status = "error";
    }
    if (state.board !== board) return; // another board was chosen meanwhile
    Object.assign(board, { status, data });
    request();
  }

  return { loadStats, loadDaily, loadGames, loadReplay, loadReview, loadInvite, checkComeback, loadOpenTables, loadBoard };
}
