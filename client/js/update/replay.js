// The replay viewer: a finished game opened (asked of the server over HTTP), stepped through card by card or trick by
// trick, closed; and the hard player's review of your decisions in a hand of it (asked again while the server is
// still working it out).
import { stepCard, stepTrick, stepRange } from "../replay.js";

const REVIEW_ASKS = 400; // a review still being worked out is asked again at most this many times

/** The person's intents in the replay viewer. */
export const INTENTS = {
  replay_open: (state, intent) => {
    state.overlay = null;
    return [...(intent.share ? [{ do: "push_address", path: `/r/${intent.share}`, replay: true }] : []),
      { do: "load", what: "replay", key: intent.key, you: intent.you ?? null }];
  },
  replay_close: (state) => { // back to the table we sit at, or to the start screen
    state.replay = null;
    return [{ do: "push_address", path: state.session ? state.session.link || `/t/${state.session.code}` : "/" },
      ...(state.session ? [] : [{ do: "load", what: "daily" }])];
  },
  replay_go: (state, intent) => {
    replayGo(state, intent.hand, intent.step);
    return [];
  },
  replay_move: (state, intent) => {
    replayMove(state, intent.name);
    return [];
  },
  replay_review: (state) => (state.replay ? [{ do: "load", what: "review", hand: state.replay.hand }] : []),
  // a review the server was still working out: asked again (after the wait it named), while this replay stays open
  review_again: (state, intent) => {
    const entry = reviewWaiting(state, intent.key, intent.hand);
    if (!entry) return [{ do: "quiet" }]; // closed or replaced meanwhile
    if (intent.asks + 1 >= REVIEW_ASKS) {
      Object.assign(entry, { status: "error", code: "error" });
      return [];
    }
    return [{ do: "quiet" }, ...askReview(state, intent.key, intent.hand, intent.asks + 1)];
  },
};

/** What the viewer asks of the server over HTTP: the replay, and the review of one of its hands (your own games only). */
export const LOADS = {
  replay: (state, load) => { // `key`: {share} (anyone with the key) or {id} (a game I sat in)
    const key = load.key;
    state.replay = { status: "loading", key, data: null, hand: 0, step: 0, you: load.you ?? null, reviews: {} };
    const path = key.share ? `/api/replays/${encodeURIComponent(key.share)}` : `/api/games/${encodeURIComponent(key.id)}`;
    return [{ do: "fetch", ask: { what: "replay", path, token: key.share ? null : state.playerToken, key } }];
  },
  review: (state, load) => {
    const r = state.replay;
    const hand = load.hand;
    if (!r || !r.key || !r.key.id) return [];
    r.reviews = r.reviews || {};
    if (r.reviews[hand] && r.reviews[hand].status !== "error") return [];
    r.reviews[hand] = { status: "loading", data: null };
    return askReview(state, r.key, hand, 0);
  },
};

/** The server's HTTP answers to the viewer. */
export const ANSWERS = {
  replay: (state, answer) => {
    let replay;
    if (answer.failed) replay = { ...state.replay, status: "error" };
    else if (answer.ok && answer.data && Array.isArray(answer.data.hands)) replay = { ...state.replay, status: "ok", data: answer.data };
    else replay = { ...state.replay, status: answer.status === 404 ? "not_found" : "error" };
    if (state.replay && state.replay.key === answer.ask.key) state.replay = replay; // not closed or replaced meanwhile
    return [];
  },
  review: (state, answer) => {
    const { key, hand, asks } = answer.ask;
    const data = answer.data;
    // 202: still being computed (seconds of CPU); asked again after the wait the server names
    if (!answer.failed && answer.status === 202 && data && data.status === "pending") {
      const ms = Math.max(500, Number(data.retry_ms) || 1500);
      return [{ do: "later", ms, intent: { type: "review_again", key, hand, asks } }, { do: "quiet" }];
    }
    const entry = reviewWaiting(state, key, hand);
    if (!entry) return [];
    if (answer.failed) Object.assign(entry, { status: "error", code: "error" });
    else if (answer.ok && data && data.review) Object.assign(entry, { status: "ok", data });
    else Object.assign(entry, { status: "error", code: (data && data.error) || "error" });
    return [];
  },
};

/** Ask the server for the review of hand `hand` of the replay `key` (`asks`: how often it was asked before). */
function askReview(state, key, hand, asks) {
  const path = `/api/games/${encodeURIComponent(key.id)}/review/${hand}`;
  return [{ do: "fetch", ask: { what: "review", path, token: state.playerToken, key, hand, asks } }];
}

/** The review of hand `hand` of the replay `key` on screen that waits for the server, or null. */
function reviewWaiting(state, key, hand) {
  const r = state.replay;
  const entry = r && r.key === key && r.reviews ? r.reviews[hand] : null;
  return entry && entry.status === "loading" ? entry : null;
}

/** The replay viewer at hand `hand`, step `step` (kept within the hand). */
function replayGo(state, hand, step) {
  const r = state.replay;
  if (!r || r.status !== "ok" || !r.data.hands[hand]) return;
  r.hand = hand;
  r.step = Math.max(0, Math.min(step, stepRange(r.data.hands[hand]).last));
}

/** One step of the replay viewer: next/prev (a card), next_trick/prev_trick, start/end (of the hand). */
function replayMove(state, name) {
  const r = state.replay;
  if (!r || r.status !== "ok") return;
  const hands = r.data.hands;
  const at = { hand: r.hand, step: r.step };
  const to = {
    next: () => stepCard(hands, at, 1),
    prev: () => stepCard(hands, at, -1),
    next_trick: () => stepTrick(hands, at, 1),
    prev_trick: () => stepTrick(hands, at, -1),
    start: () => ({ hand: at.hand, step: 0 }),
    end: () => ({ hand: at.hand, step: stepRange(hands[at.hand]).last }),
  }[name];
  if (to) {
    const next = to();
    replayGo(state, next.hand, next.step);
  }
}
