// Render: state to DOM, at most once per animation frame, touching only areas that changed.
import { morph, patch, reset } from "./dom.js";
import { headerHtml, connHtml } from "./header.js";
import { startHtml, syncOptionFields, engineHtml } from "./start.js";
import { offered } from "../network.js";
import { dailyPanelHtml } from "./daily.js";
import { lobbyHtml } from "./lobby.js";
import { TABLE_SKELETON, opponentHtml, areaHtml, centerHtml, captionHtml, statusHtml, handHtml, meHtml, belowHtml } from "./table.js";
import { overlayHtml, showRulesSection } from "./panels.js";
import { seatCount, ringShape, bigTable } from "./seats.js";
import { replayHtml } from "./replay.js";
import { isWatching, watchStatusHtml, watchMeHtml } from "./watch.js";
import { writeNews } from "./news.js";
import { focusKey, focusDialog, keepFocus } from "./focus.js";
import { drawChat } from "./chat.js";
import { openTablesHtml, syncPlayNow, isPlayNowWaiting, fillInSeconds } from "./playnow.js";
import { syncLengths } from "./length.js";

export function createRenderer(state, root) {
  const el = {
    header: root.querySelector("#top"),
    conn: root.querySelector("#conn"),
    screen: root.querySelector("#screen"),
    overlay: root.querySelector("#overlay"),
  };
  let frame = 0;
  let timer = 0;
  let screenKind = null;
  let dialogKind = null; // the dialog on screen
  let opener = null; // {key, moment}: the control that had the focus when the dialog opened, and the hand then

  function screenOf() {
    if (state.replay) return "replay";
    if (state.screen !== "table" || !state.table) return "start";
    if (state.table.status === "waiting" || !state.table.view) return "lobby";
    return "table";
  }

  /** The dialog to show: the score table that opened by itself waits until the last trick has gone to its taker. */
  function visibleOverlay(now) {
    return state.overlay === "scores" && now < state.scoresAt ? null : state.overlay;
  }

  function draw() {
    frame = 0;
    const now = Date.now();
    const had = document.activeElement;
    const hadKey = focusKey(had);
    const wasKind = screenKind;
    patch(el.header, headerHtml(state));
    patch(el.conn, connHtml(state));
    document.body.dataset.conn = state.conn;
    const kind = screenOf();
    document.body.dataset.screen = kind;
    if (kind !== screenKind) {
      screenKind = kind;
      reset(el.screen);
      // a new screen starts at its top (a table made from a start page scrolled down to its form shows its header)
      if (wasKind !== null) window.scrollTo(0, 0);
      if (kind === "table") patch(el.screen, TABLE_SKELETON);
    }
    if (kind === "start") {
      // today's board arrives on its own: it redraws its own slot, never the forms a player is using
      keepingInputs(el.screen, () => morph(el.screen, startHtml(state)));
      const slot = el.screen.querySelector("#daily-slot");
      if (slot) patch(slot, dailyPanelHtml(state));
      // the open tables refresh every few seconds: their own slot, and a Join button that had the focus keeps it
      const open = el.screen.querySelector("#open-slot");
      if (open) keepingFocus(open, () => patch(open, openTablesHtml(state, !offered("open_tables"))), ".ot-join");
      // how far the offline game's engine is: its own slots, redrawn as it starts without touching the form
      for (const engine of el.screen.querySelectorAll(".engine-slot")) patch(engine, engineHtml(state));
    }
    else if (kind === "lobby") patch(el.screen, lobbyHtml(state, now));
    else if (kind === "replay") keepingFocus(el.screen, () => patch(el.screen, replayHtml(state)));
    else drawTable(now);
    drawChat(state, root);
    const dialog = visibleOverlay(now);
    const hand = state.table && state.table.view ? state.table.view.hand_no : null;
    if (dialog && !dialogKind) opener = { key: hadKey, hand };
    const hadFocus = el.overlay.contains(document.activeElement);
    if (patch(el.overlay, overlayHtml(state, dialog)) && dialog && !hadFocus) focusDialog(el.overlay);
    // the rules opened from a variant's summary: at that variant's section
    if (dialog === "rules" && !dialogKind && state.rulesAt) showRulesSection(state.rulesAt);
    const moved = (kind !== wasKind && wasKind !== null) || (dialogKind && !dialog);
    // back to what opened a dialog, unless a new hand was dealt meanwhile (the hand comes first then)
    const back = !dialog && opener && opener.hand === hand ? opener.key : null;
    keepFocus(document, { had, hadKey, moved, kind, dialog, opener: back });
    if (!dialog) opener = null;
    dialogKind = dialog;
    document.body.classList.toggle("has-overlay", Boolean(dialog));
    scheduleTimed(now);
  }

  function drawTable(now) {
    const table = state.table;
    const area = (name) => el.screen.querySelector(`[data-area="${name}"]`);
    const watching = isWatching(table); // no seat: seat 0 sits where a hand would be
    shapeTable(el.screen.querySelector(".table-screen"), seatCount(table));
    for (const side of ["left", "top", "right"]) patch(area(side), areaHtml(table, side));
    patch(area("center"), centerHtml(state, now));
    patch(area("caption"), captionHtml(state, now));
    if (watching) {
      patch(area("status"), watchStatusHtml(state));
      patch(area("hand"), opponentHtml(table, 0));
      patch(area("me"), watchMeHtml(table));
      writeNews(area("news"), table, state.said);
      return;
    }
    patch(area("status"), statusHtml(state));
    const handEl = area("hand");
    const focused = handEl.contains(document.activeElement) ? document.activeElement.dataset.key : null;
    if (patch(handEl, handHtml(state, now, window.innerWidth, window.innerHeight)) && focused) {
      // the card the hand makes focusable (it moves to a playable card when my turn begins), else the same card
      const again = handEl.querySelector('[tabindex="0"]') || handEl.querySelector(`[data-key="${focused}"]`);
      if (again) again.focus();
    }
    patch(area("me"), meHtml(table));
    writeNews(area("news"), table, state.said);
    patch(area("below"), belowHtml());
    showBelow();
  }

  /** A table taller than the screen (a big table on a phone upright): while the hand is out of view below, a note at
   * the foot of the screen says so. */
  function showBelow() {
    const note = el.screen.querySelector('[data-area="below"]');
    const hand = el.screen.querySelector('[data-area="hand"]');
    if (!note || !hand) return;
    const box = hand.getBoundingClientRect();
    note.hidden = !(box.height > 0 && box.bottom > window.innerHeight + 2);
  }
  window.addEventListener("scroll", showBelow, { passive: true });

  /** The table's seat count and how many opponents sit on each side, for the stylesheet. */
  function shapeTable(screenEl, n) {
    if (!screenEl || screenEl.dataset.seats === String(n)) return;
    const { side, top } = ringShape(n);
    screenEl.dataset.seats = String(n);
    screenEl.dataset.side = String(side);
    screenEl.dataset.top = String(top);
    screenEl.classList.toggle("ring", n !== 4);
    screenEl.classList.toggle("big", bigTable(n));
    screenEl.style.setProperty("--side", String(side));
    screenEl.style.setProperty("--top", String(top));
  }

  // A redraw of a form (a language switch, a saved name) keeps what the player has typed and chosen: the fields kept
  // in place keep it themselves; one drawn anew gets its value, and the focus and caret it had.
  function keepingInputs(container, fn) {
    const saved = [...container.querySelectorAll("input[id], select[id]")].map((e) => [e.id, e.type === "checkbox" ? e.checked : e.value]);
    const active = document.activeElement && container.contains(document.activeElement) ? document.activeElement : null;
    const focused = active ? active.id : null;
    let caret = null;
    try {
      caret = active ? [active.selectionStart, active.selectionEnd] : null;
    } catch {
      caret = null; // number inputs have no selection
    }
    if (!fn()) return;
    for (const [id, value] of saved) {
      const e = container.querySelector(`#${CSS.escape(id)}`);
      if (!e) continue;
      if (e.type === "checkbox") e.checked = value;
      else if (e.value !== value) e.value = value; // a field kept in place already holds it, caret and all
    }
    syncOptionFields(container);
    syncPlayNow(container);
    syncLengths(container);
    const again = focused ? container.querySelector(`#${CSS.escape(focused)}`) : null;
    if (again && again !== active) { // the field was drawn anew
      again.focus();
      if (caret && caret[0] !== null) try { again.setSelectionRange(caret[0], caret[1]); } catch { /* not a text field */ }
    }
  }

  // A redraw of the replay viewer (or of the open tables) puts the focus back on the button (by id) that had it, or on
  // an enabled neighbour.
  function keepingFocus(container, fn, neighbour = ".rp-controls button:not([disabled])") {
    const active = document.activeElement && container.contains(document.activeElement) ? document.activeElement.id : null;
    if (!fn() || !active) return;
    const again = container.querySelector(`#${CSS.escape(active)}`);
    if (again && !again.disabled) again.focus();
    else {
      const other = container.querySelector(neighbour);
      if (other) other.focus();
    }
  }

  // Held tricks and the score table that waits for the last trick end by time: redraw when they do.
  function scheduleTimed(now) {
    clearTimeout(timer);
    const moments = [state.scoresAt];
    if (state.trickShow) moments.push(state.trickShow.until, state.trickShow.slideUntil);
    if (state.deadlineAt > now) moments.push(now + ((state.deadlineAt - now) % 1000 || 1000));
    // the Play now countdown: once a second until computer players fill the empty seats
    const clock = now + (state.clockSkew || 0); // the server's clock
    if (screenKind === "lobby" && isPlayNowWaiting(state.table) && fillInSeconds(state.table, clock) > 0) {
      moments.push(now + ((state.table.open.fill_at * 1000 - clock) % 1000 || 1000));
    }
    const next = moments.filter((m) => m > now).sort((a, b) => a - b)[0];
    if (next) timer = setTimeout(request, next - now + 10);
  }

  function request() {
    if (!frame) frame = requestAnimationFrame(draw);
  }

  return { request, drawNow: draw };
}
