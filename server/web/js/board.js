// The table drawn from one view: seats around the felt, the game's middle, and beside it
// the status, the move buttons, the game's scores and the log. Shared by the live table
// and the replay; the game-specific parts come from games/<game>.js.

import {h, words} from './dom.js';
import {backs, card, cardText} from './cards.js';
import {rendererFor} from './games/index.js';
import {commonEvent} from './games/generic.js';

/** Where each seat sits, counting clockwise from the one at the bottom (grid areas). */
const POSITIONS = {
  1: ['b'],
  2: ['b', 't'],
  3: ['b', 'tl', 'tr'],
  4: ['b', 'l', 't', 'r'],
  5: ['b', 'l', 'tl', 'tr', 'r'],
  6: ['b', 'bl', 'tl', 't', 'tr', 'br'],
  7: ['b', 'bl', 'l', 'tl', 'tr', 'r', 'br'],
  8: ['b', 'bl', 'l', 'tl', 't', 'tr', 'r', 'br'],
};
const MAX_BUTTONS = 8;
const LOG_LENGTH = 80;

/**
 * What the renderers draw with: the view, seat names, and card() that turns a card
 * into a button when it is one of the viewer's legal moves.
 *
 * options.hands: every seat's cards (a finished game's replay), else only view.hand.
 */
export function makeContext(view, {events = [], hands = null, interactive = false, onMove = null, chosen = null} = {}) {
  const renderer = rendererFor(view.game);
  const n = view.seats.length;
  const legal = interactive ? view.legal_moves || [] : [];
  const byCard = new Map();
  for (const move of legal) if (typeof move.card === 'string' && !byCard.has(move.card)) byCard.set(move.card, move);
  const bound = new Set();
  const handOf = (seat) => {
    if (hands && Array.isArray(hands[seat])) return hands[seat];
    if (seat === view.you && Array.isArray(view.hand)) return view.hand;
    return renderer.publicHand(view, seat);
  };
  const label = (seat) => renderer.seatLabel(seat, n);
  return {
    view,
    renderer,
    n,
    events,
    interactive,
    label,
    short: (seat) => (n === 4 ? label(seat)[0] : String(seat + 1)),
    name: (seat) => view.seats[seat]?.name ?? 'open seat',
    handOf,
    knows: (seat) => handOf(seat) !== null,
    /** A face-up card; with bind, clickable when it is a legal move of the viewer. */
    card(code, {bind = false, ...options} = {}) {
      const move = bind ? byCard.get(code) : null;
      if (!move) return card(code, options);
      bound.add(move);
      const picked = chosen && chosen.card === code && chosen.type === move.type;
      return card(code, {...options, extra: picked ? 'chosen' : '', onClick: () => onMove(move)});
    },
    /** Legal moves no card on the table stands for: they become buttons. */
    unbound: () => legal.filter((move) => !bound.has(move)),
  };
}

/** One line for the log. */
export function describeEvent(event, ctx) {
  return ctx.renderer.event(event, ctx) ?? commonEvent(event, ctx) ??
    `${words(event.kind)} ${JSON.stringify(event.data)}`;
}

/** A move as words ("North plays Q♠", "East: Pass"). */
export function describeMove(record, ctx) {
  if (!record) return 'As dealt';
  const {seat, move} = record;
  const what = typeof move.card === 'string' && (move.type === 'play' || move.type === 'put_out')
    ? `${words(move.type === 'play' ? 'plays' : 'puts out')} ${cardText(move.card)}`
    : (ctx.renderer.moveLabel(move) ?? moveText(move));
  return `${ctx.label(seat)}: ${what}${record.timeout ? ' (out of time)' : ''}`;
}

function moveText(move) {
  const rest = Object.entries(move).filter(([k]) => k !== 'type')
    .map(([, v]) => (typeof v === 'string' && /^[AKQJT98765432][SHDC]$/.test(v) ? cardText(v) : String(v)));
  return [words(move.type), ...rest].join(' ');
}

