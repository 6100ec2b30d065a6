// The screen-reader table: a mode of the live table (a toggle, kept per browser) in
// which single keys read the game out, after lichess's blind mode (NVUI). Each key
// puts one sentence in an aria-live region; a move is chosen by typing it (its number
// in the list of legal moves, or its card, "QS") into the move field and pressing Enter.
//
//   h  your hand, suit by suit          t  the trick on the table
//   l  the last trick and who won it    w  whose turn it is
//   s  the score                        m  your legal moves, numbered
//   p  to the move field (Escape back)  ?  these keys
//
// The table (table.js) makes one with readerTable({play}) and calls update(view, events,
// pending) whenever it redraws; nothing here asks the server for anything: it reads the
// view and the events the table already has (what the viewer's seat may see).

import {h, words} from './dom.js';
import {cardName} from './cards.js';
import {describeEvent, makeContext} from './board.js';

const KEY = 'parlour.reader';
const SUITS = [['S', 'spades'], ['H', 'hearts'], ['D', 'diamonds'], ['C', 'clubs']];
const RANKS = {A: 'ace', K: 'king', Q: 'queen', J: 'jack', T: '10'};
const HELP = 'Keys: h your hand, t the trick on the table, l the last trick, w whose turn, '
  + 's the score, m your legal moves, p the move field (type a move’s number or card, then Enter; '
  + 'Escape comes back), ? these keys.';

function rankName(code) {
  return RANKS[code[0]] ?? code[0];
}

/** "QS" -> "queen of spades"; anything else as it is. */
function named(code) {
  return typeof code === 'string' && /^[AKQJT98765432][SHDC]$/.test(code) ? cardName(code) : String(code);
}

/** A move in words: "play queen of spades", "pass", "bid 250". */
export function moveWords(move, renderer) {
  if (typeof move.card === 'string') return `${words(move.type)} ${named(move.card)}`;
  return renderer.moveLabel(move) ?? words(move.type);
}

/** The cards held, suit by suit: "spades: ace, 7; hearts: none; ...". */
export function handWords(cards) {
  return SUITS.map(([suit, name]) => {
    const held = cards.filter((c) => c[1] === suit).map(rankName);
    return `${name}: ${held.length ? held.join(', ') : 'none'}`;
  }).join('; ');
}

function playsWords(plays, ctx) {
  return plays.map((p) => `${ctx.label(p.seat)} ${named(p.card)}`).join(', ');
}

/** The plays since the last trick (or deal) closed, from the state where it keeps them. */
function currentTrick(view, ctx) {
  const state = view.state || {};
  if (Array.isArray(state.current_trick)) return state.current_trick;
  const plays = [];
  for (const e of ctx.events) {
    if (e.kind === 'trick' || e.kind === 'deal' || e.kind.endsWith('_end')) plays.length = 0;
    else if (e.kind === 'play' && typeof e.data.card === 'string') plays.push(e.data);
  }
  return plays;
}

function lastOf(events, kind) {
  for (let i = events.length - 1; i >= 0; i--) if (events[i].kind === kind) return events[i];
  return null;
}

