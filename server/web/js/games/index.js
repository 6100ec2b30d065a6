// One small renderer per game, and the generic fallback for any other.
//
// A renderer draws a view (GET /v1/games/{id}: already filtered for the viewer) and
// nothing else: it knows how the game's `state` is laid out, never its rules. Which
// moves are legal always comes from view.legal_moves.

import {generic} from './generic.js';
import {concerto} from './concerto.js';
import {seconds} from './seconds.js';
import {cowpoke} from './cowpoke.js';
import {pinochle} from './pinochle.js';

const RENDERERS = {concerto, seconds, cowpoke, pinochle};

/** The renderer for a game id (the generic one when the game has none). */
export function rendererFor(game) {
  return RENDERERS[game] || generic;
}

/** What the lobby offers to play against the bots, per game that has an offer, in order. */
export const OFFERS = Object.entries(RENDERERS).filter(([, r]) => r.offer).map(([game, r]) => ({game, ...r.offer}));

/**
 * The offers for every registered game (GET /v1/rules' `games`): a renderer's own where it
 * has one, and for any other game a plain one (its defaults, its first table size), so a new
 * game is offered, and drawn by the generic renderer, with nothing written here.
 */
export function offersFor(games) {
  const known = new Set(OFFERS.map((o) => o.game));
  const plain = games.filter((g) => !known.has(g.id)).map((g) => ({
    game: g.id, title: g.title, blurb: `${g.title}, for ${g.seats.join(' or ')} players.`,
    fixed: {}, seats: g.seats[0], choices: [],
  }));
  return [...OFFERS.filter((o) => games.some((g) => g.id === o.game)), ...plain];
}