function seatBox(view, seat, ctx) {
  const entry = view.seats[seat] || {};
  const active = view.status === 'active';
  const toMove = active && (view.to_move || []).includes(seat);
  const you = seat === view.you;
  const won = Boolean(view.result && (view.result.winners || []).includes(seat));
  const known = ctx.handOf(seat);
  const hidden = known ? null : ctx.renderer.hidden(view, seat);
  const classes = ['seat', toMove && 'to-move', you && 'you', won && 'winner'].filter(Boolean).join(' ');
  const perSeat = view.scores && view.scores[seat] !== undefined && !ctx.renderer.sideScores;
  const score = perSeat ? view.scores[seat] : null;
  return h('div', {class: classes, dataset: {seat}},
    h('header', {class: 'seat-head'},
      h('span', {class: 'seat-label'}, ctx.label(seat)),
      h('span', {class: 'player'}, entry.name ?? 'open seat'),
      you ? h('span', {class: 'tag you-tag'}, 'you') : null,
      toMove ? h('span', {class: 'tag turn'}, 'to move') : null,
      won ? h('span', {class: 'tag won'}, 'won') : null,
      score === null ? null : h('span', {class: 'score', title: 'score'}, score)),
    // a group: a name on a plain div is not allowed (axe: aria-prohibited-attr), empty or not
    h('div', {class: `hand${known ? ' open' : ''}`, role: 'group', 'aria-label': `${ctx.label(seat)}'s hand`},
      known ? known.map((c) => ctx.card(c, {bind: you && ctx.interactive}))
        : hidden === null ? null : hidden === 0 ? h('span', {class: 'no-cards'}, 'no cards left') : backs(hidden)),
    h('div', {class: 'extras'}, ctx.renderer.seatExtras(view, seat, ctx)));
}

function statusLine(view, ctx, end = null) {
  if (view.status === 'waiting') {
    const open = view.seats.filter((s) => !s.player_id).length;
    return h('p', {class: 'status waiting'}, `Waiting for players: ${open} open seat${open === 1 ? '' : 's'}.`);
  }
  if (view.result) return resultLine(view, ctx, end);
  if (view.status === 'aborted') return h('p', {class: 'status'}, 'The game was stopped.');
  const movers = (view.to_move || []).map((s) => ctx.label(s)).join(', ');
  return h('p', {class: 'status'},
    view.you !== null && (view.to_move || []).includes(view.you) ? h('strong', {}, 'Your move. ') : null,
    movers ? `To move: ${movers}. ` : '',
    view.deadline ? h('span', {class: 'deadline', dataset: {deadline: view.deadline}}, '') : null);
}

/**
 * The end of a game: who won (by side in a partnership game: "North–South won, 25 to 6"),
 * whether the viewer did, and `end` (the live table's "Play again").
 */
function resultLine(view, ctx, end) {
  const r = view.result;
  const scores = r.scores || [];
  const winners = r.winners || [];
  const sides = ctx.renderer.sides(view);
  let text;
  if (r.termination === 'forfeit') {
    text = `Forfeited by ${ctx.label(r.forfeit)}.`;
  } else if (sides) {
    const won = sides.filter((side) => side.seats.some((s) => winners.includes(s)));
    const score = (side) => scores[side.seats[0]];
    const others = sides.filter((side) => !won.includes(side));
    text = won.length === 1
      ? `${won[0].name} won, ${score(won[0])} to ${others.map(score).join(' and ')}.`
      : `A draw: ${sides.map((side) => `${side.name} ${score(side)}`).join(', ')}.`;
  } else if (ctx.renderer.verdict(view, ctx)) {
    text = ctx.renderer.verdict(view, ctx);
  } else {
    const names = winners.map((s) => `${ctx.label(s)} (${ctx.name(s)})`);
    text = `${names.length ? `Won by ${names.join(' & ')}.` : 'A draw.'} Scores: ${
      view.seats.map((s) => `${ctx.label(s.seat)} ${scores[s.seat]}`).join(' · ')}.`;
  }
  const seated = view.you !== null && view.you !== undefined;
  const mine = !seated ? null
    : winners.includes(view.you) ? 'You won!' : winners.length ? 'You lost.' : 'A draw.';
  // By side in a partnership game: which side is yours; else the game's own reason.
  const yours = seated && sides ? sides.find((side) => side.seats.includes(view.you)) : null;
  const why = !seated || r.termination === 'forfeit' ? null
    : yours ? `Your side is ${yours.name}.` : ctx.renderer.whyYou(view, ctx);
  return h('div', {class: 'status result'},
    h('p', {}, 'Game over. ', text, mine ? [' ', h('strong', {class: 'verdict'}, mine)] : null,
      why ? [' ', h('span', {class: 'why'}, why)] : null),
    end);
}

