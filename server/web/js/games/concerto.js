// Concerto: partnership hands of five cards, built by two partners who play, pass or call 'Play'.

import {h, words} from '../dom.js';
import {card, cardRow} from '../cards.js';
import {extend} from './generic.js';
import {lastOf} from './seconds.js';

const sideName = (side) => (side && side[0] % 2 === 0 ? 'North–South' : 'East–West');

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
    choices: [{option: 'rules', label: 'Edition', values: [['parlett-2013', 'Parlett 2013'], ['penguin', 'Penguin book']]}]},
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
        h('span', {class: 'tag'}, `#${x.number}`),
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
      previous ? h('div', {class: 'last-trick'},
        h('p', {class: 'muted'}, `Last hand of deal ${previous.deal}, led by ${ctx.label(previous.leader)}: `,
          `${words(previous.combination)}, ${previous.points} point${previous.points === 1 ? '' : 's'}`),
        h('div', {class: 'trick'}, previous.cards.map((c) => card(c.card, {by: ctx.short(c.seat)})))) : null,
    ];
  },

  info(view, ctx) {
    const s = view.state;
    const o = view.options || {};
    const row = (label, scores) => scores
      ? h('tr', {}, h('th', {}, label), h('td', {}, scores.NS), h('td', {}, scores.EW)) : null;
    const earlier = (s.completed_hands || []).filter((x) => x.deal !== s.deal_number);
    return [
      h('p', {}, `Game ${s.game_number} · deal ${s.deal_number} of ${o.deals ?? '?'} · dealer ${ctx.label(s.dealer)} · ${o.rules ?? s.rules}`),
      h('table', {class: 'scores'},
        h('thead', {}, h('tr', {}, h('th', {}, ''), h('th', {}, 'N–S'), h('th', {}, 'E–W'))),
        h('tbody', {},
          row('this deal', s.deal_hand_points),
          row(`game (to ${o.target ?? 100})`, s.game_scores),
          row('match', s.match_scores))),
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

  moveLabel(move) {
    if (move.type === 'pass') return 'Pass';
    if (move.type === 'force') return "Call 'Play'";
    return null;
  },
});
