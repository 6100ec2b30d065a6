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

  /** Who won and why: the table's winning rule (docs/rules/seconds.md, S6) and every total. */
  verdict(view, ctx) {
    const scores = view.result.scores || [];
    const winners = view.result.winners || [];
    const second = view.state.winner_rule !== 'highest';
    const rule = second ? 'In Seconds the second-highest total wins' : 'At this table the highest total wins';
    const list = view.seats.map((x) => `${ctx.label(x.seat)} ${scores[x.seat]}`).join(' · ');
    if (!winners.length) return `A draw: ${rule.toLowerCase()}, and all four totals are equal. Totals: ${list}.`;
    const names = winners.map((x) => `${ctx.label(x)} (${ctx.name(x)})`).join(' & ');
    const top = Math.max(...scores);
    const first = view.seats.map((x) => x.seat).filter((x) => scores[x] === top && !winners.includes(x));
    const beaten = second && first.length
      ? `; ${first.map((x) => ctx.label(x)).join(' & ')} came first with ${top}, and first place does not win` : '';
    return `${names} won with ${scores[winners[0]]}. ${rule}${beaten}. Totals: ${list}.`;
  },

  /** Why the viewer won or lost, in a few words. */
  whyYou(view) {
    const scores = view.result.scores || [];
    const winners = view.result.winners || [];
    if (!winners.length) return null;
    const mine = scores[view.you];
    const top = Math.max(...scores);
    if (winners.includes(view.you)) return view.state.winner_rule === 'highest' ? 'Yours is the highest total.' : 'Yours is the second-highest total.';
    if (view.state.winner_rule !== 'highest' && mine === top) return 'Yours is the highest total, and first place does not win.';
    return `Your total, ${mine}, is not the ${view.state.winner_rule === 'highest' ? 'highest' : 'second-highest'}.`;
  },

  event(e, ctx) {
    const d = e.data;
    if (e.kind === 'trick') return `Trick ${d.number} to ${ctx.label(d.winner)} (${words(d.rule)})`;
    if (e.kind === 'deal_end') return `Deal ${d.deal} scored: ${d.points.join(' · ')}`;
    return null;
  },
});
