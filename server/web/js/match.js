// A match's page: is NEW better than OLD? Its status in words, the sequential test's LLR
// against its two bounds, the estimate with its 95% interval, and every board, live.
//
// It reads the public API only: GET /v1/matches/{id} (docs/matches.md). While the match
// waits for agreement or runs, the page asks again every few seconds.

import {api} from './api.js';
import {crumbs, h, labelled, replace} from './dom.js';
import {gameTitle} from './tournament.js';

const REFRESH_MS = 3000;

/** A number as text with `digits` decimals ("–" for none: an unbounded value). */
export function num(x, digits = 2) {
  return x === null || x === undefined ? '–' : x.toFixed(digits);
}

/** What the status means, in a bot writer's words. */
function verdict(m) {
  const [e0, e1] = m.bounds;
  switch (m.status) {
    case 'waiting':
      return [`Waiting for agreement: ${m.waiting_for.length} named player(s) have yet to agree `,
        `(${m.waiting_for.join(', ')}). No board is dealt until everyone named has agreed.`];
    case 'running':
      return [`Running: a board is dealt, played at both tables and scored, and the test runs again, `,
        `until the LLR crosses a bound or ${m.max_boards} boards are played.`];
    case 'pass':
      return [`Passed: NEW is better than OLD. The test accepted "NEW's effect is at least ${e1}" `,
        `(the effect: NEW's gain in spreads of a board's difference); a NEW whose effect is ${e0} or less `,
        `passes by luck at most ${pct(m.alpha)} of the time.`];
    case 'fail':
      return [`Failed: NEW is not better than OLD. The test accepted "NEW's effect is ${e0} or less" `,
        `(the effect: NEW's gain in spreads of a board's difference); a NEW whose effect is truly ${e1} `,
        `or more fails by bad luck at most ${pct(m.beta)} of the time.`];
    case 'inconclusive':
      return [`Inconclusive: ${m.max_boards} boards, the cap, were played and the LLR crossed neither bound. `,
        `The gap, if any, is smaller than the test can tell apart in that many boards.`];
    default:
      return [m.status];
  }
}

const pct = (x) => `${Math.round(x * 1000) / 10}%`;

/** The LLR on a line from a little below its fail bound to a little above its pass bound, as
 * an inline SVG; an LLR beyond either end sits at that end (its number is in the table). */
function llrBar(m) {
  const [lower, upper] = m.llr_bounds;
  const llr = m.llr ?? 0;
  const span = upper - lower;
  const lo = lower - span * 0.15, hi = upper + span * 0.15;
  const x = (v) => 8 + 284 * (Math.min(Math.max(v, lo), hi) - lo) / (hi - lo);
  const label = `LLR ${num(m.llr)}: it fails at ${num(lower)} or below and passes at ${num(upper)} or above`;
  const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  svg.setAttribute('viewBox', '0 0 300 56');
  svg.setAttribute('class', 'llr-bar');
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', label);
  const add = (tag, attrs) => {
    const el = document.createElementNS('http://www.w3.org/2000/svg', tag);
    for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
    svg.append(el);
    return el;
  };
  add('rect', {x: 8, y: 16, width: 284, height: 8, class: 'llr-track'});
  add('rect', {x: 8, y: 16, width: x(lower) - 8, height: 8, class: 'llr-fail'});
  add('rect', {x: x(upper), y: 16, width: 292 - x(upper), height: 8, class: 'llr-pass'});
  for (const b of [lower, upper]) add('line', {x1: x(b), x2: x(b), y1: 8, y2: 32, class: 'llr-bound'});
  add('circle', {cx: x(llr), cy: 20, r: 6, class: 'llr-mark'});
  add('text', {x: x(lower), y: 48, 'text-anchor': 'middle', class: 'llr-label'}).textContent = `fail ${num(lower)}`;
  add('text', {x: x(upper), y: 48, 'text-anchor': 'middle', class: 'llr-label'}).textContent = `pass ${num(upper)}`;
  return svg;
}

/** "26.65 – 36.97", or "none yet" while too few boards bound it. */
function range(low, high, digits) {
  return low === null || high === null ? 'none yet' : `${num(low, digits)} – ${num(high, digits)}`;
}

