// Building the page without innerHTML: every name and string from the API lands as text.

/**
 * Create an element: h('div', {class: 'x', onclick: f, dataset: {seat: 1}}, child, ...).
 * Children may be nodes, strings, numbers, arrays, or null/false (skipped).
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === 'class') el.className = value;
    else if (key === 'dataset') Object.assign(el.dataset, value);
    else if (key.startsWith('on')) listen(el, key.slice(2), value);
    else el.setAttribute(key, value === true ? '' : String(value));
  }
  append(el, children);
  return el;
}

/** Append children (same rules as h) to a node. */
export function append(el, children) {
  for (const child of [children].flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : String(child));
  }
  return el;
}

/** Replace everything inside a node. */
export function replace(el, ...children) {
  el.replaceChildren();
  return append(el, children);
}

// Each element's handlers by event type: one listener per type calls the element's current
// handler, so that redraw() can hand an element that stays the handlers of its new drawing.
const HANDLERS = new WeakMap();

function listen(el, type, handler) {
  let own = HANDLERS.get(el);
  if (!own) HANDLERS.set(el, own = new Map());
  if (!own.has(type)) el.addEventListener(type, (e) => HANDLERS.get(el).get(type)?.call(el, e));
  own.set(type, handler);
}

/** Whether the node drawn before may be kept (updated in place) for the one drawn now. */
function keeps(old, now, scrolled) {
  if (old.nodeType !== now.nodeType || old.nodeName !== now.nodeName) return false;
  if (old.nodeType !== Node.ELEMENT_NODE) return true;
  // What a new element would not carry over, it does not carry over now either: the focus,
  // a scroll position, a form control's own state; and a card stays the card it was.
  return old !== document.activeElement && !scrolled.has(old)
    && !['INPUT', 'SELECT', 'TEXTAREA'].includes(old.nodeName)
    && old.getAttribute('data-card') === now.getAttribute('data-card');
}

function update(old, now, scrolled) {
  if (old.nodeType !== Node.ELEMENT_NODE) {
    if (old.data !== now.data) old.data = now.data;
    return;
  }
  for (const {name} of [...old.attributes]) if (!now.hasAttribute(name)) old.removeAttribute(name);
  for (const {name, value} of now.attributes) if (old.getAttribute(name) !== value) old.setAttribute(name, value);
  const handlers = HANDLERS.get(now);
  const own = HANDLERS.get(old);
  if (own) for (const type of own.keys()) if (!handlers?.has(type)) own.delete(type);
  if (handlers) for (const [type, handler] of handlers) listen(old, type, handler);
  const before = [...old.childNodes];
  const after = [...now.childNodes];
  after.forEach((child, i) => {
    const was = before[i];
    if (!was) old.append(child);
    else if (keeps(was, child, scrolled)) update(was, child, scrolled);
    else was.replaceWith(child);
  });
  for (const extra of before.slice(after.length)) extra.remove();
}

/**
 * Show ``drawn`` (a new drawing) as the only child of ``el``, as replace(el, drawn) would,
 * but keep the elements already there that the new drawing has at the same place and
 * change only what differs: the browser then lays out and paints only what changed, not
 * the whole page again. An element keeps no state a new one would not have (no focus,
 * no scroll position, no typed value: those are drawn anew).
 */
export function redraw(el, drawn) {
  const old = el.firstChild;
  // Scroll positions are read once, before any change (a read after one would lay out anew).
  const scrolled = new Set([...el.querySelectorAll('*')].filter((e) => e.scrollTop || e.scrollLeft));
  if (el.childNodes.length === 1 && keeps(old, drawn, scrolled)) update(old, drawn, scrolled);
  else replace(el, drawn);
  return el;
}

/** A promise that resolves after ms milliseconds. */
export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** "round_robin" -> "round robin". */
export const words = (s) => String(s ?? '').replaceAll('_', ' ');

/** An ISO time as a short local date and time. */
export function when(iso) {
  if (!iso) return '';
  const d = new Date(iso);
  return d.toLocaleString([], {month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit'});
}

/** Set the breadcrumb trail in the top bar. */
export function crumbs(...given) {
  const items = given.filter(Boolean); // a crumb that does not apply is null
  replace(document.getElementById('crumbs'), items.map((item, i) => [
    i ? h('span', {class: 'sep', 'aria-hidden': 'true'}, '›') : null,
    item.href ? h('a', {href: item.href}, item.text) : h('span', {}, item.text),
  ]));
}

/**
 * A list table whose cells carry their column's heading (data-label): on a phone,
 * where the heading row is hidden, each figure keeps its name (see style.css).
 */
export function labelled(table) {
  const heads = [...table.querySelectorAll('thead th')].map((th) => th.textContent);
  table.classList.add('labelled');
  for (const row of table.querySelectorAll('tbody tr')) {
    [...row.children].forEach((td, i) => { if (heads[i]) td.dataset.label = heads[i]; });
  }
  return table;
}
