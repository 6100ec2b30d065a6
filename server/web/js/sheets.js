// A tournament's sheets: the tie-breaks in the order applied, the cross-table, the CSV
// downloads, and the projector page (large type, live, no controls) for a class or club.
//
// Public API only: GET /v1/tournaments/{id}/sheets (and its sheets.csv for downloads).

import {api} from './api.js';
import {h, replace} from './dom.js';

const REFRESH_MS = 4000;
const TIEBREAK_WORDS = {
  points: 'points', buchholz: 'Buchholz', head_to_head: 'head-to-head',
  score_difference: 'score difference', seed: 'seed', round_reached: 'round reached',
};

export function sheetsUrl(id) {
  return `/v1/tournaments/${encodeURIComponent(id)}/sheets`;
}

/** "Ranked by points, then head-to-head, then …": the order the standings apply. */
export function tiebreakLine(tiebreaks) {
  const [first, ...rest] = tiebreaks.map((k) => TIEBREAK_WORDS[k] ?? k);
  return `Ranked by ${first}${rest.map((k) => `, then ${k}`).join('')}.`;
}

/** The cross-table: a row per entry (standings order), a column per opponent, then its
 * bye points and its total (the standings' points, byes included). */
export function crossTable(sheets) {
  if (!sheets.crosstable.length) return h('p', {class: 'muted'}, 'No entries yet.');
  const names = new Map(sheets.standings.map((s) => [s.entry, s.name]));
  const order = sheets.standings.map((s) => s.entry);
  return h('div', {class: 'crosstable-wrap', tabindex: '0', role: 'region', 'aria-label': 'Cross-table'},
    h('table', {class: 'crosstable'},
      h('caption', {class: 'visually-hidden'}, 'Cross-table: each row\'s points against each column'),
      h('thead', {}, h('tr', {},
        h('th', {scope: 'col'}, 'Entry'),
        order.map((e, i) => h('th', {scope: 'col', title: names.get(e)}, `${i + 1}`)),
        h('th', {scope: 'col', title: 'points from byes'}, 'Byes'),
        h('th', {scope: 'col', title: 'the standings\' points'}, 'Total'))),
      h('tbody', {}, sheets.crosstable.map((row, i) => {
        const cells = new Map(row.cells.map((c) => [c.opponent, c]));
        return h('tr', {dataset: {entry: row.entry}},
          h('th', {scope: 'row'}, `${i + 1}. ${names.get(row.entry)}`),
          order.map((e) => {
            if (e === row.entry) return h('td', {class: 'self', 'aria-label': 'itself'}, '×');
            const c = cells.get(e);
            return h('td', {dataset: {opponent: e}},
              c.games ? c.results.map((r) => r.mark).join(' ') : '');
          }),
          h('td', {class: 'byes'}, `${row.byes}`),
          h('td', {class: 'total'}, `${row.total}`));
      }))));
}

/** Links to the three CSV sheets and the projector page. */
export function sheetLinks(id) {
  const csv = (part) => `${sheetsUrl(id)}.csv?part=${part}`;
  return h('p', {class: 'sheet-links'},
    'Download: ', h('a', {href: csv('standings'), download: ''}, 'standings (CSV)'), ' · ',
    h('a', {href: csv('crosstable'), download: ''}, 'cross-table (CSV)'), ' · ',
    h('a', {href: csv('games'), download: ''}, 'games (CSV)'), ' · ',
    h('a', {href: sheetsUrl(id)}, 'everything (JSON)'), ' · ',
    h('a', {href: `/tournaments/${encodeURIComponent(id)}/projector`}, 'projector view'));
}

function projectorBody(s) {
  const p = s.progress;
  const planned = p.games_planned === null ? '' : ` of ${p.games_planned}`;
  return [
    h('h1', {}, s.name),
    h('p', {class: 'projector-facts'}, h('strong', {class: 'status'}, s.status),
      ` · round ${p.rounds} · ${p.games_finished}${planned} games finished`),
    h('table', {class: 'projector-standings'},
      h('caption', {class: 'visually-hidden'}, 'Standings'),
      h('thead', {}, h('tr', {}, ['#', 'Entry', 'Points', 'Played'].map((x) => h('th', {scope: 'col'}, x)))),
      h('tbody', {}, s.standings.map((row) => h('tr', {dataset: {entry: row.entry}},
        h('td', {}, row.rank),
        h('td', {}, row.name, row.withdrawn ? ' (withdrawn)' : '', row.reference ? ' (reference)' : ''),
        h('td', {}, row.points), h('td', {}, row.played))))),
    h('p', {class: 'projector-tiebreaks'}, tiebreakLine(s.tiebreaks)),
    h('h2', {}, 'Cross-table'), crossTable(s),
  ];
}

/** The projector page: the standings and cross-table in large type, redrawn live. */
export async function projectorPage(main, id) {
  document.body.classList.add('projector');
  const live = h('div', {class: 'projector-page', 'aria-live': 'off'});
  let last = '';
  async function draw() {
    const s = await api(sheetsUrl(id), {auth: false});
    const text = JSON.stringify(s);
    if (text !== last) {
      last = text;
      replace(live, projectorBody(s));
      live.dataset.status = s.status;
      document.title = `${s.name} · standings`;
    }
    return s.status === 'open' || s.status === 'running';
  }
  replace(main, live);
  if (await draw()) {
    const timer = setInterval(() => draw().then((more) => { if (!more) clearInterval(timer); }).catch(() => {}),
      REFRESH_MS);
  }
}