function numbers(m) {
  const e = m.estimate;
  const [lower, upper] = m.llr_bounds;
  const effect = (v) => (v === null || !e.spread ? null : v / e.spread);
  const row = (name, value, what) => h('tr', {}, h('th', {scope: 'row'}, name),
    h('td', {class: 'num', dataset: {value: name}}, value), h('td', {class: 'muted'}, what));
  return labelled(h('table', {class: 'list match-numbers'},
    h('caption', {class: 'visually-hidden'}, 'The test in numbers'),
    h('tbody', {},
      row('Boards', `${m.boards_scored} of ${m.max_boards}`, 'scored boards (a void one, with an aborted table, is not counted) of the cap'),
      row('LLR', num(m.llr), 'the evidence so far: up for NEW better, down for not'),
      row('Bounds', `${num(lower)} / ${num(upper)}`, `at or below the first it fails, at or above the second it passes (α ${m.alpha}, β ${m.beta})`),
      row('Estimate', num(e.mean), `NEW's points minus OLD's, per seat a deal, averaged over the boards`),
      row('95% interval', range(e.low, e.high, 2), 'in the game\'s points: the true gap lies here 19 times in 20'),
      row('Effect', num(e.effect, 3), `the estimate in spreads of a board's difference (spread ${num(e.spread)} points); the test's bounds are ${m.bounds[0]} and ${m.bounds[1]}`),
      row('Effect interval', range(effect(e.low), effect(e.high), 3), 'the 95% interval in the same units'))));
}

function boardsTable(m) {
  if (!m.boards.length) return h('p', {class: 'muted'}, 'No board has been scored yet.');
  return labelled(h('table', {class: 'list match-boards'},
    h('caption', {class: 'visually-hidden'}, 'Boards'),
    h('thead', {}, h('tr', {}, ['Board', 'NEW', 'OLD', 'NEW − OLD', 'Table 1', 'Table 2'].map((x) => h('th', {scope: 'col'}, x)))),
    h('tbody', {}, m.boards.map((b) => h('tr', {dataset: {board: b.board}},
      h('td', {}, b.board + 1),
      h('td', {class: 'num new'}, num(b.new_points)), h('td', {class: 'num old'}, num(b.old_points)),
      h('td', {class: 'num difference'}, b.void ? 'void (a table aborted)' : num(b.difference)),
      b.games.map((g, t) => h('td', {}, h('a', {href: `/replay/${g}`}, `replay ${t + 1}`))))))));
}

function matchBody(m) {
  const id = encodeURIComponent(m.id);
  return [
    h('h1', {}, `Match: is NEW better than OLD?`),
    h('p', {class: 'tournament-facts'}, `${gameTitle(m.game, m.options)} · duplicate boards · `,
      h('strong', {class: 'status'}, m.status), ` · ${m.boards_scored} of ${m.max_boards} boards`,
      m.par_adjusted ? ' · par adjusted' : '', ' · ', h('a', {href: `/rules/${m.game}`}, 'rules')),
    h('p', {class: 'message verdict'}, verdict(m)),
    h('p', {class: 'muted'}, `NEW: ${m.new.join(', ')}. OLD: ${m.old.join(', ')}.`),
    h('h2', {}, 'The test'),
    llrBar(m),
    numbers(m),
    h('p', {class: 'muted'}, 'A board is one deal played at two tables with the cards swapped, so each side ',
      'held each hand once. NEW and OLD: each side\'s mean seat points a deal over the board\'s two ',
      'tables; the difference is NEW\'s minus OLD\'s. ',
      'The guide to matches in the docs (matches.md) shows how the test works.'),
    h('h2', {}, 'Boards'),
    boardsTable(m),
    h('p', {}, h('a', {class: 'button', href: `/v1/matches/${id}/regression`, download: `regression-${m.id}.json`},
      'Download the regression set'), h('span', {class: 'muted'}, ' the boards NEW lost, with their seeds: ',
      h('code', {}, 'parlour-bot play --deals FILE NEW OLD'), ' deals them again.')),
  ];
}

export async function matchPage(main, id) {
  crumbs({text: 'Lobby', href: '/'}, {text: `Match ${id}`});
  const live = h('div', {class: 'match-page', 'aria-live': 'off'});
  let last = '';
  async function draw() {
    const m = await api(`/v1/matches/${encodeURIComponent(id)}`, {auth: false});
    const text = JSON.stringify(m);
    if (text !== last) {
      last = text;
      replace(live, matchBody(m));
      live.dataset.status = m.status;
      document.title = `Match ${m.id} (${m.status}) · Parlour`;
    }
    return m.status === 'waiting' || m.status === 'running';
  }
  replace(main, live);
  if (await draw()) {
    const timer = setInterval(() => draw().then((more) => { if (!more) clearInterval(timer); }).catch(() => {}),
      REFRESH_MS);
  }
}
