// Concerto: partnership hands of five cards, built by two partners who play, pass or call 'Play'.

import {h, words} from '../dom.js';
import {card, cardRow, cardText} from '../cards.js';
import {extend} from './generic.js';
import {lastOf} from './seconds.js';

const sideName = (side) => (side && side[0] % 2 === 0 ? 'North–South' : 'East–West');

// -- the leader's opening signal, read as Parlett's system reads it --------------------
// docs/bots/conventions.md and bots/concerto_signals.py (read_signal, convention_card):
// the house bots lead by it; a person may not, so the page says whose system it is.

const VALUE = {A: 14, K: 13, Q: 12, J: 11, T: 10};
const value = (c) => VALUE[c[0]] ?? Number(c[0]);
const coords = (c) => (c[0] === 'A' ? [1, 14] : [value(c)]);
const red = (c) => c[1] === 'H' || c[1] === 'D';
const RANKS = {A: 'aces', K: 'kings', Q: 'queens', J: 'jacks', T: 'tens'};
const ranks = (c) => RANKS[c[0]] ?? `${c[0]}s`;
const SUIT_WORDS = {S: 'spades', H: 'hearts', D: 'diamonds', C: 'clubs'};

/** The two cards' straight positions when at most four ranks apart (the ace high or low), else null. */
function inRange(first, second) {
  for (const a1 of coords(first)) for (const a2 of coords(second)) if (a1 !== a2 && Math.abs(a1 - a2) <= 4) return [a1, a2];
  return null;
}

// A same-suit, in-range signal: the straight-flush holding (seed 000's table) and, read as a
// weak signal, how many cards of the suit the leader claims (_CLAIMED_IN_SUIT).
const SUIT_SIGNALS = {
  'up 4': ['five to a straight flush (all five cards in sequence)', 5],
  'up 3': ['four to a straight flush, in sequence', 4],
  'up 2': ['four to a straight flush: three in sequence and one more', 4],
  'down 3': ['four to a straight flush with one card missing between', 4],
  'up 1': ['three to a straight flush: two in sequence and one higher', 3],
  'down 1': ['three to a straight flush: two in sequence and one lower', 3],
  'down 2': ['three to a straight flush, in sequence', 3],
  'down 4': ['three to a straight flush, none consecutive', 3],
};

/**
 * What the leader's first card and what followed it (`then`: 'card', 'pass' or 'force')
 * say under the house bots' convention card. `known`: cards the viewer knows the leader
 * does not hold (its own hand, the completed hands), as the partner reads them.
 */
export function readSignal(first, then, second, known) {
  if (then === 'force') return 'nothing worth showing: its lowest card, then \'Play\' (you finish the hand)';
  if (then === 'pass') {
    const threes = first[1] === 'H' || (first[1] === 'D' && known.has(`${first[0]}H`));
    return threes ? `threes: three ${ranks(first)}` : `one pair: two ${ranks(first)}`;
  }
  if (second[0] === first[0]) {
    return first[1] === 'H' && second[1] === 'D' ? `fours: four ${ranks(first)}`
      : `two pairs, one of them ${ranks(first)}`;
  }
  const at = inRange(first, second);
  if (first[1] === second[1]) {
    if (at) {
      const [meaning, cards] = SUIT_SIGNALS[`${at[1] > at[0] ? 'up' : 'down'} ${Math.abs(at[1] - at[0])}`];
      return `${meaning} in ${SUIT_WORDS[first[1]]} (as a weak signal: ${cards} ${SUIT_WORDS[first[1]]} to a flush)`;
    }
    return value(first) < value(second) ? `a five-card flush in ${SUIT_WORDS[first[1]]}`
      : `two pairs: ${ranks(first)} and ${ranks(second)}`;
  }
  const others = (c) => [...known].filter((k) => k[0] === c[0] && k !== first && k !== second).length;
  if (red(first) !== red(second)) {
    if (others(first) <= 1 && others(second) <= 2) return `a full house: three ${ranks(first)} and two ${ranks(second)}`;
  } else if (!at && others(first) <= 1 && others(second) <= 1) {
    return `two threes: three ${ranks(first)} and three ${ranks(second)}`;
  }
  if (at) {
    const up = at[1] > at[0];
    return up && Math.abs(at[1] - at[0]) === 4 ? 'a five-card straight'
      : up ? 'four to a straight' : 'three to a straight';
  }
  return 'no holding of the system';
}

