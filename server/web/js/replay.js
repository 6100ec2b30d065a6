// The replay of a finished game: step through it move by move with every hand shown,
// or as one seat saw it (that seat's own view at each step: only what it knew).
//
// Each step is a frame from GET /v1/games/{id}/replay/{version}, which the server only
// answers once the game is over; the log comes from the finished replay's events,
// filtered here by their visible_to for the perspective chosen.
//
// /replay (no id) opens a replay file instead (replay_file.js), stepped through by the
// same stepper (stepThrough) with frames the server rebuilds from the file.

import {api, query} from './api.js';
import {crumbs, h, replace, words} from './dom.js';
import {describeMove, makeContext, renderBoard} from './board.js';
import {rendererFor} from './games/index.js';

const AUTOPLAY_MS = 700;

export async function replayPage(main, gameId) {
  // A tournament's or ladder's game (?tournament= / ?ladder=, as the lobby links it): the
  // crumbs lead back there.
  const from = new URLSearchParams(location.search);
  const back = from.get('tournament') ? {text: 'Tournament', href: `/tournaments/${encodeURIComponent(from.get('tournament'))}`}
    : from.get('ladder') ? {text: 'Ladder', href: `/ladders/${encodeURIComponent(from.get('ladder'))}`} : null;
  crumbs({text: 'Lobby', href: '/'}, back, {text: `Replay ${gameId}`});
  const record = await api(`/v1/games/${gameId}/replay`, {auth: false});
  if (record.status !== 'finished' || !record.revealed) {
    replace(main,
      h('p', {class: 'message'}, `This game is ${record.status}. Its replay with every hand opens once it is finished; until then, here is its public record.`),
      h('p', {}, h('a', {class: 'button', href: `/table/${gameId}`}, 'Watch the table')),
      h('ol', {class: 'log'}, record.events.map((e) => h('li', {}, `${words(e.kind)} ${JSON.stringify(e.data)}`))));
    return;
  }
  await stepThrough(main, record, {
    fetchFrame: (version) => api(`/v1/games/${gameId}/replay/${version}`, {auth: false}),
    links: [h('a', {class: 'button', href: `/table/${gameId}`}, 'Final table')],
  });
}

/**
 * Step through a finished game's replay ``record`` in ``main``: the board at each step
 * with every hand shown, as a spectator or as one seat saw it, the log to that step,
 * each deal's par. ``fetchFrame(version)`` answers the frame at a version (the game's
 * frame endpoint, or a replay file's); ``links`` go in the bar beside the rules.
 * Returns a function that stops it (its keys and its autoplay), for a page that
 * draws another replay in its place.
 */
