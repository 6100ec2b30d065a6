// The replay of a finished game: step through it move by move with every hand shown,
// or as one seat saw it (that seat's own view at each step: only what it knew).
//
// Each step is a frame from GET /v1/games/{id}/replay/{version}, which the server only
// answers once the game is over; the log comes from the finished replay's events,
// filtered here by their visible_to for the perspective chosen.
//
// /replay (no id) opens a replay file instead: the JSON `parlour-bot play --out` writes,
// the same as GET /v1/games/{id}/replay. It is read in the browser (nothing is sent):
// its seats, result, par and every event, described as the table's log describes them.

import {api, query} from './api.js';
import {crumbs, h, replace, words} from './dom.js';
import {describeEvent, describeMove, makeContext, renderBoard} from './board.js';
import {card} from './cards.js';
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
  const renderer = rendererFor(record.game);
  const n = record.seats.length;
  if (record.status !== 'finished' || !record.revealed) {
    replace(main,
      h('p', {class: 'message'}, `This game is ${record.status}. Its replay with every hand opens once it is finished; until then, here is its public record.`),
      h('p', {}, h('a', {class: 'button', href: `/table/${gameId}`}, 'Watch the table')),
      h('ol', {class: 'log'}, record.events.map((e) => h('li', {}, `${words(e.kind)} ${JSON.stringify(e.data)}`))));
    return;
  }

  const params = new URLSearchParams(location.search);
  let step = clamp(Number(params.get('step') ?? 0));
  let perspective = params.get('as') ?? 'all';
  let timer = null;
  const frames = new Map();

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
  replace(main, h('h1', {class: 'visually-hidden'}, 'Replay'), h('div', {class: 'table-bar'},
    h('span', {class: 'game-title'}, `${renderer.title || record.game} replay`),
    h('a', {class: 'rules-link', href: `/rules/${record.game}`}, 'Rules'),
    h('a', {class: 'button', href: `/table/${gameId}`}, 'Final table'), parLink), controls, caption, host, parBox, result);

  document.addEventListener('keydown', (e) => {
    if (e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement) return;
    if (e.key === 'ArrowRight') go(step + 1);
    if (e.key === 'ArrowLeft') go(step - 1);
  });

  async function frame(version) {
    if (!frames.has(version)) frames.set(version, api(`/v1/games/${gameId}/replay/${version}`, {auth: false}));
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
    history.replaceState(null, '', `${location.pathname}${query({step: at, as: perspective, tournament: from.get('tournament'), ladder: from.get('ladder')})}`);
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
        'partners seen each other’s cards; “Made” is what the side scored, and the last column how near it came.'),
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
}

const SIDES = {NS: 'North–South', EW: 'East–West'};