/** The opening signal of the hand being built, in words; null until the leader has sent it. */
function signalNote(view, steps, ctx) {
  const [lead, reply, next] = steps;
  if (!lead || !reply || !next || lead.kind !== 'play' || reply.kind !== 'pass') return null;
  const leader = lead.data.seat;
  if (next.data.seat !== leader) return null;
  const s = view.state;
  const known = new Set([...(view.you === leader ? [] : view.hand || []),
    ...(s.completed_hands || []).filter((x) => x.deal === s.deal_number).flatMap((x) => x.cards.map((c) => c.card))]);
  const then = next.kind === 'play' ? 'card' : next.kind;
  const meaning = readSignal(lead.data.card, then, then === 'card' ? next.data.card : null, known);
  const shown = then === 'card' ? `${cardText(lead.data.card)} then ${cardText(next.data.card)}`
    : `${cardText(lead.data.card)} then ${then === 'pass' ? 'a pass' : "'Play'"}`;
  const whose = view.you !== null && view.you !== leader && (view.you - leader + 4) % 4 === 2
    ? `Your partner ${ctx.label(leader)}` : ctx.label(leader);
  return h('p', {class: 'signal'}, `${whose} signalled ${shown}. `,
    `By Parlett's signals (the house bots' convention card), that shows ${meaning}.`);
}

/**
 * The actions of the hand being built, in order: plays, passes and 'Play' calls.
 * The events carry passes and calls, the state carries only the cards, so the
 * events are used when they agree with the state's cards, else the cards alone.
 */
function actions(view, events) {
  const s = view.state;
  let seen = [];
  for (const e of events) {
    if (e.kind === 'hand_complete' || e.kind === 'deal') seen = [];
    else if (e.kind === 'play' || e.kind === 'pass' || e.kind === 'force') seen.push(e);
  }
  const plays = seen.filter((e) => e.kind === 'play').map((e) => e.data.card);
  const cards = s.current_hand.map((c) => c.card);
  if (plays.length === cards.length && plays.every((c, i) => c === cards[i])) return seen;
  return s.current_hand.map((c) => ({kind: 'play', data: c}));
}