function moveButtons(ctx, {pending = false, onMove}) {
  const moves = ctx.unbound();
  const boundAny = (ctx.view.legal_moves || []).length > moves.length;
  if (!ctx.interactive || !(ctx.view.legal_moves || []).length) return null;
  const groups = new Map();
  for (const move of moves) {
    if (!groups.has(move.type)) groups.set(move.type, []);
    groups.get(move.type).push(move);
  }
  const label = (move) => ctx.renderer.moveLabel(move) ?? moveText(move);
  const controls = [];
  for (const [type, list] of groups) {
    if (list.length > MAX_BUTTONS && list.every((m) => Number.isInteger(m.amount))) {
      controls.push(stepper(type, list, {pending, onMove}));
    } else if (list.length > MAX_BUTTONS) {
      const select = h('select', {class: 'move-choice', dataset: {moveType: type}, 'aria-label': words(type)},
        list.map((move, i) => h('option', {value: i}, label(move))));
      controls.push(h('span', {class: 'move-group'}, select,
        h('button', {type: 'button', class: 'move', disabled: pending, dataset: {moveType: type},
          onclick: () => onMove(list[Number(select.value)])}, 'OK')));
    } else {
      for (const move of list) {
        controls.push(h('button', {type: 'button', class: 'move', disabled: pending, title: ctx.renderer.moveHelp(move, ctx.view),
          dataset: {moveType: type, move: JSON.stringify(move)}, onclick: () => onMove(move)}, label(move)));
      }
    }
  }
  // What each kind of button does, in a short line under them (and as its tooltip).
  const helps = [...groups.values()].map((list) => ctx.renderer.moveHelp(list[0], ctx.view)).filter(Boolean);
  if ([...groups.values()].some((list) => list.length > MAX_BUTTONS && list.every((m) => Number.isInteger(m.amount)))) {
    helps.push('Min, −10 and +10 change the amount shown on the last button; that button makes the move.');
  }
  return h('section', {class: `moves${pending ? ' pending' : ''}`, 'aria-label': 'your moves'},
    boundAny ? h('p', {class: 'hint'}, ctx.renderer.moveHint(ctx.view) ?? 'Your move: choose a highlighted card.') : null,
    controls.length ? h('div', {class: 'buttons'}, controls) : null,
    helps.map((text) => h('p', {class: 'move-help'}, text)));
}

/**
 * Many moves of one type that differ by an amount (a bid): a stepper from the
 * minimum, ±10, and one button that makes the move shown.
 */
function stepper(type, list, {pending, onMove}) {
  const moves = [...list].sort((a, b) => a.amount - b.amount);
  let at = 0;
  const go = h('button', {type: 'button', class: 'move', disabled: pending, dataset: {moveType: type},
    title: `make this ${words(type).toLowerCase()}`, onclick: () => onMove(moves[at])});
  const show = () => { go.textContent = `${words(type)} ${moves[at].amount}`; };
  const to = (amount, up) => {
    const found = up ? moves.findIndex((m) => m.amount >= amount)
      : moves.findLastIndex((m) => m.amount <= amount);
    at = found < 0 ? (up ? moves.length - 1 : 0) : found;
    show();
  };
  show();
  const small = (text, name, action) => h('button', {type: 'button', class: 'step', disabled: pending,
    'aria-label': name, title: `${name} (shown on the last button, not made yet)`, onclick: action}, text);
  return h('span', {class: 'move-group stepper', role: 'group', 'aria-label': words(type)},
    small('Min', `Min: the lowest ${words(type)}`, () => { at = 0; show(); }), // a name holds its text
    small('−10', `${words(type)} 10 less`, () => to(moves[at].amount - 10, false)),
    small('+10', `${words(type)} 10 more`, () => to(moves[at].amount + 10, true)),
    go);
}

