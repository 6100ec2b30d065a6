// Seconds: thirteen tricks a deal, won by the second-highest card; partners change each deal.

import {h, words} from '../dom.js';
import {card} from '../cards.js';
import {extend} from './generic.js';

const SCORING = {
  product: 'your tricks × your partner’s',
  square: 'your tricks squared',
  thirteen_minus: '13 − your tricks',
};

function trick(cards, ctx) {
  return h('div', {class: 'trick'}, cards.map((c) => card(c.card, {by: ctx.short(c.seat)})));
}

/** The data of the newest event of this kind, or null. */
export function lastOf(events, kind) {
  for (let i = events.length - 1; i >= 0; i--) if (events[i].kind === kind) return events[i].data;
  return null;
}

export const seconds = extend({
  title: 'Seconds',
  // What the lobby offers to play against the bots: a blurb, fixed options, the choices
  // shown (value, text, seats when not `seats`), and the table size by default.
  offer: {blurb: 'Tricks where the second-best card wins.', fixed: {}, seats: 4, choices: []},

  seatExtras(view, seat, ctx) {
    const s = view.state;
    const partner = s.partners ? s.partners[seat] : null;
    const won = s.tricks_won[seat];
    return h('div', {class: 'pile'},
      h('span', {class: 'tricks-won', title: 'tricks won this deal'}, `tricks ${won}`),
      partner === null || partner === undefined ? null : h('span', {class: 'muted'}, ` · with ${ctx.label(partner)}`));
  },

  center(view, ctx) {
    const s = view.state;
    if (view.result) return h('div', {class: 'center-note'}, 'The game is over.');
    // The last trick stays in view until the next card, across a new deal too: the new
    // deal's state has no tricks, so the previous deal's last one comes from the events.
    const fresh = !s.tricks.length && !s.current_trick.length;
    const last = s.tricks.length ? s.tricks[s.tricks.length - 1] : fresh ? lastOf(ctx.events, 'trick') : null;
    const which = last && last.deal !== s.deal_number ? `Last trick of deal ${last.deal}` : 'Last trick';
    return [
      h('div', {class: 'center-title'},
        `Deal ${s.deal_number} of ${s.deals} · trick ${s.trick_number} of 13 · ${ctx.label(s.leader)} leads`),
      s.current_trick.length ? trick(s.current_trick, ctx) : h('p', {class: 'muted'}, 'no card yet'),
      last ? h('div', {class: 'last-trick'},
        h('p', {class: 'muted'}, `${which}: ${ctx.label(last.winner)} won it (${words(last.rule)})`),
        trick(last.cards, ctx)) : null,
    ];
  },

  info(view, ctx) {
    const s = view.state;
    const seats = view.seats.map((x) => x.seat);
    return [
      h('p', {}, `Deal ${s.deal_number} of ${s.deals} · dealer ${ctx.label(s.dealer)} · scoring: ${SCORING[s.scoring] ?? words(s.scoring)} · winner: ${words(s.winner_rule)}`),
      h('table', {class: 'scores'},
        // seats by their labels (the names are on the felt): a sheet that fits the side panel
        h('thead', {}, h('tr', {}, h('th', {}, 'deal'),
          seats.map((x) => h('th', {scope: 'col', title: ctx.name(x)}, ctx.label(x))))),
        h('tbody', {},
          s.deal_results.map((d) => h('tr', {}, h('th', {}, d.deal),
            seats.map((x) => h('td', {title: `${d.tricks[x]} tricks`}, `${d.points[x]}`)))),
          h('tr', {class: 'total'}, h('th', {}, 'total'), seats.map((x) => h('td', {}, view.scores[x]))))),
      s.tricks.length ? h('details', {class: 'tricks'}, h('summary', {}, `Tricks this deal (${s.tricks.length})`),
        s.tricks.map((t) => h('div', {class: 'trick-record'}, h('span', {class: 'tag'}, `#${t.number} → ${ctx.short(t.winner)}`),
          t.cards.map((c) => card(c.card, {small: true, by: ctx.short(c.seat)}))))) : null,
    ];
  },

  event(e, ctx) {
    const d = e.data;
    if (e.kind === 'trick') return `Trick ${d.number} to ${ctx.label(d.winner)} (${words(d.rule)})`;
    if (e.kind === 'deal_end') return `Deal ${d.deal} scored: ${d.points.join(' · ')}`;
    return null;
  },
});
