// Events: DOM to intents. One listener per area, reading data-* attributes.
import { t } from "./i18n.js";
import { toggleSelected, refusalText, momentKey } from "./update.js";
import { formFields, syncOptionFields } from "./render/start.js";
import { keyCard } from "./cards.js";
import { readPlayNow, syncPlayNow } from "./render/playnow.js";

// A tap this soon after playing a card is the same tap twice (a double tap), not a new wish.
const DOUBLE_TAP_MS = 500;

export function bindEvents({ state, app }) {
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
    if (action === "close") app.closeOverlay();
    else if (action === "pref") app.setPref(target.dataset.pref, parsePref(target.dataset.value));
    else if (action === "allow_watch") app.send({ type: "allow_watch", allowed: target.dataset.value === "true" });
    else if (action === "ready") move({ type: "ready" });
    else if (action === "board") app.showBoard(target.dataset.family, target.dataset.period);
    else common(target);
  });

  // The reason typed for a report or a removal is kept, so that a redraw of its dialog keeps it too.
  overlay.addEventListener("input", (event) => {
    if (event.target.id === "mod-reason" && state.moderation) state.moderation.reason = event.target.value;
  });

  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && state.overlay) app.closeOverlay();
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
    app.replayMove(moves[event.key]);
  }

  screen.addEventListener("click", (event) => {
    const target = event.target.closest("[data-action]");
    if (!target || target.disabled) return;
    const action = target.dataset.action;
    const seat = Number(target.dataset.seat);
    switch (action) {
      case "card":
        return cardClicked(target.dataset.card, target.dataset.key);
      case "pass":
        return move({ type: "pass", cards: state.selected.filter(Boolean).map(keyCard) }); // a card chosen twice goes twice
      case "hint":
        return app.send({ type: "hint" });
      case "claim": // the server checks it against every hand: the rest is played out, or it says why not
        return move({ type: "claim" });
      case "moon":
        return move({ type: "moon", choice: target.dataset.choice });
      case "add_bot":
        return app.send({ type: "add_bot", seat, level: state.prefs.level });
      case "remove_bot":
        return app.send({ type: "remove_bot", seat });
      case "sit":
        return app.send({ type: "sit", seat });
      case "fill_bots":
        return app.send({ type: "fill_bots", level: state.prefs.level });
      case "start":
        return app.send({ type: "start" });
      case "copy":
        return app.copyLink(target.dataset.link);
      case "join_open": // a table of the start page's list of open tables
        if (!nameGiven()) return;
        return app.joinTable(target.dataset.code);
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
      app.sendModeration(form.elements.reason.value);
      return;
    }
    if (form.dataset.form !== "device") return;
    event.preventDefault();
    app.useDeviceCode(form.elements.code.value);
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
    app.setName(name.value.trim());
    return true;
  }

  screen.addEventListener("submit", (event) => {
    event.preventDefault();
    const form = event.target;
    if (!nameGiven()) return;
    if (form.dataset.form === "play_now") {
      app.playNow(readPlayNow(form));
    } else if (form.dataset.form === "join") {
      const code = form.elements.code.value.trim().toUpperCase();
      if (code) app.joinTable(code);
      else app.fieldProblem("code", t("code_missing")); // said at the field, not nothing at all
    } else if (form.dataset.form === "create") {
      const variant = form.elements.variant.value;
      app.setPref("level", form.elements.level.value);
      const options = { ...readOptions(form, variant), ...readDeal(form) };
      // the deal of a /?deal=N link, played from its panel on top of the page
      if (event.submitter && event.submitter.dataset.deal) options.deal = Number(event.submitter.dataset.deal);
      const offline = event.submitter ? event.submitter.value === "offline" : navigator.onLine === false;
      if (offline) app.createOffline(options, form.elements.level.value);
      else app.createTable(options, form.elements.level.value);
    } else if (form.dataset.form === "daily") {
      app.createDaily();
    }
  });

  // the number of players names the passing cycle as it is typed
  screen.addEventListener("input", (event) => {
    if (event.target.closest("form[data-form=create]")) syncOptionFields(screen);
  });

  screen.addEventListener("change", (event) => {
    const target = event.target;
    // the chosen variant's options; gentleman's rule 4 only while cards are passed
    if (target.closest("form[data-form=create]")) syncOptionFields(screen);
    if (target.dataset.change === "pn_variant") syncPlayNow(screen); // the chosen game's length field
    if (target.id === "name" && target.value.trim()) {
      app.setName(target.value.trim());
    } else if (target.id === "level") {
      app.setPref("level", target.value);
    } else if (target.dataset.change === "replay_hand") {
      app.replayGo({ hand: Number(target.value), step: 0 });
    } else if (target.dataset.change === "set_open") {
      app.setOpen(target.checked);
    } else if (target.dataset.change === "allow_watch") {
      app.send({ type: "allow_watch", allowed: target.checked });
    } else if (target.dataset.change === "timer") {
      app.send({ type: "set_timer", seconds: target.value === "off" ? null : Number(target.value) });
    }
  });

  // Arrow keys choose a card in the hand; Enter or Space (the button's own click) plays or selects it.
  screen.addEventListener("keydown", (event) => {
    const card = event.target.closest && event.target.closest(".hand .card");
    if (!card) return;
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
    state.focusCard = next.dataset.key;
    next.focus();
  });

  // Actions that mean the same wherever their button is: the top bar, the table, a dialog or the replay viewer.
  function common(target) {
    const action = target.dataset.action;
    if (action === "open") {
      state.scoresAt = 0; // asked for: no need to wait for the last trick
      state.rulesAt = null;
      app.openOverlay(target.dataset.overlay);
    } else if (action === "rules_at") {
      state.rulesAt = target.dataset.section; // the rules open at this variant's section
      app.openOverlay("rules");
    }
    else if (action === "lang") app.setPref("lang", target.dataset.lang);
    else if (action === "leave") app.leave();
    else if (action === "leave_confirm") app.leave(true);
    else if (action === "comeback") app.comeback();
    else if (action === "offline_continue") app.continueOffline();
    else if (action === "start_fresh") app.startFresh();
    else if (action === "device_code") app.deviceSend({ type: "device_code" });
    else if (action === "moderate") app.moderate(Number(target.dataset.who), target.dataset.kind || null);
    else if (action === "device_sign_out") app.deviceSend({ type: "sign_out_device", device: target.dataset.device });
    else if (action === "own_table") app.ownTable();
    else if (action === "sit") app.send({ type: "sit", seat: Number(target.dataset.seat) }); // from the score table
    else if (action === "restart_confirm") app.restart();
    else if (action === "rematch") app.send({ type: "rematch" }); // a new game starts once every seated person agrees
    else if (action === "queue_again") app.queueAgain(); // a Play now table after game over: the next table
    else if (action === "new_game") app.newGame(); // the score table, or under the table once it is closed
    else if (action === "replay") app.openReplay({ id: Number(target.dataset.id) }, state.table ? state.table.you : null, target.dataset.share || null);
    else if (action === "open_game") openGame(target);
    else if (action === "copy_share") app.copyShare(target.dataset.share);
    else if (action === "replay_close") app.closeReplay();
    else if (action === "replay_hand") app.replayGo({ hand: Number(target.dataset.hand), step: 0 });
    else if (action === "replay_review") app.loadReview(state.replay.hand);
    else if (action === "replay_step") app.replayGo({ hand: state.replay.hand, step: Number(target.dataset.step) });
    else if (action === "review_hand") app.reviewHand(Number(target.dataset.hand));
    else if (action.startsWith("replay_")) app.replayMove(action.slice("replay_".length));
  }

  function openGame(target) {
    const id = Number(target.dataset.id);
    const game = Array.isArray(state.games) ? state.games.find((g) => g.id === id) : null;
    const you = target.dataset.you === "" ? null : Number(target.dataset.you);
    app.openReplay({ id }, you, game ? game.share : null);
  }

  /** Send a move; until the server answers it (the next table or update), taps wait. */
  function move(msg) {
    if (state.inFlight) return;
    state.inFlight = true;
    if (msg.type === "play") state.playedAt = Date.now();
    app.send(msg);
  }

  /** A card of the hand tapped: `card` its name, `key` which copy of it (with two decks a hand may hold it twice). */
  function cardClicked(card, key) {
    const view = state.table && state.table.view;
    if (!view || state.inFlight) return;
    state.focusCard = key;
    if (view.phase === "passing" && !view.passed && !(view.pass_refusals && view.pass_refusals[card])) {
      const changed = toggleSelected(state, key);
      // every place taken: say how to change a choice (a card in its place goes only where that place goes)
      state.notice = changed ? null : { text: t("pass_full", { n: view.pass_count }), kind: "info", moment: momentKey(state.table) };
      app.request();
      return;
    }
    if (view.phase === "playing" && view.turn === state.table.you && view.legal.includes(card)) {
      state.notice = null;
      move({ type: "play", card });
      return;
    }
    // Right after your own card, "not your turn" answers a double tap: say nothing.
    if (view.refusal && Date.now() - (state.playedAt || 0) < DOUBLE_TAP_MS) return;
    const why = refusalText(view, card);
    if (why) {
      state.notice = { text: why, kind: "refusal", moment: momentKey(state.table) };
      app.request();
    }
  }
}

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
