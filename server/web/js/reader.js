// Screen-reader keys at the table: one key reads one thing aloud (into a live region),
// whoever holds the page: H the hand by suit, T the middle of the table, L the last trick,
// W whose turn, S the score, M your legal moves, ? the keys. Keys with Ctrl, Alt or Meta,
// and keys typed into a field, are left alone.

import {cardName} from './cards.js';
import {describeEvent, describeMove, makeContext} from './board.js';

const SUIT_ORDER = ['S', 'H', 'D', 'C'];
const SUIT_NAMES = {S: 'spades', H: 'hearts', D: 'diamonds', C: 'clubs'};

export const KEYS = 'H your hand, T the table, L the last trick, W whose turn, S the score, M your moves, ? these keys';

/** An element's text as a screen reader says it: a card by its name, hidden marks skipped. */
export function spoken(el) {
  if (!el) return '';
  if (el.nodeType === Node.TEXT_NODE) return el.data;
  if (el.nodeType !== Node.ELEMENT_NODE || el.getAttribute('aria-hidden') === 'true') return '';
  if (el.dataset.card || el.getAttribute('role') === 'img') return ` ${el.getAttribute('aria-label') || ''} `;
  const parts = [...el.childNodes].map(spoken);
  const block = /^(P|DIV|LI|TR|SECTION|H\d)$/.test(el.nodeName);
  return block ? ` ${parts.join('')}. ` : parts.join('');
}

const tidy = (text) => text.replace(/\s+/g, ' ').replace(/(\s*\.\s*)+/g, '. ').replace(/\s+([,.])/g, '$1').trim();

function handBySuit(view) {
  if (view.you === null || view.you === undefined) return 'You hold no hand: you are watching.';
  const hand = view.hand || [];
  if (!hand.length) return 'Your hand is empty.';
  const suits = SUIT_ORDER.map((s) => [s, hand.filter((c) => c[1] === s)]).filter(([, cs]) => cs.length);
  return `Your hand, ${hand.length} card${hand.length === 1 ? '' : 's'}: ` + suits.map(([s, cs]) =>
    `${SUIT_NAMES[s]}: ${cs.map((c) => cardName(c).split(' of ')[0]).join(', ')}`).join('; ') + '.';
}

/** What a key reads, or null for a key that reads nothing. */
export function readOut(key, {view, events, host}) {
  if (!view) return null;
  const ctx = makeContext(view, {events, interactive: view.you !== null && view.status === 'active'});
  switch (key) {
    case 'h': return handBySuit(view);
    case 't': return tidy(`The table: ${spoken(host.querySelector('.center'))}`);
    case 'l': {
      const last = ctx.renderer.lastTrick(events);
      if (!last) return 'No trick has been finished yet.';
      return `${describeEvent(last.event, ctx)}: ${last.cards.map((c) => `${ctx.label(c.seat)} ${cardName(c.card)}`).join(', ')}.`;
    }
    case 'w': return tidy(spoken(host.querySelector('.status')) || 'Nobody is to move.');
    case 's': {
      const line = ctx.renderer.scoreLine(view, ctx);
      return line ? `${line}.` : 'No score yet.';
    }
    case 'm': {
      const moves = ctx.interactive && (view.to_move || []).includes(view.you) ? view.legal_moves || [] : [];
      if (!moves.length) return view.you === null ? 'You are watching: no moves.' : 'No move of yours now.';
      const said = (m) => (typeof m.card === 'string' ? `${m.type.replace(/_/g, ' ')} ${cardName(m.card)}`
        : describeMove({seat: view.you, move: m}, ctx).replace(/^[^:]*: /, ''));
      return `Your moves: ${moves.map(said).join('; ')}.`;
    }
    case '?': return `Keys: ${KEYS}.`;
    default: return null;
  }
}
