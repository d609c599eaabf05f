// Write HTML into an area only when it changed, so redraws stay cheap and focus survives.
//
// The HTML holds no style attribute: the page's Content-Security-Policy (style-src 'self') refuses inline styles in
// markup. What an element's style needs from the state (a column count, a card's place in the trick) is written as
// `data-style="--cols:5"` and set from script (`styled`), which the policy allows.
const last = new WeakMap();

export function patch(el, html) {
  if (!el || last.get(el) === html) return false;
  last.set(el, html);
  el.innerHTML = html;
  styled(el);
  return true;
}

/** Give every element under `root` that has a `data-style` that style (through the CSSOM, as the policy asks). */
function styled(root) {
  for (const el of root.querySelectorAll("[data-style]")) el.style.cssText = el.dataset.style;
}

/** Like `patch`, but the elements that stay stay themselves: a form redrawn while a person types in it (a list
 * beside it refreshed, a language switched) keeps each field's focus, caret, selection and keyboard composition,
 * and a button pressed but not yet released still takes its click. An element drawn by its own `patch` (a slot
 * inside the area) keeps its children. */
export function morph(el, html) {
  if (!el || last.get(el) === html) return false;
  const drawn = last.has(el);
  last.set(el, html);
  if (!drawn) {
    el.innerHTML = html; // a new screen: nothing to keep
    styled(el);
    return true;
  }
  const next = document.createElement("template");
  next.innerHTML = html;
  morphChildren(el, next.content);
  styled(el);
  return true;
}

function morphChildren(from, to) {
  const olds = [...from.childNodes];
  const news = [...to.childNodes];
  news.forEach((n, i) => {
    const o = olds[i];
    if (!o) from.append(n);
    else if (sameNode(o, n)) morphNode(o, n);
    else from.replaceChild(n, o);
  });
  for (const o of olds.slice(news.length)) o.remove();
}

/** Whether ``o`` may become ``n`` in place: the same kind of node, and for an element the same tag, id, name, type. */
function sameNode(o, n) {
  if (o.nodeType !== n.nodeType || o.nodeName !== n.nodeName) return false;
  if (o.nodeType !== Node.ELEMENT_NODE) return true;
  return ["id", "name", "type"].every((a) => o.getAttribute(a) === n.getAttribute(a));
}

function morphNode(o, n) {
  if (o.nodeType !== Node.ELEMENT_NODE) {
    if (o.nodeValue !== n.nodeValue) o.nodeValue = n.nodeValue;
    return;
  }
  // the style `styled` set stays while the new node has a `data-style` (it sets it again)
  for (const { name } of [...o.attributes]) {
    if (!n.hasAttribute(name) && !(name === "style" && n.hasAttribute("data-style"))) o.removeAttribute(name);
  }
  for (const { name, value } of n.attributes) if (o.getAttribute(name) !== value) o.setAttribute(name, value);
  if (!last.has(o)) morphChildren(o, n);
}

/** Forget what an area holds (after its parent was rebuilt). */
export function reset(el) {
  if (el) last.delete(el);
}