export const concerto = extend({
  title: 'Concerto',
  variantOption: 'rules', // the option that names the edition, shown after the title
  // What the lobby offers to play against the bots: a blurb, fixed options, the choices
  // shown (value, text, seats when not `seats`), and the table size by default.
  offer: {blurb: 'Partners build Poker hands from their two hands.', fixed: {deals: 1}, seats: 4,
    choices: [{option: 'rules', label: 'Edition', values: [['parlett-2013', 'Parlett 2013'], ['penguin', 'Penguin book']],
      // what differs between the editions (docs/rules/concerto.md: C2, C15, C17)
      help: {
        'parlett-2013': 'Parlett’s 2013 revision: a straight flush split three and two scores 20 either way; '
          + 'three pairs among the left-overs score 60; on equal hand scores the non-dealers score the dealers’ left-overs.',
        penguin: 'The Penguin book: a straight flush of two by the leader and three by the partner scores 25; '
          + 'three pairs among the left-overs count as two pairs (20); on equal hand scores the side with the better left-overs loses.',
      }}]},
  sideScores: true, // scores are shown once per side, beside the table

  publicHand(view, seat) {
    const final = view.state.final_hands;  // shown to everyone once the game ends
    return final ? final[seat] : null;
  },

  seatExtras(view, seat, ctx) {
    const s = view.state;
    const mine = (s.completed_hands || []).filter((x) => x.deal === s.deal_number && x.leader === seat);
    if (!mine.length) return null;
    return h('div', {class: 'completed', 'aria-label': `hands led by ${ctx.label(seat)}`}, mine.map((x) =>
      h('div', {class: 'hand-record', dataset: {hand: x.number}},
        h('span', {class: 'tag', title: `hand ${x.number} of this deal, led by ${ctx.label(seat)}`}, `#${x.number}`),
        x.cards.map((c) => card(c.card, {small: true, by: ctx.short(c.seat)})),
        h('span', {class: 'combo'}, `${words(x.combination)} · ${x.points}`))));
  },

  center(view, ctx) {
    const s = view.state;
    if (view.result) return h('div', {class: 'center-note'}, 'The game is over.');
    const steps = actions(view, ctx.events);
    const forced = s.forced
      ? h('p', {class: 'note'}, `${ctx.label(s.forced.by)} called 'Play': ${ctx.label(s.forced.player)} plays on alone.`)
      : null;
    // Before the first card of a deal, the previous deal's last hand stays in view (the
    // seats show this deal's hands only): from the events, as a new game forgets it.
    const previous = s.hand_number === 1 && !steps.length ? lastOf(ctx.events, 'hand_complete') : null;
    return [
      h('div', {class: 'center-title'},
        `Hand ${s.hand_number} of 8 · ${sideName(s.side)} · led by ${ctx.label(s.leader)}`),
      h('div', {class: 'trick current-hand'}, steps.length ? steps.map((e) => {
        if (e.kind === 'play') return card(e.data.card, {by: ctx.short(e.data.seat)});
        const text = e.kind === 'pass' ? 'pass' : "'Play'";
        return h('span', {class: `chip ${e.kind}`}, `${ctx.short(e.data.seat)}: ${text}`);
      }) : h('span', {class: 'muted'}, 'no card yet')),
      h('p', {class: 'muted'}, `${s.current_hand.length} of 5 cards · passes in a row: ${s.passes}`),
      forced,
      signalNote(view, steps, ctx),
      previous ? h('div', {class: 'last-trick'},
        h('p', {class: 'muted'}, `Last hand of deal ${previous.deal}, led by ${ctx.label(previous.leader)}: `,
          `${words(previous.combination)}, ${previous.points} point${previous.points === 1 ? '' : 's'}`),
        h('div', {class: 'trick'}, previous.cards.map((c) => card(c.card, {by: ctx.short(c.seat)})))) : null,
    ];
  },

  info(view, ctx) {
    const s = view.state;
    const o = view.options || {};
    const row = (label, scores, cls = null) => scores
      ? h('tr', {class: cls}, h('th', {scope: 'row'}, label), h('td', {}, scores.NS), h('td', {}, scores.EW)) : null;
    const earlier = (s.completed_hands || []).filter((x) => x.deal !== s.deal_number);
    // The game's score in rows that add up: earlier deals, this deal's hands, its left-over
    // bonus and game bonus once the deal is scored, and the total (the game score so far).
    const scored = (s.deal_results || []).find((d) => d.deal === s.deal_number && (d.game ?? s.game_number) === s.game_number);
    const zero = {NS: 0, EW: 0};
    const add = (...xs) => ({NS: xs.reduce((t, x) => t + x.NS, 0), EW: xs.reduce((t, x) => t + x.EW, 0)});
    const less = (x, y) => ({NS: x.NS - y.NS, EW: x.EW - y.EW});
    const hands = s.deal_hand_points || zero;
    const left = scored ? scored.leftover_bonus : null;
    const bonus = scored && (scored.game_bonus.NS || scored.game_bonus.EW) ? scored.game_bonus : null;
    const total = scored ? s.game_scores : add(s.game_scores, hands);
    const before = scored ? less(s.game_scores, add(hands, left, bonus || zero)) : s.game_scores;
    const one = o.deals === 1;
    return [
      h('p', {}, `Game ${s.game_number} · deal ${s.deal_number} of ${o.deals ?? '?'} · dealer ${ctx.label(s.dealer)} · ${this.optionName('rules', o.rules ?? s.rules)}`),
      h('table', {class: 'scores'},
        h('thead', {}, h('tr', {}, h('td', {}, ''), h('th', {scope: 'col'}, 'N–S'), h('th', {scope: 'col'}, 'E–W'))),
        h('tbody', {},
          s.deal_number > 1 ? row('earlier deals', before) : null,
          row(one ? 'hands' : 'hands this deal', hands),
          left ? row('left-overs', left) : h('tr', {class: 'pending'}, h('th', {scope: 'row'}, 'left-overs'),
            h('td', {colspan: 2, class: 'muted'}, 'at the deal’s end')),
          bonus ? row('game bonus', bonus) : null,
          row(one ? 'game (one deal)' : `game (to ${o.target ?? 100})`, total, 'total'),
          o.match_target ? row('match', s.match_scores) : null)),
      s.deal_results.length ? h('details', {class: 'deals', open: true}, h('summary', {}, 'Deals'),
        h('ol', {}, s.deal_results.map((d) => h('li', {},
          `Deal ${d.deal}: hands N–S ${d.hand_points.NS}, E–W ${d.hand_points.EW}; left-overs +${d.leftover_bonus.NS} / +${d.leftover_bonus.EW}`,
          d.game_bonus.NS || d.game_bonus.EW ? `; game bonus +${d.game_bonus.NS} / +${d.game_bonus.EW}` : '',
          Object.entries(d.leftovers || {}).map(([side, cards]) =>
            h('div', {class: 'leftovers'}, `${side} left over: `, cardRow(cards, {small: true}))))))) : null,
      earlier.length ? h('details', {class: 'earlier'}, h('summary', {}, `Hands of earlier deals (${earlier.length})`),
        earlier.map((x) => h('div', {class: 'hand-record'}, h('span', {class: 'tag'}, `${x.deal}.${x.number}`),
          x.cards.map((c) => card(c.card, {small: true, by: ctx.short(c.seat)})),
          h('span', {class: 'combo'}, `${words(x.combination)} · ${x.points}`)))) : null,
      s.final_hands ? h('div', {class: 'final-hands'}, h('p', {}, 'Cards left at the end:'),
        s.final_hands.map((hand, seat) => hand.length
          ? h('div', {}, `${ctx.label(seat)}: `, cardRow(hand, {small: true})) : null)) : null,
    ];
  },

  event(e, ctx) {
    const d = e.data;
    switch (e.kind) {
      case 'force': return `${ctx.label(d.seat)} calls 'Play': ${ctx.label(d.partner)} plays on alone`;
      case 'hand_complete':
        return `Hand ${d.number} (${sideName(d.side)}, led by ${ctx.label(d.leader)}): ${words(d.combination)}, ${d.points} point${d.points === 1 ? '' : 's'}`;
      case 'deal_end':
        return `Deal ${d.deal} scored: N–S ${d.scores.NS}, E–W ${d.scores.EW}`;
      case 'game_end': return `Game ${d.game} ends: N–S ${d.scores.NS}, E–W ${d.scores.EW}`;
      default: return null;
    }
  },

  lastTrick(events) {
    for (let i = events.length - 1; i >= 0; i--) {
      if (events[i].kind === 'hand_complete') return {event: events[i], cards: events[i].data.cards, name: 'hand'};
    }
    return null;
  },

  sides() {
    return [{name: 'North–South', seats: [0, 2]}, {name: 'East–West', seats: [1, 3]}];
  },

  scoreLine(view) {
    const s = view.state;
    const pair = (x) => `N–S ${x.NS} · E–W ${x.EW}`;
    if (view.result) return `Final score: N–S ${view.result.scores[0]} · E–W ${view.result.scores[1]}`;
    return `This deal: ${pair(s.deal_hand_points)}${(view.options || {}).deals === 1 ? '' : ` · game: ${pair(s.game_scores)}`}`;
  },

  moveHelp(move) {
    if (move.type === 'pass') return 'Pass: your partner plays the next card (after two passes in a row, the first to pass must play).';
    if (move.type === 'force') return "Call 'Play': your partner finishes this hand alone, a card at a time, with no more passing.";
    return null;
  },

  legend(felt) {
    return felt.querySelector('.hand-record .tag')
      ? '#n beside a finished hand: its number in this deal, in front of the seat that led it; after it, its combination and points.'
      : null;
  },

  moveLabel(move) {
    if (move.type === 'pass') return 'Pass';
    if (move.type === 'force') return "Call 'Play'";
    return null;
  },
});
