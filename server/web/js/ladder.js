// A ladder's leaderboard, and one entry's page: its recent games, its form as a small
// SVG plot, and its health (response times, timeouts, refused moves).
//
// Public API only: GET /v1/ladders/{id}, GET /v1/ladders/{id}/leaderboard and
// GET /v1/ladders/{id}/entries/{player_id}. Both pages ask again every few seconds.

import {api} from './api.js';
import {crumbs, h, labelled, replace, when} from './dom.js';
import {legend, meaning, plot, provisionalMark, range, ratingLine, ratingTrend} from './ratings.js';
import {gameTitle} from './tournament.js';

const REFRESH_MS = 5000;

/** Draw now, then again every few seconds while the page is open (a failed redraw waits). */
async function keepDrawing(draw) {
  await draw();
  setInterval(() => draw().catch(() => {}), REFRESH_MS);
}

function facts(ladder) {
  return h('p', {class: 'ladder-facts'},
    `${gameTitle(ladder.game, ladder.options)} · ${ladder.entries_count} entries · ${ladder.matches} matches`,
    ladder.clock && ladder.clock.move_seconds ? ` · ${ladder.clock.move_seconds} s a move` : '',
    // boards only when two teams are free at once; everyone else plays ordinary games
    ladder.duplicate ? ' · duplicate boards when two teams are free, else ordinary games' : '',
    ' · ', h('a', {href: `/rules/${ladder.game}`}, 'rules'));
}

function leaderboardTable(ladderId, rows) {
  if (!rows.length) return h('p', {class: 'muted'}, 'No contest has been rated yet.');
  return labelled(h('table', {class: 'list ladder-board'},
    h('caption', {class: 'visually-hidden'}, 'Leaderboard'),
    h('thead', {}, h('tr', {}, ['Rank', 'Player', 'Rating', 'μ', 'σ', 'Games', 'Last played', '95% range']
      .map((x) => h('th', {scope: 'col'}, x)))),
    h('tbody', {}, rows.map((row) => h('tr', {dataset: {player: row.player_id}},
      h('td', {}, row.rank),
      h('td', {}, h('a', {href: `/ladders/${ladderId}/players/${row.player_id}`}, row.label ?? row.name ?? row.player_id),
        row.house ? h('span', {class: 'muted'}, ' (house bot)') : null,
        row.provisional ? [' ', provisionalMark()] : null,
        row.on_ladder ? null : h('span', {class: 'muted'}, ' (left)')),
      h('td', {}, row.ordinal.toFixed(2)), h('td', {}, row.mu.toFixed(2)), h('td', {}, row.sigma.toFixed(2)),
      h('td', {}, row.games), h('td', {}, row.last_played ? when(row.last_played) : '—'),
      h('td', {class: 'range'}, range(row)))))));
}

export async function ladderPage(main, id) {
  crumbs({text: 'Lobby', href: '/'}, {text: 'Ladders', href: '/#ladders'}, {text: id});
  const page = h('div', {class: 'ladder-page'});
  replace(main, page);
  await keepDrawing(async () => {
    const [ladder, board] = await Promise.all([
      api(`/v1/ladders/${encodeURIComponent(id)}`, {auth: false}),
      api(`/v1/ladders/${encodeURIComponent(id)}/leaderboard`, {auth: false}),
    ]);
    document.title = `${ladder.name} · Parlour`;
    crumbs({text: 'Lobby', href: '/'}, {text: 'Ladders', href: '/#ladders'}, {text: ladder.name});
    replace(page, h('h1', {}, ladder.name), facts(ladder),
      h('p', {class: 'muted'}, 'Ranked by the conservative rating, μ − 3σ. A bot joins with ',
        h('code', {}, `--ladder ${ladder.id}`), '. House bots, the server\'s own, are the anchors: ',
        'they play here at a strength that does not change, so a new bot is matched at once.'),
      meaning(),
      leaderboardTable(ladder.id, board.leaderboard),
      board.leaderboard.some((row) => row.provisional) ? legend(contestsClause(ladder)) : null);
    page.dataset.matches = ladder.matches;
  });
}

/** The legend's ladder clause: a row is also provisional until the ladder's contests. */
function contestsClause(ladder) {
  return ladder.provisional_games ? `, or it has played fewer than ${ladder.provisional_games} contests here` : '';
}

/**
 * The points to plot, oldest first: the rating after each contest when the API gives it
 * (`rating.ordinal` on every history row, with μ and its 95% range as a band where given),
 * else the running form, wins minus losses.
 */
