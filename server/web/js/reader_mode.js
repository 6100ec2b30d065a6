// Screen-reader mode at the table: a toggle (kept per browser, in localStorage) that opens
// a panel after lichess's blind mode (NVUI): the keys of reader.js listed, and a move
// field in which a move is chosen by typing it (its card, "QS", its words as M reads
// them, or its place in M's list) and Enter. The P key goes to the field, Escape back.
// What it says goes to the table's "read out" live region (the say it is given).
//
// The table (table.js) makes one with readerMode({play, say}) and calls
// update(view, pending) whenever it redraws; nothing here asks the server for anything.

import {h, words} from './dom.js';
import {cardName} from './cards.js';
import {makeContext} from './board.js';
import {KEYS} from './reader.js';

const KEY = 'parlour.reader';
const HELP = `Keys: ${KEYS}; P the move field (type a move’s card, as QS, or its words, then Enter; Escape comes back).`;

/** "QS" -> "queen of spades"; anything else as it is. */
function named(code) {
  return typeof code === 'string' && /^[AKQJT98765432][SHDC]$/.test(code) ? cardName(code) : String(code);
}

/** A move in words: "play queen of spades", "pass", "bid 250". */
export function moveWords(move, renderer) {
  if (typeof move.card === 'string') return `${words(move.type)} ${named(move.card)}`;
  return renderer.moveLabel(move) ?? words(move.type);
}

/** The legal move a typed text names: its number in the list, its card, or its words. */
export function typedMove(text, legal, renderer) {
  const said = text.trim().toLowerCase();
  if (!said) return null;
  if (/^\d+$/.test(said)) return legal[Number(said) - 1] ?? null;
  return legal.find((m) => typeof m.card === 'string' && m.card.toLowerCase() === said)
    ?? legal.find((m) => moveWords(m, renderer).toLowerCase() === said
      || (typeof m.card === 'string' && named(m.card) === said)) ?? null;
}

function stored() {
  try {
    return localStorage.getItem(KEY) === 'on';
  } catch {
    return false;
  }
}

/** The toggle and, when on, the panel; ``play(move)`` makes a move, ``say(text)`` reads out. */
export function readerMode({play, say}) {
  let on = stored();
  let view = null;
  let pending = false;
  const field = h('input', {id: 'reader-move', type: 'text', autocomplete: 'off', spellcheck: 'false',
    'aria-describedby': 'reader-move-help'});
  const form = h('form', {class: 'reader-move', onsubmit: (e) => { e.preventDefault(); choose(); }},
    h('label', {for: 'reader-move'}, 'Your move '), field,
    h('span', {id: 'reader-move-help', class: 'muted'}, ' its card, as QS, or its words as M reads them; Enter plays it'));
  const panel = h('section', {class: 'reader-panel', 'aria-label': 'screen-reader table', tabindex: '-1'},
    h('h2', {}, 'Screen-reader table'), h('p', {class: 'reader-keys'}, HELP), form);
  const toggle = h('button', {type: 'button', class: 'reader-toggle', 'aria-pressed': String(on),
    onclick: () => setOn(!on)}, 'Screen-reader mode');
  const element = h('div', {class: 'reader-mode'}, toggle, panel);

  function setOn(value) {
    on = value;
    try {
      localStorage.setItem(KEY, on ? 'on' : 'off');
    } catch { /* private mode: on for this page only */ }
    show();
    if (on) {
      panel.focus();
      say(HELP);
    }
  }

  function show() {
    toggle.setAttribute('aria-pressed', String(on));
    panel.hidden = !on;
    const yours = view && view.you !== null && view.status === 'active' && (view.to_move || []).includes(view.you);
    field.disabled = !yours || pending;
  }

  async function choose() {
    if (!view) return;
    const legal = view.you !== null && view.status === 'active' ? view.legal_moves || [] : [];
    const move = typedMove(field.value, legal, makeContext(view).renderer);
    if (!move) {
      say(legal.length ? `No such move: ${field.value}. Press Escape, then M for your moves.` : 'No moves for you now.');
      return;
    }
    const text = moveWords(move, makeContext(view).renderer);
    field.value = '';
    panel.focus();
    say(`You ${text}.`);
    await play(move);
  }

  document.addEventListener('keydown', (e) => {
    if (!on || e.ctrlKey || e.metaKey || e.altKey) return;
    if (e.target === field && e.key === 'Escape') { panel.focus(); return; }
    if (e.target instanceof Element && e.target.closest('input, select, textarea, [contenteditable]')) return;
    if (e.key.toLowerCase() !== 'p') return;
    e.preventDefault();
    if (field.disabled) say('No move of yours now.');
    else field.focus();
  });

  show();
  return {
    element,
    update(next, nextPending) {
      view = next;
      pending = nextPending;
      const focused = document.activeElement === field;
      show();
      if (focused && field.disabled) panel.focus();
    },
  };
}
