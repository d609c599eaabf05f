// Events: DOM to intents. One listener per area, reading data-* attributes; every intent goes to update.js
// (`dispatch`), which changes the state and says what to send. Nothing here changes the state.
import { formFields, syncOptionFields } from "./render/start.js";
import { readPlayNow, syncPlayNow, playNowChoices } from "./render/playnow.js";
import { badNumber, choosePreset, syncLengths } from "./render/length.js";

/** Listen to the page's top bar, screen and dialogs; each tap, form or key becomes one intent. */
export function bindEvents({ state, dispatch }) {
  const header = document.querySelector("#top");
  const screen = document.querySelector("#screen");
  const overlay = document.querySelector("#overlay");

  header.addEventListener("click", (event) => {
    const target = event.target.closest("[data-action]");
    if (target) common(target);
  });

  overlay.addEventListener("click", (event) => {
    const target = event.target.closest("[data-action]");
    if (!target) return;
    const action = target.dataset.action;
    if (action === "close") dispatch({ type: "close_overlay" });
    else if (action === "pref") dispatch({ type: "pref", key: target.dataset.pref, value: parsePref(target.dataset.value) });
    else if (action === "allow_watch") dispatch({ type: "allow_watch", allowed: target.dataset.value === "true" });
    else if (action === "ready") dispatch({ type: "ready" });
    else if (action === "board") dispatch({ type: "board", family: target.dataset.family, period: target.dataset.period });
    else common(target);
  });

  // The reason typed for a report or a removal is kept, so that a redraw of its dialog keeps it too.
  overlay.addEventListener("input", (event) => {
    if (event.target.id === "mod-reason") dispatch({ type: "moderation_reason", reason: event.target.value });
  });

  // Keyboard cues belong to keyboard use: a key pressed puts the page in keyboard mode (the hand's focus ring shows,
  // the status says what the keys do), a tap or a click takes it out. A page just (re)loaded is in neither: the card
  // the page focuses by itself then shows no ring, on a phone above all (a browser counts a focus with no input yet
  // as a keyboard's).
  document.addEventListener("keydown", (event) => {
    if (!["Shift", "Control", "Alt", "Meta"].includes(event.key)) document.documentElement.dataset.input = "keys";
  }, true);
  document.addEventListener("pointerdown", () => { document.documentElement.dataset.input = "pointer"; }, true);

  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && state.overlay) dispatch({ type: "close_overlay" });
    else if (state.replay && !state.overlay) replayKey(event);
  });

  // The replay viewer: arrows step one card (with Shift one trick), Home and End go to the hand's start and end.
  function replayKey(event) {
    const tag = event.target && event.target.tagName;
    if (tag === "SELECT" || tag === "INPUT" || tag === "TEXTAREA" || event.altKey || event.ctrlKey || event.metaKey) return;
    const moves = {
      ArrowRight: event.shiftKey ? "next_trick" : "next", ArrowLeft: event.shiftKey ? "prev_trick" : "prev",
      PageDown: "next_trick", PageUp: "prev_trick", Home: "start", End: "end",
    };
    if (!(event.key in moves)) return;
    event.preventDefault();
    dispatch({ type: "replay_move", name: moves[event.key] });
  }

  screen.addEventListener("click", (event) => {
    const target = event.target.closest("[data-action]");
    if (!target || target.disabled) return;
    const action = target.dataset.action;
    const seat = Number(target.dataset.seat);
    switch (action) {
      case "card":
        return dispatch({ type: "card", card: target.dataset.card, key: target.dataset.key });
      case "pass":
      case "hint":
      case "claim":
      case "fill_computers":
      case "start":
      case "ready": // Next hand under the table, once the score table is closed
        return dispatch({ type: action });
      case "moon":
        return dispatch({ type: "moon", choice: target.dataset.choice });
      case "add_computer":
      case "remove_computer":
      case "sit":
        return dispatch({ type: action, seat });
      case "copy":
        return dispatch({ type: "copy", what: "copied", text: target.dataset.link });
      case "to_hand": // the note that the hand is further down: a scroll, no change of state
        return screen.querySelector('[data-area="hand"]').scrollIntoView({ block: "end" });
      case "preset": // a game's common length: into its field (no change of state until the form is sent)
        return choosePreset(target, screen);
      case "to_form": { // a way to play, chosen on top of the start page: its form comes into view, its first field focused
        const form = screen.querySelector(`#${CSS.escape(target.dataset.form)}`);
        if (!form) return undefined;
        form.scrollIntoView({ block: "start", behavior: "smooth" });
        const first = form.querySelector("select, input");
        if (first) first.focus({ preventScroll: true });
        return undefined;
      }
      case "join_open": // a table of the start page's list of open tables
        if (!nameGiven()) return;
        return dispatch({ type: "join", tableCode: target.dataset.code });
      default:
        return common(target);
    }
  });

  // The statistics dialog's form: a code from another device, to use this player here. The dialog about another
  // person: the reason of a report or a removal.
  overlay.addEventListener("submit", (event) => {
    const form = event.target;
    if (form.dataset.form === "moderation") {
      event.preventDefault();
      dispatch({ type: "send_moderation", reason: form.elements.reason.value });
      return;
    }
    if (form.dataset.form !== "device") return;
    event.preventDefault();
    dispatch({ type: "use_device_code", text: form.elements.code.value });
  });

  /** The start page's name field holds a name (else it says so and takes the focus); the name is saved. */
  function nameGiven() {
    const name = screen.querySelector("#name");
    if (!name) return true;
    if (!name.value.trim()) {
      name.focus();
      name.reportValidity();
      return false;
    }
    dispatch({ type: "name", name: name.value.trim() });
    return true;
  }

  screen.addEventListener("submit", (event) => {
    event.preventDefault();
    const form = event.target;
    if (!nameGiven()) return;
    // a number out of range is said at its field in the page's own words (the forms take no check of the browser's)
    const bad = ["play_now", "create"].includes(form.dataset.form) ? badNumber(form) : null;
    if (bad) {
      dispatch(bad);
      return;
    }
    if (form.dataset.form === "play_now") {
      dispatch({ type: "play_now", ...readPlayNow(form) });
    } else if (form.dataset.form === "join") {
      const tableCode = form.elements.code.value.trim().toUpperCase();
      if (tableCode) dispatch({ type: "join", tableCode });
      else dispatch({ type: "field_problem", field: "code", words: { key: "code_missing" } }); // said at the field
    } else if (form.dataset.form === "create") {
      const variant = form.elements.variant.value;
      dispatch({ type: "pref", key: "level", value: form.elements.level.value });
      const options = { ...readOptions(form, variant), ...readDeal(form) };
      // the deal of a /?deal=N link, played from its panel on top of the page
      if (event.submitter && event.submitter.dataset.deal) options.deal = Number(event.submitter.dataset.deal);
      const offline = event.submitter ? event.submitter.value === "offline" : navigator.onLine === false;
      dispatch({ type: offline ? "create_offline" : "create", options, level: form.elements.level.value });
    } else if (form.dataset.form === "daily") {
      dispatch({ type: "daily" });
    }
  });

  // the number of players names the passing cycle as it is typed; the name is kept as it is typed (a reload, or a
  // network gone before the field was left, does not lose it)
  screen.addEventListener("input", (event) => {
    if (event.target.closest("form[data-form=create]")) syncOptionFields(screen);
    if (event.target.type === "number") syncLengths(screen); // the common lengths' buttons follow the field
    if (event.target.id === "name" && event.target.value.trim()) dispatch({ type: "name_typed", name: event.target.value.trim() });
  });

  screen.addEventListener("change", (event) => {
    const target = event.target;
    // the chosen variant's options; gentleman's rule 4 only while cards are passed
    if (target.closest("form[data-form=create]")) syncOptionFields(screen);
    if (target.dataset.change === "pn_variant") syncPlayNow(screen); // the chosen game's length field
    if (target.id === "name" && target.value.trim()) {
      dispatch({ type: "name", name: target.value.trim() });
    } else if (target.id === "level") {
      dispatch({ type: "pref", key: "level", value: target.value });
    } else if (target.dataset.change === "replay_hand") {
      dispatch({ type: "replay_go", hand: Number(target.value), step: 0 });
    } else if (target.dataset.change === "set_open") {
      dispatch({ type: "set_open", open: target.checked });
    } else if (target.dataset.change === "allow_watch") {
      dispatch({ type: "allow_watch", allowed: target.checked });
    } else if (target.dataset.change === "timer") {
      dispatch({ type: "set_timer", seconds: target.value === "off" ? null : Number(target.value) });
    }
  });

  // The keyboard came to the hand (a key brought the focus to a card, or was pressed on one; a tap, a click or the
  // page's own focus after a reload does not): say the keys.
  screen.addEventListener("focusin", (event) => {
    const card = event.target.closest && event.target.closest(".hand .card");
    if (card && !state.keysUsed && keyboardMode() && card.matches(":focus-visible")) dispatch({ type: "keys_used" });
  });

  // Arrow keys choose a card in the hand; Enter or Space (the button's own click) plays or selects it.
  screen.addEventListener("keydown", (event) => {
    const card = event.target.closest && event.target.closest(".hand .card");
    if (!card) return;
    if (!state.keysUsed) dispatch({ type: "keys_used" });
    const cards = [...screen.querySelectorAll(".hand .card")];
    const i = cards.indexOf(card);
    const moves = { ArrowLeft: -1, ArrowUp: -1, ArrowRight: 1, ArrowDown: 1 };
    let next = null;
    if (event.key in moves) next = cards[(i + moves[event.key] + cards.length) % cards.length];
    else if (event.key === "Home") next = cards[0];
    else if (event.key === "End") next = cards[cards.length - 1];
    if (!next) return;
    event.preventDefault();
    for (const c of cards) c.tabIndex = c === next ? 0 : -1;
    dispatch({ type: "focus_card", key: next.dataset.key });
    next.focus();
  });

  // Actions that mean the same wherever their button is: the top bar, the table, a dialog or the replay viewer.
  function common(target) {
    const action = target.dataset.action;
    const plain = ["leave", "comeback", "start_fresh", "device_code", "own_table", "rematch", "new_game", "more_steps", "replay_close", "replay_review"];
    if (plain.includes(action)) dispatch({ type: action });
    else if (action === "open") dispatch({ type: "overlay", overlay: target.dataset.overlay });
    else if (action === "rules_at") dispatch({ type: "overlay", overlay: "rules", section: target.dataset.section });
    else if (action === "rules_all") dispatch({ type: "rules_all" }); // at a table: from its own game to all the rules
    else if (action === "lang") dispatch({ type: "pref", key: "lang", value: target.dataset.lang });
    else if (action === "leave_confirm") dispatch({ type: "leave", confirmed: true });
    else if (action === "offline_continue") dispatch({ type: "continue_offline" });
    else if (action === "moderate") dispatch({ type: "moderate", seat: Number(target.dataset.who), kind: target.dataset.kind || null });
    else if (action === "device_sign_out") dispatch({ type: "sign_out_device", device: target.dataset.device });
    else if (action === "sit") dispatch({ type: "sit", seat: Number(target.dataset.seat) }); // from the score table
    else if (action === "restart_confirm") dispatch({ type: "restart" });
    else if (action === "queue_again") { // the next table: the person's own wait and choice of language
      const { wait, langOnly } = playNowChoices(state.prefs);
      dispatch({ type: "queue_again", wait, langOnly });
    }
    else if (action === "replay") {
      const you = state.table ? state.table.you : null;
      dispatch({ type: "replay_open", key: { id: Number(target.dataset.id) }, you, share: target.dataset.share || null });
    } else if (action === "open_game") openGame(target);
    else if (action === "copy_device_link") dispatch({ type: "copy", what: "deviceCopied", text: target.dataset.link });
    else if (action === "copy_share") dispatch({ type: "copy", what: "shareCopied", text: `${location.origin}/r/${target.dataset.share}` });
    else if (action === "replay_hand") dispatch({ type: "replay_go", hand: Number(target.dataset.hand), step: 0 });
    else if (action === "replay_step") dispatch({ type: "replay_go", hand: state.replay.hand, step: Number(target.dataset.step) });
    else if (action === "review_hand") dispatch({ type: "review_hand", hand: Number(target.dataset.hand) });
    else if (action.startsWith("replay_")) dispatch({ type: "replay_move", name: action.slice("replay_".length) });
  }

  function openGame(target) {
    const id = Number(target.dataset.id);
    const game = Array.isArray(state.games) ? state.games.find((g) => g.id === id) : null;
    const you = target.dataset.you === "" ? null : Number(target.dataset.you);
    dispatch({ type: "replay_open", key: { id }, you, share: game ? game.share : null });
  }
}

/** Whether the page is in keyboard mode: the last input was a key (not a tap or a click, nor none yet). */
function keyboardMode() {
  return document.documentElement.dataset.input === "keys";
}

/** A preference button's value: "true" and "false" as booleans, anything else as it is. */
function parsePref(value) {
  if (value === "true") return true;
  if (value === "false") return false;
  return value;
}

/** The deal number, when one was given: a whole number goes as an integer, anything else as typed (the server says why not). */
export function readDeal(form) {
  const text = form.elements.deal ? form.elements.deal.value.trim() : "";
  if (!text) return {};
  return { deal: /^\d{1,15}$/.test(text) ? Number(text) : text };
}

/** The options of the chosen variant from the create form, typed as shared/rules.py wants them. */
export function readOptions(form, variant) {
  const options = { variant };
  for (const [option, kind] of formFields(variant)) {
    const input = form.elements[`${variant}.${option}`];
    if (kind === "bool") options[option] = input.checked && !input.disabled;
    else if (typeof kind === "string") options[option] = Number(input.value);
    else options[option] = typeof kind[0] === "number" ? Number(input.value) : input.value;
  }
  return options;
}