export function trend(history) {
  const over = history.filter((row) => row.outcome !== null).slice().reverse();
  if (over.length && over.every((row) => row.rating && typeof row.rating.ordinal === 'number')) {
    return ratingTrend(over.map((row) => row.rating), 'Rating (μ − 3σ) after each contest, with μ and its 95% range');
  }
  let form = 0;
  const points = over.map((row) => (form += {won: 1, drawn: 0, lost: -1}[row.outcome]));
  return {label: 'Form: contests won minus lost, one point per contest', points: [0, ...points]};
}

function figure(name, value, note) {
  return h('li', {dataset: {figure: name}}, h('span', {class: 'figure'}, value), note);
}

function health(entry) {
  const hl = entry.health;
  const ms = (v) => (v === null || v === undefined ? '—' : `${Math.round(v)} ms`);
  return h('ul', {class: 'health', 'aria-label': 'health'},
    figure('response_p50', ms(hl.response_p50), 'response, median'),
    figure('response_p99', ms(hl.response_p99), `response, 99th percentile (${hl.response_samples ?? 0} moves)`),
    figure('timeouts', hl.timeouts, `timeouts, in ${hl.games_with_timeouts} of ${hl.games} games`),
    figure('timeout_streak', hl.timeout_streak, 'games in a row with a timeout'),
    figure('refused_moves', hl.refused_moves ?? 0, 'moves the rules refused'));
}

function gamesList(history, names) {
  if (!history.length) return h('p', {class: 'muted'}, 'No game yet.');
  const who = (ids) => ids.map((p) => names.get(p) ?? p).join(' & ');
  return labelled(h('table', {class: 'list ladder-history'},
    h('thead', {}, h('tr', {}, ['Match', 'When', 'Partners', 'Opponents', 'Outcome', 'Games']
      .map((x) => h('th', {scope: 'col'}, x)))),
    h('tbody', {}, history.slice(0, 20).map((row) => h('tr', {dataset: {match: row.match}},
      h('td', {}, row.match), h('td', {}, when(row.created)), h('td', {}, who(row.partners) || '—'),
      h('td', {}, who(row.opponents)), h('td', {}, row.outcome ?? 'playing'),
      h('td', {class: 'links'}, row.games.filter((g) => g.game_id).map((g, i) => g.over
        ? h('a', {class: 'button', href: `/replay/${g.game_id}`}, row.games.length > 1 ? `Replay ${i + 1}` : 'Replay')
        : h('a', {class: 'button', href: `/table/${g.game_id}`}, row.games.length > 1 ? `Watch ${i + 1}` : 'Watch'))))))));
}

export async function ladderPlayerPage(main, id, playerId) {
  const ladderUrl = `/v1/ladders/${encodeURIComponent(id)}`;
  crumbs({text: 'Lobby', href: '/'}, {text: 'Ladder', href: `/ladders/${id}`}, {text: playerId});
  const page = h('div', {class: 'ladder-player-page'});
  replace(main, page);
  await keepDrawing(async () => {
    const [ladder, entry] = await Promise.all([
      api(ladderUrl, {auth: false}),
      api(`${ladderUrl}/entries/${encodeURIComponent(playerId)}`, {auth: false}),
    ]);
    const names = new Map(ladder.entries.map((e) => [e.player_id, e.name ?? e.player_id]));
    const name = entry.name ?? names.get(playerId) ?? playerId;
    crumbs({text: 'Lobby', href: '/'}, {text: ladder.name, href: `/ladders/${id}`}, {text: name});
    document.title = `${name} on ${ladder.name} · Parlour`;
    const r = entry.rating;
    const shown = trend(entry.history);
    replace(page,
      h('h1', {}, name),
      h('p', {class: 'ladder-facts'}, `On `, h('a', {href: `/ladders/${id}`}, ladder.name), ` · `,
        h('strong', {class: 'status'}, entry.status),
        ` · won ${entry.results.won}, drawn ${entry.results.drawn}, lost ${entry.results.lost}`,
        entry.last_played ? ` · last played ${when(entry.last_played)}` : ''),
      entry.paused_reason ? h('p', {class: 'message error'}, `Paused: ${entry.paused_reason}`) : null,
      h('h2', {}, 'Rating'),
      r ? ratingLine(r, `${r.games} contests`) : h('p', {class: 'muted'}, 'Not rated yet.'),
      r ? meaning() : null,
      r && r.provisional ? legend(contestsClause(ladder)) : null,
      h('figure', {class: 'trend'}, plot(shown), h('figcaption', {class: 'muted'}, shown.label)),
      h('h2', {}, 'Health'), health(entry),
      h('h2', {}, 'Recent games'), gamesList(entry.history, names));
    page.dataset.status = entry.status;
  });
}
