// Cowpoke: draw a card, put one out face down, turn them up together, take them in turn.

import {h, words} from '../dom.js';
import {card, cardRow, cardText, suitSymbol} from '../cards.js';
import {extend} from './generic.js';

const owner = (o, ctx) => (o === 'dummy' ? 'the dummy' : ctx.label(o));
const ownerShort = (o, ctx) => (o === 'dummy' ? 'D' : ctx.short(o));

export const cowpoke = extend({
  title: 'Cowpoke',
  // What the lobby offers to play against the bots: a blurb, fixed options, the choices
  // shown (value, text, seats when not `seats`), and the table size by default.
  offer: {blurb: 'Draft Poker: draw, put out, share, show down.', fixed: {}, seats: 4,
    choices: [{option: 'players', label: 'Players', values: [[3, '3', 3], [4, '4', 4], [5, '5', 5]]}]},

  hidden(view, seat) {
    return view.state.cards_held[seat];
  },

  seatExtras(view, seat, ctx) {
    const s = view.state;
    const parts = [];
    if (s.phase === 'put_out') {
      const mine = seat === view.you && s.put_out;
      if (mine) parts.push(h('div', {class: 'put-out'}, 'put out: ', card(s.put_out, {small: true})));
      else if (s.put_out_done[seat]) parts.push(h('div', {class: 'put-out'}, 'put out ✓'));
    }
    if (seat === view.you && s.drawn) parts.push(h('div', {class: 'drawn'}, 'drew ', card(s.drawn, {small: true})));
    if (!ctx.knows(seat) && s.exposed[seat].length) {
      parts.push(h('div', {class: 'known'}, 'known: ', cardRow(s.exposed[seat], {small: true})));
    }
    return parts;
  },

  center(view, ctx) {
    const s = view.state;
    if (view.result) return h('div', {class: 'center-note'}, 'The game is over.');
    const title = h('div', {class: 'center-title'},
      `Deal ${s.deal_number} of ${s.deals} · round ${s.round} · ${words(s.phase)} · stack ${s.stack_size}`);
    if (s.phase === 'exchange') {
      return [title,
        h('p', {class: 'exchange-note'}, s.chooser === null ? ''
          : s.chooser === view.you ? 'Your turn to choose: the card you choose is taken into your hand.'
            : `${ctx.label(s.chooser)} chooses a card: the card chosen goes into their hand.`),
        h('div', {class: 'trick table-cards'}, s.table.map((t) => h('div', {class: `table-card${t.taken_by === null ? '' : ' taken'}`},
          t.taken_by === null ? ctx.card(t.card, {bind: true}) : card(t.card, {small: true}),
          h('span', {class: 'muted'}, `${owner(t.owner, ctx)}${t.taken_by === null ? '' : ` → ${ctx.label(t.taken_by)}`}`))))];
    }
    const last = s.rounds.length ? s.rounds[s.rounds.length - 1] : null;
    return [title,
      s.phase === 'asking' ? h('p', {}, `Showdown? ${s.asked === null ? '' : ctx.label(s.asked)} is asked` +
        (s.passes.length ? ` · passed: ${s.passes.map((p) => ctx.label(p)).join(', ')}` : '')) : null,
      s.phase === 'put_out' ? h('p', {class: 'muted'}, 'Everyone puts one card out face down.') : null,
      last ? h('div', {class: 'last-round'}, h('p', {class: 'muted'}, `Round ${last.round}: who took which put-out`),
        h('div', {class: 'trick'}, last.put_outs.map((p) => h('div', {class: 'table-card taken'},
          card(p.card, {small: true, by: ownerShort(p.owner, ctx)}),
          h('span', {class: 'muted'}, p.taken_by === null ? 'out of play' : `→ ${ctx.short(p.taken_by)}`))))) : null,
    ];
  },

  info(view, ctx) {
    const s = view.state;
    const seats = view.seats.map((x) => x.seat);
    return [
      h('p', {}, `Deal ${s.deal_number} of ${s.deals} · dealer ${ctx.label(s.dealer)} · suits ${[...s.suit_order].map(suitSymbol).join(' > ')}${s.dummy ? ' · with a dummy' : ''}`),
      // a row per seat, by its label as on the felt: five players fit the panel
      h('table', {class: 'scores by-seat'},
        h('thead', {}, h('tr', {}, h('th', {scope: 'col'}, 'seat'), h('th', {scope: 'col'}, 'player'), h('th', {scope: 'col'}, 'points'))),
        h('tbody', {}, seats.map((x) => h('tr', {}, h('th', {scope: 'row'}, ctx.label(x)), h('td', {class: 'name'}, ctx.name(x)),
          h('td', {}, view.scores[x]))))),
      s.deal_results.length ? h('details', {class: 'showdowns', open: true}, h('summary', {}, 'Showdowns'),
        s.deal_results.map((d) => h('div', {class: 'showdown'},
          h('p', {}, `Deal ${d.deal}, round ${d.round}: ${d.called_by === null ? 'compulsory' : `called by ${ctx.label(d.called_by)}`} · won by ${d.winners.map((w) => ctx.label(w)).join(' & ')}`),
          d.best.map((b, seat) => h('div', {}, `${ctx.short(seat)}: `, cardRow(b.cards, {small: true}), ` ${words(b.combination)}`))))) : null,
    ];
  },

  event(e, ctx) {
    const d = e.data;
    switch (e.kind) {
      case 'round': return `Deal ${d.deal}, round ${d.round}`;
      case 'draw': return `${ctx.label(d.seat)} draws ${cardText(d.card)}`;
      case 'put_out': return `${ctx.label(d.seat)} puts a card out`;
      case 'reveal': return `Put-outs turned up: ${d.put_outs.map((p) => `${ownerShort(p.owner, ctx)} ${cardText(p.card)}`).join(', ')}`;
      case 'take': return `${ctx.label(d.seat)} takes ${cardText(d.card)} from ${owner(d.from, ctx)}${d.auto ? ' (the last card)' : ''}`;
      case 'out_of_play': return `${cardText(d.card)} (from ${owner(d.from, ctx)}) goes out of play`;
      case 'asking': return `Showdown? ${ctx.label(d.asked)} is asked`;
      case 'call': return `${ctx.label(d.seat)} calls a showdown`;
      case 'showdown': return `Showdown: ${d.winners.map((w) => ctx.label(w)).join(' & ')} win${d.winners.length === 1 ? 's' : ''}`;
      default: return null;
    }
  },

  moveHint(view) {
    if (view.state.phase === 'put_out') return 'Your move: choose a card of your hand to put out face down (everyone puts out at the same time).';
    return view.state.phase === 'exchange' ? 'Your move: choose a card on the table; choosing takes it into your hand.' : null;
  },

  moveHelp(move) {
    if (move.type === 'call') return 'Call a showdown: everyone shows their best five-card Poker hand now, and the best wins this deal.';
    if (move.type === 'pass') return 'No showdown: play another round (the next player is asked).';
    return null;
  },

  moveLabel(move) {
    if (move.type === 'call') return 'Call a showdown';
    if (move.type === 'pass') return 'No showdown';
    return null;
  },
});