function logList(ctx, highlight) {
  const items = ctx.events.slice(-LOG_LENGTH).map((e) => h('li', {
    class: e.version === highlight ? 'now' : null,
    dataset: {kind: e.kind, version: e.version},
  }, describeEvent(e, ctx)));
  return h('details', {class: 'log-box', open: true}, h('summary', {}, 'Log'),
    h('ol', {class: 'log', reversed: true, tabindex: 0, 'aria-label': 'moves so far'}, items.reverse()));
}

/**
 * Draw the table for a view.
 *
 * options: events (the log), hands (every seat's cards, replays only), interactive
 * (the viewer may move), onMove(move), pending (a move is on its way), bottom (the
 * seat drawn at the bottom when the viewer has none), highlight (a version whose
 * events the log marks), chosen (a card move picked, to be confirmed: its card is marked).
 */
export function renderBoard(view, options = {}) {
  const ctx = makeContext(view, options);
  const n = ctx.n;
  const bottom = view.you ?? options.bottom ?? (n === 4 ? 2 : 0); // spectators: South below
  const positions = POSITIONS[n];
  const felt = h('section', {class: `felt seats-${positions ? n : 'many'}`, 'aria-label': 'the table'});
  for (const entry of view.seats) {
    const box = seatBox(view, entry.seat, ctx);
    if (positions) box.classList.add(`pos-${positions[(entry.seat - bottom + n) % n]}`);
    felt.append(box);
  }
  felt.append(h('div', {class: 'center'}, ctx.renderer.center(view, ctx)));
  // Seats and middle first: the cards they made clickable are not repeated as buttons.
  const info = h('section', {class: 'info'}, ctx.renderer.info(view, ctx));
  const side = h('aside', {class: 'side'},
    statusLine(view, ctx, options.end ?? null),
    moveButtons(ctx, options),
    lastReview(ctx),
    info,
    legend(felt, info, ctx),
    logList(ctx, options.highlight));
  // On a phone the side panel comes after every seat: the scores in one line on top.
  const scores = ctx.renderer.scoreLine(view, ctx);
  return h('div', {class: `board game-${view.game}${options.pending ? ' pending' : ''}`,
    dataset: {version: view.version, status: view.status}},
  scores ? h('p', {class: 'score-line'}, scores) : null, felt, side);
}

/** The last trick (or the game's like of it) to look at again, whenever: from the events. */
function lastReview(ctx) {
  const found = ctx.renderer.lastTrick(ctx.events);
  if (!found) return null;
  return h('details', {class: 'last-review', dataset: {version: found.event.version}},
    h('summary', {}, `Last ${found.name}`),
    h('p', {class: 'muted'}, describeEvent(found.event, ctx)),
    h('div', {class: 'trick'}, found.cards.map((c) => card(c.card, {small: true, by: Number.isInteger(c.seat) ? ctx.short(c.seat) : null}))));
}

/** What the small marks on the table mean, for those it shows. */
function legend(felt, info, ctx) {
  const lines = [];
  if (felt.querySelector('.card .by') || info.querySelector('.card .by')) {
    lines.push(ctx.n === 4
      ? 'A letter under a card: who played it (N North, E East, S South, W West).'
      : 'A number under a card: the seat that played it.');
  }
  const more = ctx.renderer.legend(felt, info);
  if (more) lines.push(more);
  return lines.length ? h('section', {class: 'legend', 'aria-label': 'marks on the table'},
    lines.map((text) => h('p', {class: 'muted'}, text))) : null;
}

/** Keep every deadline on the page counting down. */
function tick() {
  for (const el of document.querySelectorAll('.deadline[data-deadline]')) {
    const seconds = Math.round((Date.parse(el.dataset.deadline) - Date.now()) / 1000);
    el.textContent = seconds >= 0 ? `Move due in ${seconds} s.` : 'Move overdue.';
    el.classList.toggle('urgent', seconds < 10);
  }
}
setInterval(tick, 1000);
export {tick};
