// The pages' entry point: take a token from the URL fragment, then draw what the path names.

import {adoptTokenFromFragment} from './api.js';
import {h, replace} from './dom.js';
import {lobbyPage} from './lobby.js';
import {replayPage} from './replay.js';
import {replayFilePage} from './replay_file.js';
import {tablePage} from './table.js';
import {ratingsPage, tournamentPage} from './tournament.js';
import {ladderPage, ladderPlayerPage} from './ladder.js';
import {projectorPage} from './sheets.js';
import {ratingHistoryPage} from './ratings.js';
import {matchPage} from './match.js';

const ROUTES = [
  [/^\/table\/([\w-]+)\/?$/, tablePage],
  [/^\/replay\/([\w-]+)\/?$/, replayPage],
  [/^\/replay\/?$/, replayFilePage],
  [/^\/tournaments\/([\w-]+)\/?$/, tournamentPage],
  [/^\/tournaments\/([\w-]+)\/projector\/?$/, projectorPage],
  [/^\/ratings\/([\w-]+)\/?$/, ratingsPage],
  [/^\/ratings\/([\w-]+)\/players\/([\w-]+)\/?$/, ratingHistoryPage],
  [/^\/ladders\/([\w-]+)\/?$/, ladderPage],
  [/^\/matches\/([\w-]+)\/?$/, matchPage],
  [/^\/ladders\/([\w-]+)\/players\/([\w-]+)\/?$/, ladderPlayerPage],
  [/^\/?$/, lobbyPage],
];

async function main() {
  adoptTokenFromFragment();
  const root = document.getElementById('main');
  for (const [pattern, page] of ROUTES) {
    const found = location.pathname.match(pattern);
    if (found) {
      try {
        await page(root, ...found.slice(1).map(decodeURIComponent));
      } catch (err) {
        replace(root, h('p', {class: 'message error'}, `Could not load this page: ${err.message}`));
      }
      document.body.dataset.ready = 'true';
      return;
    }
  }
  replace(root, h('p', {class: 'message error'}, 'No such page.'));
  document.body.dataset.ready = 'true';
}

// A new #token=... on the same page (no reload by itself): take it and start afresh.
window.addEventListener('hashchange', () => {
  if (new URLSearchParams(location.hash.slice(1)).has('token')) {
    adoptTokenFromFragment();
    location.reload();
  }
});

main();
