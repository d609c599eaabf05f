// The replay viewer's navigation: opening it (its address is the replay link), closing it, stepping through it.
import { stepCard, stepTrick, stepRange } from "./replay.js";

/** The share key of a replay link /r/KEY, or null. */
export function shareInPath(path = location.pathname) {
  const m = path.match(/^\/r\/([A-Za-z0-9_-]+)\/?$/);
  return m ? m[1] : null;
}

export function createViewer({ state, remote, request }) {
  /** Open the viewer on `key` ({share} or {id}); with a share key the address becomes the game's replay link. */
  function open(key, you = null, share = null) {
    state.overlay = null;
    if (share) history.pushState({ replay: true }, "", `/r/${share}`);
    remote.loadReplay(key, you);
  }

  /** Back to the table we sit at, or to the start screen. */
  function close() {
    state.replay = null;
    history.pushState(null, "", state.session ? state.session.link || `/t/${state.session.code}` : "/");
    if (!state.session) remote.loadDaily();
    request();
  }

  function go(at) {
    const r = state.replay;
    if (!r || r.status !== "ok" || !r.data.hands[at.hand]) return;
    r.hand = at.hand;
    r.step = Math.max(0, Math.min(at.step, stepRange(r.data.hands[at.hand]).last));
    request();
  }

  /** One step: next/prev (a card), next_trick/prev_trick, start/end (of the hand). */
  function move(name) {
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
    if (to) go(to());
  }

  /** The browser's back and forward buttons between the viewer and the rest. */
  function followAddress() {
    const share = shareInPath();
    if (share && !(state.replay && state.replay.key.share === share)) remote.loadReplay({ share });
    else if (!share && state.replay) state.replay = null;
    request();
  }

  return { open, close, go, move, followAddress };
}
