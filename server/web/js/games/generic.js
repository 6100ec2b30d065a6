// The fallback for any game without a renderer of its own: the view's state, shown readably.
// It is also the base every game renderer extends, so each one only writes what differs.

import {h, words} from '../dom.js';
import {card, cardText, isCard} from '../cards.js';

const COMPASS = ['North', 'East', 'South', 'West'];

/** Draw any JSON value: cards as cards, lists and objects as nested, collapsible lists. */
export function jsonTree(value, depth = 0) {
  if (value === null || value === undefined) return h('span', {class: 'nil'}, '—');
  if (isCard(value)) return card(value, {small: true});
  if (typeof value !== 'object') return h('span', {class: 'scalar'}, String(value));
  if (Array.isArray(value)) {
    if (value.length === 0) return h('span', {class: 'nil'}, 'none');
    if (value.every((v) => v === null || typeof v !== 'object')) {
      return h('span', {class: 'inline-list'}, value.map((v) => jsonTree(v, depth + 1)));
    }
    const items = h('ol', {class: 'tree', start: 0}, value.map((v) => h('li', {}, jsonTree(v, depth + 1))));
    return depth > 1 ? h('details', {}, h('summary', {}, `${value.length} items`), items) : items;
  }
  const rows = Object.entries(value).map(([k, v]) => [h('dt', {}, words(k)), h('dd', {}, jsonTree(v, depth + 1))]);
  return h('dl', {class: 'tree'}, rows);
}

/**
 * The log line of an event most games share (null: not one of those). A `deal` without a
 * dealer or a `trick` without its number (another game's shape of the kind) is not one.
 */
export function commonEvent(e, ctx) {
  const d = e.data || {};
  const who = typeof d.seat === 'number' ? ctx.label(d.seat) : null;
  switch (e.kind) {
    case 'deal': return typeof d.dealer === 'number' ? `Deal ${d.deal ?? ''} · dealer ${ctx.label(d.dealer)}` : null;
    case 'hand': return `${who} is dealt ${d.cards.length} card${d.cards.length === 1 ? '' : 's'}: ${d.cards.map(cardText).join(' ')}`;
    case 'play': return `${who} plays ${cardText(d.card)}`;
    case 'pass': return `${who} passes`;
    case 'bid': return `${who} bids ${d.amount}`;
    case 'trick': return typeof d.number === 'number' ? `Trick ${d.number} to ${ctx.label(d.winner)}` : null;
    case 'timeout': return `${who} ran out of time (${words(d.action)})`;
    case 'game_over': {
      const winners = (d.winners || []).map((s) => ctx.label(s));
      return `Game over: ${winners.length ? `${winners.join(' & ')} win` : 'a draw'} (${(d.scores || []).join(' · ')})`;
    }
    default: return null;
  }
}

export const generic = {
  title: null,

  /** The seat's name on the table: compass points for four, "Seat n" (from 1) otherwise. */
  seatLabel(seat, n) {
    return n === 4 ? COMPASS[seat] : `Seat ${seat + 1}`;
  },

  /** How many cards the seat holds that the viewer cannot see (null: unknown). */
  hidden(view, seat) {
    const s = view.state || {};
    const counts = s.cards_left || s.cards_held;
    return Array.isArray(counts) && typeof counts[seat] === 'number' ? counts[seat] : null;
  },

  /** A seat's cards when the state has made them public (at the end of a game), else null. */
  publicHand() {
    return null;
  },

  /** Public things in front of a seat (completed hands, tricks, melds...). */
  seatExtras() {
    return null;
  },

  /** The middle of the table. */
  center() {
    return null;
  },

  /** Scores and progress beside the table; here, the whole state as a tree. */
  info(view) {
    return h('details', {class: 'state-json', open: true}, h('summary', {}, 'Game state'), jsonTree(view.state));
  },

  /** One line of the log for an event (null: the generic line). */
  event() {
    return null;
  },

  /** The partnerships, [{name, seats}], when the game is played by sides (else null). */
  sides() {
    return null;
  },

  /** The scores in one short line (shown above the table on a phone); null: none. */
  scoreLine(view, ctx) {
    const scores = view.scores;
    if (!Array.isArray(scores) || !scores.length) return null;
    const sides = this.sides(view);
    const parts = sides ? sides.map((side) => `${side.name} ${scores[side.seats[0]]}`)
      : view.seats.map((s) => `${ctx.label(s.seat)} ${scores[s.seat]}`);
    return `Score: ${parts.join(' · ')}`;
  },

  /** What a move button does, in a sentence (its tooltip and a line under the buttons); null: obvious. */
  moveHelp() {
    return null;
  },

  /** The line above the viewer's moves when a card is to be chosen (null: the usual one). */
  moveHint() {
    return null;
  },

  /** What the game's own marks mean, for the legend (given the drawn felt and panel); null: none. */
  legend() {
    return null;
  },

  /** An option's value by its name ("parlett-2013" → "Parlett 2013"), from the offer's choices; null for none. */
  optionName(option, value) {
    if (value === null || value === undefined) return null;
    const choice = (this.offer?.choices || []).find((c) => c.option === option)?.values.find(([v]) => v === value);
    return choice ? String(choice[1]).replace(/ \(\d\)$/, '') : words(String(value));
  },

  /** The end of a game of players each for themselves, in words (null: the usual "Won by ..."). */
  verdict() {
    return null;
  },

  /** Why the viewer won or lost, in a few words (null: nothing to add). */
  whyYou() {
    return null;
  },

  /** The newest finished trick among the events ({event, cards, name}), for the review; null: none. */
  lastTrick(events) {
    for (let i = events.length - 1; i >= 0; i--) {
      const e = events[i];
      if (e.kind !== 'trick' || !Array.isArray(e.data?.cards)) continue;
      // A game's own shape: [{seat, card}] or bare card codes (then with no seat tag).
      const cards = e.data.cards.map((c) => (typeof c === 'string' ? {card: c, seat: null} : c));
      if (cards.every((c) => c && typeof c.card === 'string')) return {event: e, cards, name: 'trick'};
    }
    return null;
  },

  /** A button's label for a move that is not a card in the hand. */
  moveLabel(move) {
    const rest = Object.entries(move).filter(([k]) => k !== 'type').map(([, v]) => String(v));
    return [words(move.type), ...rest].join(' ');
  },
};

/** A renderer with some parts replaced. */
export const extend = (parts) => ({...generic, ...parts});
