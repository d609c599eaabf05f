// Keyboard focus across redraws. When a redraw takes away the control that had the focus (a
// button replaced, disabled or gone with its screen or dialog), the focus goes to the same control
// drawn again, else to the button that opened a dialog that closed, else to the main control of
// what is on screen now: never back to <body>.

/** A selector that finds the same control after a redraw, or null (cards of the hand find their own way back). */
export function focusKey(el) {
  if (!el || !el.dataset || el === el.ownerDocument.body) return null;
  if (el.id) return `#${CSS.escape(el.id)}`;
  const action = el.dataset.action;
  if (!action || action === "card") return null;
  const switched = el.getAttribute("role") === "switch"; // a switch's value turns over with each press: not its name
  const attrs = ["overlay", "lang", "seat", "who", "kind", "choice", "pref", "value", "family", "period"]
    .filter((name) => el.dataset[name] !== undefined && !(switched && name === "value"))
    .map((name) => `[data-${name}="${CSS.escape(el.dataset[name])}"]`);
  return `${el.tagName.toLowerCase()}[data-action="${CSS.escape(action)}"]${attrs.join("")}`;
}

function usable(el) {
  return Boolean(el) && !el.disabled && el.getClientRects().length > 0;
}

function first(root, selectors) {
  for (const selector of selectors) {
    for (const el of root.querySelectorAll(selector)) if (usable(el)) return el;
  }
  return null;
}

// The main control of each screen, best first.
const MAIN = {
  start: ['form[data-form="create"] button[type="submit"]'],
  lobby: ['[data-action="start"]', '[data-action="fill_computers"]', '[data-action="copy"]', ".lobby button"],
  table: [".status .primary", '.hand .card[tabindex="0"]', ".status .buttons button"],
  replay: [".rp-controls button"],
};
const DIALOG = [".dialog [data-autofocus]", '.dialog [data-action="ready"]', ".dialog [data-stay]", ".dialog .close"];

/**
 * Focus the main control of an open dialog (a reason's field, Next hand in the score table, Stay when leaving, else its
 * close button).
 */
export function focusDialog(root) {
  const target = first(root, DIALOG);
  if (target) target.focus({ preventScroll: true });
}

/**
 * After a redraw: hand the focus on if it fell to <body>. `had` is what had the focus before the
 * redraw, `moved` whether the screen or the dialog changed, `opener` the key of what opened the dialog.
 */
export function keepFocus(doc, { had, hadKey, moved, kind, dialog, opener }) {
  const active = doc.activeElement;
  if (active && active !== doc.body) return;
  const lost = had && had !== doc.body && !had.isConnected;
  if (!lost && !moved) return;
  const again = [hadKey, opener].filter(Boolean).map((key) => doc.querySelector(key)).find(usable);
  if (dialog && !(again && again.closest(".dialog"))) return focusDialog(doc);
  const target = again || first(doc, MAIN[kind] || []);
  if (target) target.focus({ preventScroll: true });
}
