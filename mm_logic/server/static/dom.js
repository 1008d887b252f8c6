// Element helpers every tab uses: find by id, build an element in one call, keep the focus over a redraw.

export function $(id) {
  return document.getElementById(id);
}

export function element(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (name === "class") node.className = value;
    else if (name === "text") node.textContent = value;
    else if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
    else node.setAttribute(name, value);
  }
  node.append(...children);
  return node;
}

/** Run `render`, then give the focus back where it was: a redrawn or disabled control would leave
 * it on the page's body, and the next Tab would start again from the top. */
export function keepingFocus(render, fallback) {
  const id = document.activeElement?.dataset?.testid;
  render();
  if (document.activeElement && document.activeElement !== document.body) return;
  const again = id && document.querySelector(`[data-testid="${id}"]`);
  const target = again && !again.disabled ? again : $(fallback);
  if (target && !target.disabled && target.offsetParent !== null) target.focus();
}