export async function stepThrough(main, record, {fetchFrame, links = [], heading = 'h1'}) {
  const renderer = rendererFor(record.game);
  const n = record.seats.length;
  const params = new URLSearchParams(location.search);
  let step = clamp(Number(params.get('step') ?? 0));
  let perspective = params.get('as') ?? 'all';
  let timer = null;
  const frames = new Map();
  const keys = new AbortController();

  function clamp(v) {
    return Number.isFinite(v) ? Math.max(0, Math.min(record.version, Math.trunc(v))) : 0;
  }

  const slider = h('input', {id: 'step', type: 'range', min: 0, max: record.version, value: step,
    'aria-label': 'step', oninput: () => go(Number(slider.value))});
  const caption = h('p', {class: 'step-caption', role: 'status', 'aria-live': 'polite'});
  const choose = h('select', {id: 'perspective', 'aria-label': 'whose eyes',
    onchange: () => { perspective = choose.value; show(); }},
  h('option', {value: 'all'}, 'All hands'),
  h('option', {value: 'public'}, 'Spectator'),
  record.seats.map((s) => h('option', {value: String(s.seat)},
    `As ${renderer.seatLabel(s.seat, n)} (${s.name ?? 'open'}) saw it`)));
  choose.value = perspective;
  const button = (name, text, action) => h('button', {type: 'button', dataset: {step: name}, onclick: action}, text);
  const playButton = button('play', '▶ Play', () => toggle());
  const controls = h('div', {class: 'replay-controls'},
    button('first', '« First', () => go(0)),
    button('prev', '◀ Back', () => go(step - 1)),
    playButton,
    button('next', 'Next ▶', () => go(step + 1)),
    button('last', 'Last »', () => go(record.version)),
    slider, choose);
  const host = h('div', {class: 'board-host'});
  const result = resultLine(record);
  const parBox = h('section', {class: 'par', id: 'par', 'aria-label': 'par per deal'});
  // Par sits below the board: a link up top says it is there (Concerto's replays carry it).
  const parLink = Array.isArray(record.par) && record.par.length
    ? h('a', {class: 'par-link', href: '#par'}, 'Par: how near each side came to its best') : null;
  replace(main, h(heading, {class: 'visually-hidden'}, 'Replay'), h('div', {class: 'table-bar'},
    h('span', {class: 'game-title'}, `${renderer.title || record.game} replay`),
    h('a', {class: 'rules-link', href: `/rules/${record.game}`}, 'Rules'),
    ...links, parLink), controls, caption, host, parBox, result);

  document.addEventListener('keydown', (e) => {
    if (e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement) return;
    if (e.key === 'ArrowRight') go(step + 1);
    if (e.key === 'ArrowLeft') go(step - 1);
  }, {signal: keys.signal});

  async function frame(version) {
    if (!frames.has(version)) frames.set(version, fetchFrame(version));
    try {
      return await frames.get(version);
    } catch (err) {
      frames.delete(version);
      throw err;
    }
  }

  function visibleEvents() {
    const seat = /^\d+$/.test(perspective) ? Number(perspective) : null;
    return record.events.filter((e) => {
      if (e.version > step) return false;
      if (perspective === 'all') return true;
      const audience = e.visible_to;
      return audience === null || audience === undefined || (seat !== null && audience.includes(seat));
    });
  }

  async function show() {
    const at = step;
    const got = await frame(at);
    if (at !== step) return; // a later step was asked for meanwhile
    let view;
    let hands = null;
    if (perspective === 'all') {
      view = got.public;
      hands = got.views.map((v) => v.hand ?? null);
    } else if (perspective === 'public') {
      view = got.public;
    } else {
      view = got.views[Number(perspective)];
    }
    replace(host, renderBoard(view, {events: visibleEvents(), hands, highlight: at, bottom: 0}));
    const ctx = makeContext(view);
    caption.textContent = `Step ${at} of ${record.version} · ${describeMove(got.move, ctx)}`;
    drawPar(at);
    slider.value = at;
    history.replaceState(null, '', `${location.pathname}${query({step: at, as: perspective, tournament: params.get('tournament'), ladder: params.get('ladder')})}`);
    if (at < record.version) frame(at + 1).catch(() => {}); // prefetch the next step
  }

  /**
   * Each deal's par beside what the side made. A deal's row appears once its end is
   * reached; as a seat or a spectator saw it, only at the last step, since par is
   * reckoned from every hand (before the end it would tell what that viewer never saw).
   */
  function drawPar(at) {
    const pars = Array.isArray(record.par) ? record.par : [];
    if (!pars.length) { replace(parBox); return; }
    const ends = record.events.filter((e) => e.kind === 'deal_end').map((e) => e.version);
    const open = perspective === 'all' || at >= record.version;
    const rows = open ? pars.filter((_, i) => ends[i] !== undefined && ends[i] <= at) : [];
    replace(parBox, h('h2', {}, 'Par'),
      h('p', {class: 'par-about'}, 'Par is the most a side’s four hands could have scored in a deal had both ',
        'partners seen each other’s cards; “Made” is what the side scored, and the last column how near it came. ',
        h('a', {href: `/rules/${record.game}#par`}, 'How par is worked out')),
      rows.length
        ? parTable(rows)
        : h('p', {class: 'muted'}, open ? 'Par shows here once a deal is over.'
          : 'Par is reckoned from every hand: it shows at the end, when all hands are known.'));
  }

  async function go(to) {
    const next = clamp(to);
    if (next === step && frames.has(step)) return;
    step = next;
    await show();
  }

  function toggle() {
    if (timer) {
      clearInterval(timer);
      timer = null;
      playButton.textContent = '▶ Play';
      return;
    }
    playButton.textContent = '⏸ Pause';
    timer = setInterval(() => {
      if (step >= record.version) toggle();
      else go(step + 1);
    }, AUTOPLAY_MS);
  }

  await show();
  return () => {
    keys.abort();
    if (timer) toggle();
  };
}

const SIDES = {NS: 'North–South', EW: 'East–West'};

/** Each deal's par beside what the side made (Concerto's replays carry it). */
export function parTable(rows) {
  return h('table', {class: 'list par-table'},
    h('thead', {}, h('tr', {}, ['Deal', 'Side', 'Par', 'Made', '% of par'].map((t) => h('th', {scope: 'col'}, t)))),
    h('tbody', {}, rows.flatMap((p) => Object.keys(SIDES).filter((k) => p[k]).map((k) => {
      const par = p[k].max_hands;
      const made = p[k].hand_points;
      return h('tr', {dataset: {deal: p.deal, side: k}}, h('td', {}, p.deal), h('td', {}, SIDES[k]),
        h('td', {class: 'par-value'}, par), h('td', {class: 'made'}, made),
        h('td', {class: 'percent'}, par > 0 ? `${Math.round((100 * made) / par)}%` : '—'));
    }))));
}

/** The final scores and the seed, checkable against the deal commitment. */
export function resultLine(record) {
  if (!record.result) return null;
  const seed = record.revealed ? ` · seed ${record.revealed.seed} (its SHA-256 is the deal commitment ${String(record.deal_commitment).slice(0, 12)}…)` : '';
  return h('p', {class: 'muted seed'}, `Final scores ${record.result.scores.join(' · ')}${seed}`);
}
