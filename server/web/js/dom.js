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
    else if (key.startsWith('on')) el.addEventListener(key.slice(2), value);
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
export function crumbs(...items) {
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
