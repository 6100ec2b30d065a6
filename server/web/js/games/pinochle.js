// The Pinochle family: bids or a turned card fix trumps, melds are shown, then twelve-odd tricks.

import {h, words} from '../dom.js';
import {card, cardRow, cardText, suitSymbol} from '../cards.js';
import {extend} from './generic.js';

function sideName(s, index, ctx) {
  return s.sides[index].map((seat) => ctx.short(seat)).join('–');
}

function trick(cards, ctx) {
  return h('div', {class: 'trick'}, cards.map((c) => card(c.card, {by: ctx.short(c.seat)})));
}

export const pinochle = extend({
  title: 'Pinochle',
  variantOption: 'variant', // the option that names the variant, shown after the title
  // What the lobby offers to play against the bots: a blurb, fixed options, the choices
  // shown (value, text, seats when not `seats`), and the table size by default.
  offer: {blurb: 'Partners meld, then take tricks worth counters.', fixed: {max_deals: 1}, seats: 4,
    choices: [{option: 'variant', label: 'Variant', values: [['partnership', 'Partnership (4)'],
      ['firehouse', 'Firehouse (4)'], ['check', 'Check (4)'], ['double-deck', 'Double-deck (6)', 6]]}]},
  sideScores: true, // scores are shown once per side, beside the table

  seatExtras(view, seat, ctx) {
    const s = view.state;
    const bids = s.bids.filter((b) => b.seat === seat);
    const lastBid = bids.length ? bids[bids.length - 1] : null;
    const melds = s.melds ? s.melds[seat] : null;
    return [
      lastBid ? h('span', {class: `chip ${lastBid.amount === null ? 'pass' : 'bid'}`},
        lastBid.amount === null ? 'passed' : `bid ${lastBid.amount}`) : null,
      s.contract && s.contract.bidder === seat ? h('span', {class: 'chip contract'}, `contract ${s.contract.amount}`) : null,
      melds && melds.length ? h('div', {class: 'melds'}, melds.map((m) => h('div', {class: 'meld'},
        cardRow(m.cards, {small: true}), ` ${words(m.name)} ${m.points}`))) : null,
      !ctx.knows(seat) && s.exposed[seat].length
        ? h('div', {class: 'known'}, 'known: ', cardRow(s.exposed[seat], {small: true})) : null,
    ];
  },

  center(view, ctx) {
    const s = view.state;
    if (view.result) return h('div', {class: 'center-note'}, 'The game is over.');
    const trumps = s.trump ? `trumps ${suitSymbol(s.trump)}` : 'no trumps yet';
    const title = h('div', {class: 'center-title'}, `${this.optionName('variant', s.variant)} · deal ${s.deal_number} · ${words(s.phase)} · ${trumps}`);
    if (s.phase === 'auction') {
      const high = s.bids.filter((b) => b.amount !== null).pop();
      return [title, h('p', {}, high ? `High bid ${high.amount} by ${ctx.label(high.seat)}` : 'No bid yet')];
    }
    if (s.phase === 'trump') {
      return [title, h('p', {}, `${ctx.label(s.contract.bidder)} won the auction at ${s.contract.amount} and names trumps`)];
    }
    if (s.phase === 'exchange') {
      return [title, h('p', {}, 'Turned up: '), s.turn_up ? card(s.turn_up) : null,
        h('p', {class: 'muted'}, 'Each holder of a dix (the 9 of trumps), asked in turn, may exchange it for the turned card.')];
    }
    const last = s.tricks.length ? s.tricks[s.tricks.length - 1] : null;
    return [title,
      h('p', {class: 'muted'}, `Trick ${s.trick_number} · ${ctx.label(s.leader)} leads`),
      s.current_trick.length ? trick(s.current_trick, ctx) : h('p', {class: 'muted'}, 'no card yet'),
      last ? h('div', {class: 'last-trick'},
        h('p', {class: 'muted'}, `Last trick to ${ctx.label(last.winner)} (${last.counters} in counters)`),
        trick(last.cards, ctx)) : null,
    ];
  },

  info(view, ctx) {
    const s = view.state;
    const sides = [0, 1];
    const row = (label, values) => values
      ? h('tr', {}, h('th', {}, label), sides.map((i) => h('td', {}, values[i]))) : null;
    const meldsBySide = s.meld_points
      ? sides.map((i) => s.sides[i].reduce((sum, seat) => sum + s.meld_points[seat], 0)) : null;
    return [
      h('p', {}, `${this.optionName('variant', s.variant)} · dealer ${ctx.label(s.dealer)} · ${(view.options || {}).max_deals === 1 ? 'one deal' : `to ${s.target}`} · count ${words(s.count)}` +
        (s.contract ? ` · contract ${s.contract.amount} (${ctx.label(s.contract.bidder)})` : '')),
      h('table', {class: 'scores'},
        h('thead', {}, h('tr', {}, h('th', {}, ''), sides.map((i) => h('th', {}, sideName(s, i, ctx))))),
        h('tbody', {},
          row('melds', meldsBySide),
          row('counters', s.counters),
          row('tricks', s.tricks_won),
          row('score', s.scores),
          row('checks', s.checks))),
      s.deal_results.length ? h('details', {class: 'deals'}, h('summary', {}, `Deals (${s.deal_results.length})`),
        h('ol', {}, s.deal_results.map((d) => h('li', {},
          `Deal ${d.deal} (trumps ${suitSymbol(d.trump)}${d.contract ? `, contract ${d.contract.amount} by ${ctx.label(d.contract.bidder)}` : ''}): ` +
          `made ${d.made.join(' / ')}, scored ${d.points.join(' / ')} → ${d.scores.join(' / ')}`)))) : null,
    ];
  },

  event(e, ctx) {
    const d = e.data;
    switch (e.kind) {
      case 'deal': return `Deal ${d.deal} · dealer ${ctx.label(d.dealer)}${d.turn_up ? ` · turned ${cardText(d.turn_up)}` : ''}`;
      case 'contract': return `${ctx.label(d.bidder)} wins the auction at ${d.amount}`;
      case 'trump': return `${ctx.label(d.seat)} names ${suitSymbol(d.suit)} trumps`;
      case 'exchange': return `${ctx.label(d.seat)} exchanges the dix for ${cardText(d.took)}`;
      case 'keep': return `${ctx.label(d.seat)} keeps`;
      case 'melds': return `Melds shown: ${(d.points || []).join(' · ')}`;
      case 'trick': return `Trick ${d.number} to ${ctx.label(d.winner)} (${d.counters})`;
      case 'deal_end': return `Deal ${d.deal} scored: ${d.points.join(' / ')} → ${d.scores.join(' / ')}`;
      default: return null;
    }
  },

  sides(view) {
    const n = view.seats.length;
    return view.state.sides.map((seats) => ({seats,
      name: n === 4 ? seats.map((x) => this.seatLabel(x, n)).join('–') : seats.map((x) => this.seatLabel(x, n)).join(' & ')}));
  },

  /** What a move commits to (the rules: docs/rules/pinochle.md, P5, P9, P15, P16). */
  moveHelp(move, view) {
    const s = view ? view.state : {};
    const legal = view ? view.legal_moves || [] : [];
    const canBid = legal.some((m) => m.type === 'bid');
    const check = s.variant === 'check';
    switch (move.type) {
      case 'bid': return 'Bid: the points your side promises to make this deal in melds plus counters. '
        + 'The highest bid names trumps and leads; a side that makes less loses its bid.'
        + (check ? ' In Check you may bid only while holding a marriage (a K and Q of one suit).' : '');
      case 'pass': return canBid || s.phase !== 'auction'
        ? `Pass: you make no bid${check ? ' and are out of this auction' : s.variant === 'firehouse' ? ' (each player bids once)' : ''}.`
        : check ? 'Pass: you cannot bid without a marriage (a K and Q of one suit) in your hand, so you pass.'
          : 'Pass: you make no bid.';
      case 'trump': return 'Name trumps: that suit beats every other suit in the tricks of this deal.';
      case 'exchange_dix': return 'Exchange the dix: give your dix (the 9 of trumps) to the dealer and take the turned card; your dix still scores 10.';
      case 'keep': return legal.some((m) => m.type === 'exchange_dix')
        ? 'Keep: you keep your dix (the 9 of trumps) and do not take the turned card; the dix still scores 10.'
        : 'Keep: you hold no dix (the 9 of trumps), so you cannot take the turned card; keep your hand and the next player is asked.';
      default: return null;
    }
  },

  moveLabel(move) {
    switch (move.type) {
      case 'bid': return `Bid ${move.amount}`;
      case 'trump': return `Trumps ${suitSymbol(move.suit)}`;
      case 'exchange_dix': return 'Exchange the dix';
      case 'keep': return 'Keep';
      case 'pass': return 'Pass';
      default: return null;
    }
  },
});
