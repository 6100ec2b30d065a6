// A tournament's page (its standings, rounds and tables, live) and a game's rating leaderboard.
//
// Both read the public API only: GET /v1/tournaments/{id} (with its sheets: the cross-table,
// sheets.js) and GET /v1/ratings/{game}.
// While a tournament is open or running, its page asks again every few seconds.

import {api} from './api.js';
import {crumbs, h, labelled, replace, when, words} from './dom.js';
import {rendererFor} from './games/index.js';
import {legend, meaning, provisionalMark, range} from './ratings.js';
import {variantOf} from './lobby.js';
import {crossTable, sheetLinks, sheetsUrl, tiebreakLine} from './sheets.js';

const REFRESH_MS = 4000;

/** "Pinochle (firehouse)": a game's title with its variant, from its id and options. */
export function gameTitle(game, options) {
  const title = rendererFor(game).title || game;
  const variant = variantOf({game, options});
  return variant ? `${title} (${variant})` : title;
}

function standingsTable(t) {
  if (!t.standings.length) return h('p', {class: 'muted'}, 'No standings yet: the first round is still to play.');
  const swiss = t.format === 'swiss';
  const knockout = t.format === 'knockout';
  // The columns in the order the standings apply them (t.tiebreaks), then the counts.
  const heads = ['Rank', 'Entry', 'Points'];
  if (swiss) heads.push('Buchholz');
  heads.push('Head-to-head', 'Score difference', 'Played', 'Byes');
  if (knockout) heads.push('Out in');
  return labelled(h('table', {class: 'list standings'},
    h('caption', {class: 'visually-hidden'}, 'Standings'),
    h('thead', {}, h('tr', {}, heads.map((x) => h('th', {scope: 'col'}, x)))),
    h('tbody', {}, t.standings.map((s) => h('tr', {dataset: {entry: s.entry}},
      h('td', {}, s.rank),
      h('td', {}, s.name, s.withdrawn ? h('span', {class: 'muted'}, ' (withdrawn)') : null,
        s.reference ? h('span', {class: 'muted'}, ' (reference: unrated)') : null),
      h('td', {}, s.points), swiss ? h('td', {}, s.buchholz ?? '') : null,
      h('td', {}, s.head_to_head), h('td', {}, s.score_difference), h('td', {}, s.played), h('td', {}, s.byes),
      knockout ? h('td', {}, s.eliminated_in === null ? '' : `round ${s.eliminated_in + 1}`) : null)))));
}

function roundSection(t, round, names) {
  const entry = (id) => names.get(id) ?? id;
  return h('section', {class: 'round', dataset: {round: round.index}},
    h('h3', {}, `Round ${round.index + 1}`),
    labelled(h('table', {class: 'list'},
      h('thead', {}, h('tr', {}, ['Table', 'Entries', 'State', 'Scores', ''].map((x) => h('th', {scope: 'col'}, x)))),
      h('tbody', {}, round.tables.map((table) => h('tr', {dataset: {table: table.table, game: table.game_id ?? ''}},
        h('td', {}, table.board === null ? `${table.table + 1}` : `${table.table + 1} (board ${table.board + 1})`),
        h('td', {}, table.entries.map(entry).join(' v ')),
        h('td', {}, table.result && table.result.forfeit ? `forfeited by ${entry(table.result.forfeit)}` : table.status),
        h('td', {}, table.result ? table.result.scores.join(' : ') : ''),
        h('td', {class: 'links'}, table.game_id ? [
          h('a', {class: 'button', href: `/table/${table.game_id}`}, table.status === 'playing' ? 'Watch' : 'Table'),
          table.status === 'finished' ? h('a', {class: 'button', href: `/replay/${table.game_id}`}, 'Replay') : null,
        ] : null)))))),
    round.byes.length ? h('p', {class: 'muted'}, `Byes: ${round.byes.map(entry).join(', ')}`) : null);
}

