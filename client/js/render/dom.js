// Write HTML into an area only when it changed, so redraws stay cheap and focus survives.
const last = new WeakMap();

export function patch(el, html) {
  if (!el || last.get(el) === html) return false;
  last.set(el, html);
  el.innerHTML = html;
  return true;
}

/** Forget what an area holds (after its parent was rebuilt). */
export function reset(el) {
  if (el) last.delete(el);
}
