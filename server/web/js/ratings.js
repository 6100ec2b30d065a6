// How sure a rating is, said the same way on every page that shows one (docs/ladder.md,
// "How sure a rating is"): what the number shown means, the 95% range, the provisional
// mark and its legend; the small plot of a rating over time (its 95% range as a band);
// and one player's rating history in a game's pool.
//
// Public API only: GET /v1/ratings/{game}/{player_id}/history.

import {api} from './api.js';
import {crumbs, h, labelled, replace, when} from './dom.js';
import {rendererFor} from './games/index.js';

const SVG = 'http://www.w3.org/2000/svg';

/** Provisional while sigma is not yet below 25/6: half openskill's starting 25/3. */
export const SIGMA_SURE = 25 / 6;

/** What the numbers shown mean. */
export function meaning() {
  return h('p', {class: 'muted rating-meaning'},
    'The rating shown is μ − 3σ, a conservative estimate: under the model the true skill is above it ',
    'with about 99.9% probability. μ is the best guess and σ its uncertainty; the 95% range, μ ± 1.96σ, ',
    'holds the skill with 95% probability.');
}

/** The provisional mark beside a name. */
export function provisionalMark() {
  return h('span', {class: 'tag provisional'}, 'provisional');
}

/** The legend of the mark; ``extra`` adds a page's own condition (a ladder's contests). */
export function legend(extra = '') {
  return h('p', {class: 'muted rating-legend'}, provisionalMark(),
    ` σ is still ${SIGMA_SURE.toFixed(2)} or more (a new player starts at 8.33)${extra}: `,
    'too few games to trust the rating yet.');
}

/** A rating's 95% range as shown, ``low–high``. */
export function range(r) {
  return `${r.low.toFixed(1)}–${r.high.toFixed(1)}`;
}

function svg(tag, attrs, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  for (const c of children) el.append(c);
  return el;
}

/**
 * A small line plot (no library): the points left to right, the range written on the axis;
 * with ``band`` ([low, high] per point) and ``mid`` (μ per point), the 95% range as a shaded
 * band and μ as a dashed line behind the points' line.
 */
export function plot({label, points, band = null, mid = null}) {
  const width = 320, height = 120, pad = 24;
  if (points.length < 2) return h('p', {class: 'muted plot-empty'}, 'Not enough rated contests to plot yet.');
  const all = band ? [...points, ...band.flat()] : points;
  const lo = Math.min(...all), hi = Math.max(...all);
  const span = hi - lo || 1;
  const x = (i) => pad + (i * (width - 2 * pad)) / (points.length - 1);
  const y = (v) => height - pad - ((v - lo) * (height - 2 * pad)) / span;
  const line = (vs) => vs.map((v, i) => `${i ? 'L' : 'M'}${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(' ');
  const fmt = (v) => (Number.isInteger(v) ? String(v) : v.toFixed(1));
  const last = points[points.length - 1];
  const parts = [];
  let said = `${label}: from ${fmt(points[0])} to ${fmt(last)} over ${points.length} points, between ${fmt(lo)} and ${fmt(hi)}`;
  if (band) {
    const top = band.map(([, high], i) => `${i ? 'L' : 'M'}${x(i).toFixed(1)},${y(high).toFixed(1)}`).join(' ');
    const bottom = band.map(([low], i) => [i, low]).reverse()
      .map(([i, low]) => `L${x(i).toFixed(1)},${y(low).toFixed(1)}`).join(' ');
    parts.push(svg('path', {class: 'band', d: `${top} ${bottom} Z`}));
    const [l0, h0] = band[0], [l1, h1] = band[band.length - 1];
    said += `; the 95% range narrowed from ${fmt(l0)}–${fmt(h0)} to ${fmt(l1)}–${fmt(h1)}`;
  }
  if (mid) parts.push(svg('path', {class: 'mid', d: line(mid)}));
  return svg('svg', {class: 'plot', viewBox: `0 0 ${width} ${height}`, width, height, role: 'img', 'aria-label': said},
    svg('line', {class: 'axis', x1: pad, y1: height - pad, x2: width - pad, y2: height - pad}),
    svg('line', {class: 'axis', x1: pad, y1: pad, x2: pad, y2: height - pad}),
    svg('text', {x: 2, y: pad + 4}, fmt(hi)), svg('text', {x: 2, y: height - pad + 4}, fmt(lo)),
    ...parts,
    svg('path', {class: 'line', d: line(points)}),
    svg('circle', {class: 'dot', cx: x(points.length - 1).toFixed(1), cy: y(last).toFixed(1), r: 3}));
}

/** The plot's points from rating rows oldest first: ordinal, with μ and the 95% band. */
export function ratingTrend(rows, label) {
  const banded = rows.every((r) => typeof r.low === 'number' && typeof r.high === 'number');
  return {
    label, points: rows.map((r) => r.ordinal),
    band: banded ? rows.map((r) => [r.low, r.high]) : null,
    mid: banded ? rows.map((r) => r.mu) : null,
  };
}

/** A rating in words: the ordinal, its range, μ and σ, the games, the mark. */
export function ratingLine(r, games) {
  return h('p', {class: 'rating'}, h('strong', {}, r.ordinal.toFixed(2)),
    ` (95% range ${range(r)}; μ ${r.mu.toFixed(2)}, σ ${r.sigma.toFixed(2)}; ${games}) `,
    r.provisional ? provisionalMark() : null);
}

export async function ratingHistoryPage(main, game, playerId) {
  const got = await api(`/v1/ratings/${encodeURIComponent(game)}/${encodeURIComponent(playerId)}/history`, {auth: false});
  const name = got.name ?? playerId;
  crumbs({text: 'Lobby', href: '/'}, {text: `${rendererFor(game).title || game} ratings`, href: `/ratings/${game}`}, {text: name});
  document.title = `${name}'s rating · Parlour`;
  const shown = ratingTrend(got.history.slice().reverse(), 'Rating (μ − 3σ) after each rated game, with μ and its 95% range');
  replace(main, h('div', {class: 'rating-history-page', dataset: {game, player: playerId}},
    h('h1', {}, name, got.house ? h('span', {class: 'muted'}, ' (house bot)') : null),
    ratingLine(got.rating, `${got.rating.games} rated games`),
    meaning(), got.rating.provisional ? legend() : null,
    h('figure', {class: 'trend'}, plot(shown), h('figcaption', {class: 'muted'}, shown.label)),
    h('h2', {}, 'Rated games'),
    got.history.length ? labelled(h('table', {class: 'list rating-history'},
      h('thead', {}, h('tr', {}, ['When', 'Rating', '95% range', 'σ', 'Games'].map((x) => h('th', {scope: 'col'}, x)))),
      h('tbody', {}, got.history.slice(0, 20).map((row) => h('tr', {dataset: {event: row.event}},
        h('td', {}, when(row.at)),
        h('td', {}, row.ordinal.toFixed(2), row.provisional ? [' ', provisionalMark()] : null),
        h('td', {}, range(row)), h('td', {}, row.sigma.toFixed(2)),
        h('td', {class: 'links'}, row.game_ids.length
          ? row.game_ids.map((id) => h('a', {class: 'button', href: `/replay/${id}`}, 'Replay'))
          : '—'))))))
      : h('p', {class: 'muted'}, 'No rated game kept.')));
}