/** Each deal's par beside what the side made (Concerto's replays carry it). */
function parTable(rows) {
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
function resultLine(record) {
  if (!record.result) return null;
  const seed = record.revealed ? ` · seed ${record.revealed.seed} (its SHA-256 is the deal commitment ${String(record.deal_commitment).slice(0, 12)}…)` : '';
  return h('p', {class: 'muted seed'}, `Final scores ${record.result.scores.join(' · ')}${seed}`);
}

/**
 * The replays in a file's text: one JSON replay, or JSON Lines (one replay a line, as
 * `parlour-bot play --games N --out x.jsonl` and `parlour-bot archive` write).
 */
export function replaysIn(text) {
  let found;
  try {
    found = [JSON.parse(text)];
  } catch {
    found = text.split('\n').filter((line) => line.trim()).map((line, i) => {
      try { return JSON.parse(line); } catch { throw new Error(`line ${i + 1} is not JSON`); }
    });
  }
  if (!found.length) throw new Error('it is empty');
  found.forEach((record, i) => {
    if (!record || typeof record.game !== 'string' || !Array.isArray(record.seats) || !Array.isArray(record.events)) {
      throw new Error(found.length > 1 ? `line ${i + 1} has no game, seats and events` : 'it has no game, seats and events');
    }
  });
  return found;
}

/** The page that opens a replay file: a file input, or a file dropped on the page. */
export async function replayFilePage(main) {
  crumbs({text: 'Lobby', href: '/'}, {text: 'Replay file'});
  const shown = h('div', {class: 'replay-file', 'aria-live': 'polite'});
  const input = h('input', {id: 'replay-file', type: 'file', accept: '.json,.jsonl,application/json',
    onchange: () => input.files[0] && open(input.files[0])});
  async function open(file) {
    let records;
    try {
      records = replaysIn(await file.text());
    } catch (err) {
      replace(shown, h('p', {class: 'message error', role: 'alert'}, `${file.name} is not a replay: ${err.message}`));
      return;
    }
    const one = h('div', {class: 'one-replay'});
    const pick = records.length > 1 ? h('select', {id: 'replay-pick', onchange: () => replace(one, recordView(records[Number(pick.value)]))},
      records.map((r, i) => h('option', {value: i}, `Game ${i + 1} of ${records.length}: ${r.id ?? ''} ${r.result ? `(${(r.result.scores || []).join(' · ')})` : ''}`))) : null;
    replace(one, recordView(records[0]));
    replace(shown, pick ? h('p', {}, h('label', {for: 'replay-pick'}, `${file.name} holds ${records.length} replays: `), pick) : null, one);
  }
  main.addEventListener('dragover', (e) => e.preventDefault());
  main.addEventListener('drop', (e) => {
    e.preventDefault();
    const file = e.dataTransfer?.files?.[0];
    if (file) open(file);
  });
  replace(main, h('h1', {}, 'Open a replay file'),
    h('p', {}, 'A replay written by ', h('code', {}, 'parlour-bot play --out replay.json'),
      ' (or saved from a finished game’s replay), or a JSON Lines file of them (',
      h('code', {}, '--games 3 --out plays.jsonl'), ', ', h('code', {}, 'parlour-bot archive'),
      '): choose it, or drop it on this page. It is read in your browser; nothing is sent.'),
    h('label', {for: 'replay-file'}, 'Replay file '), input, shown);
}

/**
 * Each seat's cards and the cards in the middle after the first `upto` events, as the
 * events tell them: a `hand` event deals a hand, a `play` or `put_out` takes its card
 * from its seat to the middle, a `draw` or `take` adds a card, and a finished trick or
 * hand (`trick`, `hand_complete`, `reveal`) clears the middle.
 */
export function boardAt(record, upto) {
  const hands = record.seats.map(() => []);
  let middle = [];
  for (const e of record.events.slice(0, upto)) {
    const d = e.data || {};
    const seat = typeof d.seat === 'number' ? d.seat : null;
    if (e.kind === 'hand' && seat !== null && Array.isArray(d.cards)) hands[seat] = [...d.cards];
    else if ((e.kind === 'play' || e.kind === 'put_out') && seat !== null && typeof d.card === 'string') {
      hands[seat] = hands[seat].filter((c) => c !== d.card);
      middle.push({seat, card: d.card});
    } else if ((e.kind === 'draw' || e.kind === 'take') && seat !== null && typeof d.card === 'string') {
      hands[seat] = [...hands[seat], d.card];
    } else if (e.kind === 'trick' || e.kind === 'hand_complete' || e.kind === 'reveal' || e.kind === 'deal') {
      middle = [];
    }
  }
  return {hands, middle};
}

/** A board and a stepper over a file's events (no server: the board is what the events tell). */
function fileStepper(record, ctx) {
  const total = record.events.length;
  const host = h('div', {class: 'file-board'});
  const caption = h('p', {class: 'step-caption', role: 'status', 'aria-live': 'polite'});
  const slider = h('input', {id: 'file-step', type: 'range', min: 0, max: total, value: 0, 'aria-label': 'event',
    oninput: () => go(Number(slider.value))});
  let at = 0;
  function go(to) {
    at = Math.max(0, Math.min(total, to));
    slider.value = at;
    const {hands, middle} = boardAt(record, at);
    const last = at ? record.events[at - 1] : null;
    caption.textContent = `Event ${at} of ${total}${last ? `: ${describeEvent(last, ctx)}` : ': before the deal'}`;
    replace(host,
      h('div', {class: 'file-seats'}, record.seats.map((s) => h('div', {class: 'file-seat', dataset: {seat: s.seat}},
        h('strong', {}, `${ctx.label(s.seat)} `), h('span', {class: 'muted'}, s.name ?? 'open seat'),
        h('div', {class: 'hand open', role: 'group', 'aria-label': `${ctx.label(s.seat)}'s hand`},
          hands[s.seat].length ? hands[s.seat].map((c) => card(c, {small: true})) : h('span', {class: 'muted'}, 'no cards'))))),
      h('div', {class: 'trick file-middle', role: 'group', 'aria-label': 'the middle of the table'},
        middle.length ? middle.map((c) => card(c.card, {small: true, by: ctx.short(c.seat)})) : h('span', {class: 'muted'}, 'no card in the middle')));
  }
  const button = (name, text, action) => h('button', {type: 'button', dataset: {step: name}, onclick: action}, text);
  go(0);
  return h('section', {class: 'file-stepper', 'aria-label': 'step through the events'},
    h('div', {class: 'replay-controls'},
      button('first', '« First', () => go(0)), button('prev', '◀ Back', () => go(at - 1)),
      button('next', 'Next ▶', () => go(at + 1)), button('last', 'Last »', () => go(total)), slider),
    caption, host);
}

/** A replay read from a file: its seats, result, par and every event in order. */
function recordView(record) {
  const renderer = rendererFor(record.game);
  const n = record.seats.length;
  const ctx = makeContext({...record, you: null, state: {}, hand: null, legal_moves: []});
  const pars = Array.isArray(record.par) ? record.par : [];
  return [
    h('h2', {}, `${renderer.title || record.game} · ${record.id} · ${record.status}`),
    h('ul', {class: 'replay-seats'}, record.seats.map((s) => h('li', {dataset: {seat: s.seat}},
      `${renderer.seatLabel(s.seat, n)}: ${s.name ?? 'open seat'}`))),
    resultLine(record),
    pars.length ? h('section', {class: 'par', 'aria-label': 'par per deal'}, h('h2', {}, 'Par'), parTable(pars)) : null,
    h('h2', {}, 'Step by step'),
    fileStepper(record, ctx),
    h('h2', {}, 'Events'),
    h('ol', {class: 'log', 'aria-label': 'every event of the game'}, record.events.map((e) =>
      h('li', {dataset: {kind: e.kind, version: e.version}}, describeEvent(e, ctx)))),
  ];
}
