// The start page: a new table (online, or today's deal), the invitation left for a table of one's own, and a form
// field to fix before anything can be sent.
import { toTable } from "./sending.js";

/** A new wish from the start page: the notice and the field's refusal of the one before go. */
export function freshStart(state) {
  state.notice = null;
  state.fieldError = null;
}

/** The person's intents on the start page. */
export const INTENTS = {
  create: (state, intent) => {
    freshStart(state);
    return toTable(state, { type: "create", options: intent.options, computer_level: intent.level });
  },
  daily: (state) => {
    freshStart(state);
    return toTable(state, { type: "create", options: {}, daily: true });
  },
  own_table: (state) => { // from the invitation to the full start page: a table of one's own
    state.invite = null;
    state.wantedCode = null;
    state.notice = null;
    return [{ do: "push_address", path: "/" }, { do: "load", what: "daily" }];
  },
  field_problem: (state, intent) => { // a form field to fix before anything can be sent: said at the field, which takes the focus
    state.notice = null;
    state.fieldError = { field: intent.field, words: intent.words };
    return [{ do: "focus", field: intent.field }];
  },
};
