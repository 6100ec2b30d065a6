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
