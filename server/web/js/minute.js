// "How to play in one minute": the opening of the game's rules page (docs/rules/<game>.md,
// served at /rules/<game>), shown at the table for the edition being played.

import {h} from './dom.js';

const INLINE = new Set(['STRONG', 'EM', 'CODE']);

/** A paragraph of the rules page again, as text with its bold, italics and code (no HTML kept). */
function copy(node) {
  const parts = [...node.childNodes].map((child) => (child.nodeType === Node.ELEMENT_NODE && INLINE.has(child.nodeName)
    ? h(child.nodeName.toLowerCase(), {}, child.textContent) : child.textContent));
  return h('p', {}, parts);
}

/**
 * The minute's paragraphs for `variant` (the edition's paragraph only, under its name), or
 * null when the page has no minute (a server without the docs).
 */
export async function minuteOf(game, variant) {
  let page;
  try {
    const got = await fetch(`/rules/${encodeURIComponent(game)}`);
    if (!got.ok) return null;
    page = new DOMParser().parseFromString(await got.text(), 'text/html');
  } catch {
    return null;
  }
  const head = page.getElementById('minute');
  if (!head) return null;
  const out = [];
  let keep = true;
  for (let node = head.nextElementSibling; node && node.nodeName !== 'H2'; node = node.nextElementSibling) {
    if (node.nodeName === 'H3') {
      keep = node.id === `minute-${variant}`;
      if (keep) out.push(h('p', {class: 'edition'}, h('strong', {}, node.textContent.replace(/\s*\(.*\)$/, ''))));
    } else if (keep && node.nodeName === 'P') {
      out.push(copy(node));
    }
  }
  return out;
}

/** The table's "How to play in one minute" box (closed), with a link to the whole rules. */
export function minuteBox(game, title, paragraphs) {
  return h('details', {class: 'minute'},
    h('summary', {}, 'How to play in one minute'),
    paragraphs,
    h('p', {}, h('a', {href: `/rules/${game}`}, `All the ${title} rules`)));
}