/** The sentence each key reads, from the view and the events the viewer has. */
export function sentence(key, view, events) {
  const ctx = makeContext(view, {events});
  const you = view.you;
  const legal = you !== null && view.status === 'active' ? view.legal_moves || [] : [];
  switch (key) {
    case 'h': {
      if (you === null || !Array.isArray(view.hand)) return 'You hold no cards: you are watching.';
      return `Your hand, ${view.hand.length} cards. ${handWords(view.hand)}.`;
    }
    case 't': {
      const plays = currentTrick(view, ctx);
      return plays.length ? `On the table: ${playsWords(plays, ctx)}.` : 'No card on the table.';
    }
    case 'l': {
      const last = lastOf(events, 'trick');
      if (!last) {
        const before = events.slice(-3).map((e) => describeEvent(e, ctx));
        return before.length ? `No trick finished yet. Last: ${before.join('. ')}.` : 'Nothing has happened yet.';
      }
      const cards = Array.isArray(last.data.cards) ? `: ${playsWords(last.data.cards, ctx)}` : '';
      return `Last trick, won by ${ctx.label(last.data.winner)}${cards}.`;
    }
    case 'w': {
      if (view.status === 'finished') return `The game is over. ${ctx.renderer.scoreLine(view, ctx) ?? ''}`.trim();
      if (view.status !== 'active') return `The game is ${view.status}.`;
      const movers = view.to_move || [];
      if (movers.includes(you)) return `Your turn: ${legal.length} legal moves. Press m to hear them, p to choose.`;
      return `${movers.map((s) => ctx.label(s)).join(' and ') || 'Nobody'} to move.`;
    }
    case 's': {
      const line = ctx.renderer.scoreLine(view, ctx) ?? 'No score yet.';
      const won = view.state && Array.isArray(view.state.tricks_won)
        ? ` Tricks this deal: ${view.state.tricks_won.map((n, s) => `${ctx.label(s)} ${n}`).join(', ')}.` : '';
      return `${line}.${won}`.replace('..', '.');
    }
    case 'm': {
      if (!legal.length) return you === null ? 'You are watching: no moves.' : 'No moves for you now.';
      return `Your moves: ${legal.map((m, i) => `${i + 1} ${moveWords(m, ctx.renderer)}`).join('; ')}.`;
    }
    default:
      return HELP;
  }
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

/** The toggle and, when on, the reading panel; ``play(move)`` makes a move. */
export function readerTable({play}) {
  let on = stored();
  let view = null;
  let events = [];
  let pending = false;
  const speech = h('p', {class: 'reader-speech', role: 'log', 'aria-live': 'assertive', 'aria-atomic': 'true',
    'aria-label': 'read out'});
  const field = h('input', {id: 'reader-move', type: 'text', autocomplete: 'off', spellcheck: 'false',
    'aria-describedby': 'reader-move-help'});
  const form = h('form', {class: 'reader-move', onsubmit: (e) => { e.preventDefault(); choose(); }},
    h('label', {for: 'reader-move'}, 'Your move '), field,
    h('span', {id: 'reader-move-help', class: 'muted'}, ' its number (m lists them) or its card, as QS; Enter plays it'));
  const panel = h('section', {class: 'reader-panel', 'aria-label': 'screen-reader table', tabindex: '-1'},
    h('h2', {}, 'Screen-reader table'), h('p', {class: 'reader-keys'}, HELP), speech, form);
  const toggle = h('button', {type: 'button', class: 'reader-toggle', 'aria-pressed': String(on),
    onclick: () => setOn(!on)}, 'Screen-reader mode');
  const element = h('div', {class: 'reader'}, toggle, panel);

  let again = false;
  function say(text) {
    // The same sentence twice is still read: it changes by a trailing no-break space.
    again = speech.textContent.replace(/\u00a0$/, '') === text ? !again : false;
    speech.textContent = again ? `${text}\u00a0` : text;
  }

  function setOn(value) {
    on = value;
    try {
      localStorage.setItem(KEY, on ? 'on' : 'off');
    } catch { /* private mode: on for this page only */ }
    show();
    if (on) {
      panel.focus();
      say(view ? `${sentence('w', view, events)} ${HELP}` : HELP);
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
      say(legal.length ? `No such move: ${field.value}. Press Escape, then m for your moves.` : 'No moves for you now.');
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
    const target = e.target;
    if (target === field && e.key === 'Escape') { panel.focus(); return; }
    if (target instanceof HTMLInputElement || target instanceof HTMLSelectElement
      || target instanceof HTMLTextAreaElement) return;
    const key = e.key.toLowerCase();
    if (key === 'p') {
      e.preventDefault();
      if (field.disabled) say(view ? sentence('w', view, events) : HELP);
      else field.focus();
      return;
    }
    if (!'htlwsm?'.includes(key) || key.length !== 1) return;
    e.preventDefault();
    say(view ? sentence(key, view, events) : HELP);
  });

  show();
  return {
    element,
    update(next, nextEvents, nextPending) {
      const wasYours = view && view.you !== null && (view.to_move || []).includes(view.you);
      view = next;
      events = nextEvents;
      pending = nextPending;
      const focused = document.activeElement === field;
      show();
      if (focused && field.disabled) panel.focus();
      const yours = view.you !== null && view.status === 'active' && (view.to_move || []).includes(view.you);
      if (on && yours && !wasYours && !pending) say(sentence('w', view, events));
    },
  };
}
