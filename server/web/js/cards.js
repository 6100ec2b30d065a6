// Cards on the page. A card the viewer may see is drawn face up with data-card="QS";
// a card it may not see is only ever a back: the page never knows which card it is.

import {h} from './dom.js';

const SUITS = {S: '♠', H: '♥', D: '♦', C: '♣'};
const SUIT_NAMES = {S: 'spades', H: 'hearts', D: 'diamonds', C: 'clubs'};
const RANK_NAMES = {A: 'ace', K: 'king', Q: 'queen', J: 'jack', T: 'ten'};
const CARD = /^[AKQJT98765432][SHDC]$/;

/** Is this a card string ("QS")? */
export const isCard = (value) => typeof value === 'string' && CARD.test(value);

/** The suit's symbol: "S" -> "♠". */
export const suitSymbol = (suit) => SUITS[suit] ?? suit;

/** "TS" -> "10♠". */
export function cardText(code) {
  return `${code[0] === 'T' ? '10' : code[0]}${suitSymbol(code[1])}`;
}

/** "TS" -> "ten of spades" (for screen readers). */
export function cardName(code) {
  return `${RANK_NAMES[code[0]] ?? code[0]} of ${SUIT_NAMES[code[1]]}`;
}

/**
 * A face-up card. Options: small, by (a short seat tag shown under it),
 * onClick (makes it a button: a legal move), extra (more class names).
 */
export function card(code, {small = false, by = null, onClick = null, extra = ''} = {}) {
  const red = code[1] === 'H' || code[1] === 'D';
  const classes = ['card', red ? 'red' : 'black', small ? 'small' : '', onClick ? 'legal' : '', extra];
  const attrs = {
    class: classes.filter(Boolean).join(' '),
    dataset: {card: code},
    title: cardName(code),
    'aria-label': cardName(code) + (by ? `, played by ${by}` : ''),
  };
  const face = [
    h('span', {class: 'rank', 'aria-hidden': 'true'}, code[0] === 'T' ? '10' : code[0]),
    h('span', {class: 'suit', 'aria-hidden': 'true'}, suitSymbol(code[1])),
    by ? h('span', {class: 'by', 'aria-hidden': 'true'}, by) : null,
  ];
  if (onClick) {  // a button's name starts with what it shows ("A♠, ace of spades")
    const name = `${cardText(code)}, ${attrs['aria-label']}`;
    return h('button', {...attrs, 'aria-label': name, type: 'button', onclick: onClick}, face);
  }
  return h('span', {...attrs, role: 'img'}, face); // an image with a name, for screen readers
}

/** A face-down card (nothing about it is known). */
export function back({small = false} = {}) {
  return h('span', {class: `card back${small ? ' small' : ''}`, 'aria-hidden': 'true'});
}

/** `count` face-down cards as a compact fan with the number. */
export function backs(count, {small = true} = {}) {
  const shown = Math.min(count, 8);
  return h('span', {class: 'fan', role: 'img', title: `${count} cards`, 'aria-label': `${count} hidden cards`},
    Array.from({length: shown}, () => back({small})),
    h('span', {class: 'count', 'aria-hidden': 'true'}, `×${count}`));
}

/** A row of face-up cards. */
export function cardRow(codes, options = {}) {
  return h('span', {class: 'cards'}, codes.map((c) => card(c, options)));
}