function tournamentBody(t, sheets) {
  const names = new Map(t.entries.map((e) => [e.id, e.name ?? e.players.map((p) => p.name ?? p.id).join(' & ')]));
  const p = t.progress;
  const planned = p.games_planned === null ? '' : ` of ${p.games_planned}`;
  return [
    h('h1', {}, t.name),
    h('p', {class: 'tournament-facts'},
      `${gameTitle(t.game, t.options)} · ${words(t.format)} · `, h('strong', {class: 'status'}, t.status),
      ` · ${t.entries.length} entries · round ${p.rounds}${t.rounds_planned ? ` of ${t.rounds_planned}` : ''}`,
      ` · ${p.games_finished}${planned} games finished`,
      t.clock ? ` · ${t.clock.move_seconds} s a move` : '',
      ' · ', h('a', {href: `/rules/${t.game}`}, 'rules'), ' · ', h('a', {href: `/ratings/${t.game}`}, 'ratings')),
    t.error ? h('p', {class: 'message error'}, t.error) : null,
    h('p', {class: 'muted'}, t.started ? `Started ${when(t.started)}` : `Created ${when(t.created)}; entries still open`,
      t.finished ? `, finished ${when(t.finished)}.` : '.'),
    h('h2', {}, 'Standings'), standingsTable(t),
    h('p', {class: 'muted tiebreaks'}, tiebreakLine(t.tiebreaks)),
    sheetLinks(t.id),
    h('h2', {}, 'Cross-table'), crossTable(sheets),
    h('h2', {}, 'Rounds'),
    t.rounds.length ? t.rounds.slice().reverse().map((r) => roundSection(t, r, names))
      : h('p', {class: 'muted'}, 'No round has been paired yet.'),
    h('h2', {}, 'Entries'),
    h('ul', {class: 'entries'}, t.entries.map((e) => h('li', {}, names.get(e.id),
      e.name ? h('span', {class: 'muted'}, ` (${e.players.map((p) => p.name ?? p.id).join(', ')})`) : null,
      e.reference ? h('span', {class: 'muted'}, ' (reference: unrated)') : null,
      e.withdrawn ? h('span', {class: 'muted'}, ' (withdrawn)') : null,
      e.pending.length ? h('span', {class: 'muted'}, ' (invited, yet to accept)') : null))),
  ];
}

export async function tournamentPage(main, id) {
  crumbs({text: 'Lobby', href: '/'}, {text: 'Tournaments', href: '/#tournaments'}, {text: id});
  const live = h('div', {class: 'tournament-page', 'aria-live': 'off'});
  let last = '';
  async function draw() {
    const [t, sheets] = await Promise.all([
      api(`/v1/tournaments/${encodeURIComponent(id)}`, {auth: false}), api(sheetsUrl(id), {auth: false})]);
    const text = JSON.stringify([t, sheets]);
    if (text !== last) {
      last = text;
      replace(live, tournamentBody(t, sheets));
      live.dataset.status = t.status;
      document.title = `${t.name} · Parlour`;
    }
    return t.status === 'open' || t.status === 'running';
  }
  replace(main, live);
  if (await draw()) {
    const timer = setInterval(() => draw().then((more) => { if (!more) clearInterval(timer); }).catch(() => {}),
      REFRESH_MS);
  }
}

export async function ratingsPage(main, game) {
  const title = rendererFor(game).title || game;
  crumbs({text: 'Lobby', href: '/'}, {text: `${title} ratings`});
  const board = await api(`/v1/ratings/${encodeURIComponent(game)}`, {auth: false});
  document.title = `${title} ratings · Parlour`;
  replace(main, h('div', {class: 'ratings-page', dataset: {game}},
    h('h1', {}, `${title} ratings`),
    h('p', {class: 'muted'}, 'Every rated tournament game counts. Players are ranked by the conservative ',
      'rating, μ − 3σ: the skill the rating is fairly sure of. ', h('a', {href: `/rules/${game}`}, `${title} rules`)),
    meaning(),
    board.leaderboard.length
      ? labelled(h('table', {class: 'list leaderboard-table'},
        h('thead', {}, h('tr', {}, ['Rank', 'Player', 'Rating', 'μ', 'σ', 'Games', '95% range'].map((x) => h('th', {scope: 'col'}, x)))),
        h('tbody', {}, board.leaderboard.map((row) => h('tr', {dataset: {player: row.player_id}},
          h('td', {}, row.rank),
          h('td', {}, h('a', {href: `/ratings/${game}/players/${row.player_id}`}, row.name ?? row.player_id),
            row.provisional ? [' ', provisionalMark()] : null),
          h('td', {}, row.ordinal.toFixed(2)),
          h('td', {}, row.mu.toFixed(2)), h('td', {}, row.sigma.toFixed(2)), h('td', {}, row.games),
          h('td', {class: 'range'}, range(row)))))))
      : h('p', {class: 'muted'}, 'No rated game yet.'),
    board.leaderboard.some((row) => row.provisional) ? legend() : null));
}
