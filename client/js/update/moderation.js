// Another person at the table: the dialog about them (report, or remove as host), the reason typed, the request
// sent, its refusal said in the dialog, and the thanks once a report was kept.
import { words } from "../words.js";
import { toTable } from "./sending.js";

const MODERATION_ERRORS = ["no_other_person", "remove_between_hands", "not_host", "reports_limited", "bad_message", "server_busy", "rate_limited"];

/** The server's answer to a report. */
export const MESSAGES = {
  reported: (state, msg) => { // the report was kept; the dialog closes and a line thanks the person
    if (state.overlay === "seat") state.overlay = null;
    state.moderation = null;
    state.notice = { words: words("reported_notice", { name: { seat: msg.seat } }), kind: "info" };
    return [];
  },
};

/** The person's intents about another person at the table. */
export const INTENTS = {
  moderate: (state, intent) => { // the dialog about another person: what can be done (`kind` null), or the reason asked for
    const before = state.moderation;
    const reason = before && before.seat === intent.seat ? before.reason : "";
    state.moderation = { seat: intent.seat, kind: intent.kind || null, reason, sending: false, error: null };
    state.overlay = "seat";
    return [];
  },
  moderation_reason: (state, intent) => { // kept as typed, so that a redraw of its dialog keeps it too
    if (state.moderation) state.moderation.reason = intent.reason;
    return [{ do: "quiet" }]; // no redraw while the person types
  },
  send_moderation: (state, intent) => sendModeration(state, intent.reason),
};

/** Send the report or the removal with its reason (required, up to 200 characters). */
function sendModeration(state, reason) {
  const m = state.moderation;
  if (!m || !m.kind) return [];
  m.reason = reason;
  const text = reason.trim();
  if (!text) {
    m.error = words("reason_missing");
    return [];
  }
  m.error = null;
  m.sending = true;
  const msg = m.kind === "remove" ? { type: "remove_player", seat: m.seat, reason: text } : { type: "report", seat: m.seat, reason: text };
  return toTable(state, msg);
}

/** A refusal of a report or a removal, said in its dialog (the reason stays typed, to send again or change). */
export function moderationError(state, msg) {
  const m = state.moderation;
  if (state.overlay !== "seat" || !m || !m.kind || !m.sending || !MODERATION_ERRORS.includes(msg.code)) return false;
  m.sending = false;
  m.error = { server: msg };
  return true;
}
