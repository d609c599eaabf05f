// What the page asks of the server over HTTP, and its answers: today's board, the statistics, my finished games,
// the leaderboard, the open tables, the invitation's table, and whether a stored seat still holds. A load says what
// waits (and asks: the effect `fetch`); the answer comes back here as a message ({ask, status, ok, data}, or
// {ask, failed} when the server was not reached) and changes the state. remote.js only fetches.
import { words } from "../words.js";

/** Today's date in UTC as YYYY-MM-DD: the day the daily deal belongs to. */
export function todayUtc(now = new Date()) {
  return now.toISOString().slice(0, 10);
}

/** What each load changes before its answer comes, and what it asks. */
export const LOADS = {
  daily: (state) => {
    const date = todayUtc();
    if (state.daily && state.daily.date === date && state.daily.status === "loading") return [{ do: "quiet" }];
    state.daily = { date, status: "loading", data: state.daily && state.daily.date === date ? state.daily.data : null };
    return [{ do: "fetch", ask: { what: "daily", path: `/api/daily/${date}`, token: state.playerToken, date } }];
  },
  stats: (state) => {
    state.stats = null;
    if (!state.playerToken) {
      state.stats = { games_played: 0 };
      return [];
    }
    return [{ do: "fetch", ask: { what: "stats", path: "/api/stats", token: state.playerToken } }];
  },
  games: (state) => {
    state.games = "loading";
    if (!state.playerToken) {
      state.games = [];
      return [];
    }
    return [{ do: "fetch", ask: { what: "games", path: "/api/games", token: state.playerToken } }];
  },
  /** The leaderboard of `family` over `period` (all | week), with your own place (your player token). */
  board: (state, load) => {
    const { family, period } = load;
    const board = { family, period, status: "loading", data: null };
    const same = state.board && state.board.family === family && state.board.period === period;
    if (same && state.board.data) board.data = state.board.data; // shown while it refreshes
    state.board = board;
    state.asked.board += 1;
    const path = `/api/leaderboard/${encodeURIComponent(family)}/${encodeURIComponent(period)}`;
    return [{ do: "fetch", ask: { what: "board", path, token: state.playerToken, asked: state.asked.board } }];
  },
  /**
   * The open tables for the start page's list. The list on screen stays until the new one is there (no flicker every
   * few seconds); a failed refresh keeps the last list, a first failure says the list is not available.
   */
  open_tables: (state) => {
    state.asked.openTables += 1;
    if (!state.openTables) state.openTables = { status: "loading", tables: null, at: 0 };
    return [{ do: "quiet" }, { do: "fetch", ask: { what: "open_tables", path: "/api/open-tables", asked: state.asked.openTables } }];
  },
  /** What the link's table is before joining (host, seats, rules): for the invitation on /t/CODE. */
  invite: (state, load) => {
    const code = load.code;
    state.invite = { code, status: "loading", data: null };
    return [{ do: "fetch", ask: { what: "invite", path: `/api/tables/${encodeURIComponent(code)}`, code } }];
  },
  /** Offer "Back to your table" for the latest stored seat (`session`), once the server says that token still holds it. */
  comeback: (state, load) => {
    const session = load.session;
    const path = `/api/tables/${encodeURIComponent(session.code)}`;
    return [{ do: "quiet" }, { do: "fetch", ask: { what: "comeback", path, seatToken: session.seat_token, session } }];
  },
};

/** What each answer changes. */
export const ANSWERS = {
  daily: (state, answer) => {
    const date = answer.ask.date;
    const ok = !answer.failed && answer.ok && answer.data;
    state.daily = ok ? { date, status: "ok", data: answer.data } : { date, status: "error", data: null };
    return [];
  },
  stats: (state, answer) => {
    if (answer.failed) {
      state.stats = answer.kept || "error"; // offline: the last figures, with their time
      return [];
    }
    if (answer.status === 404) state.stats = { games_played: 0 };
    else state.stats = answer.ok && answer.data ? answer.data : "error";
    // kept, to be shown offline (the service worker never keeps /api answers)
    return state.stats !== "error" ? [{ do: "keep_stats", token: state.playerToken, data: state.stats }] : [];
  },
  games: (state, answer) => {
    const data = answer.data;
    if (answer.failed) state.games = "error";
    else if (answer.status === 404 || answer.status === 400) state.games = [];
    else if (!answer.ok || !data || !Array.isArray(data.games)) state.games = "error";
    else state.games = [...data.games].sort((a, b) => (b.finished_at || 0) - (a.finished_at || 0));
    return [];
  },
  board: (state, answer) => {
    if (answer.ask.asked !== state.asked.board) return [{ do: "quiet" }]; // another board was chosen meanwhile
    const ok = !answer.failed && answer.ok && answer.data && Array.isArray(answer.data.top);
    Object.assign(state.board, { status: ok ? "ok" : "error", data: ok ? answer.data : null });
    return [];
  },
  open_tables: (state, answer, now) => {
    if (answer.ask.asked !== state.asked.openTables) return [{ do: "quiet" }]; // a later refresh is under way: it has the newer list
    const data = answer.data;
    const tables = !answer.failed && answer.ok && data && Array.isArray(data.tables) ? data.tables : null;
    const last = state.openTables && state.openTables.tables;
    state.openTables = tables ? { status: "ok", tables, at: now } : { status: "error", tables: last || null, at: now };
    return [];
  },
  invite: (state, answer) => {
    const code = answer.ask.code;
    let invite;
    if (answer.failed) invite = { code, status: "error", data: null };
    else invite = { code, status: answer.ok && answer.data ? "ok" : answer.status === 404 ? "not_found" : "error", data: answer.data };
    if (state.invite && state.invite.code === code) state.invite = invite;
    return invited(state);
  },
  comeback: (state, answer) => {
    const session = answer.ask.session;
    const data = answer.data;
    if (answer.failed) return []; // offline: offer nothing now
    if (answer.ok && data && data.you !== null && data.you !== undefined) {
      state.comeback = { code: session.code, seat: data.you, seats: (data.seats || []).length || 4 };
    } else if (answer.status === 404 || (answer.ok && data && data.you === null)) {
      return [{ do: "forget_session", code: session.code }]; // the table closed, or the seat went to someone else
    }
    return [];
  },
};

/** The invitation's table was looked up (the page opened at /t/CODE without a name): the name field takes the focus. */
function invited(state) {
  if (state.invite && state.invite.status === "not_found" && !state.notice) state.notice = { words: words("error_no_table"), kind: "error" };
  return state.session ? [] : [{ do: "focus", field: "name" }];
}
