// /replay: open a replay file and step through it as a finished game's replay.
//
// The file is what `parlour-bot play --out` writes: one replay (JSON, as
// GET /v1/games/{id}/replay answers), or with --rotate one replay a line (JSON Lines,
// as GET /v1/archive and `parlour-bot archive` write them), then a list to pick a game
// from. The file is read in the browser; to draw the board, the game picked is sent to
// POST /v1/replays/frames, which rebuilds its frames with the engine (nothing is
// stored), and the same stepper as /replay/<id> (replay.js) steps through them.

import {api} from './api.js';
import {crumbs, h, replace} from './dom.js';
import {stepThrough} from './replay.js';
import {rendererFor} from './games/index.js';

const CHUNK = 20; // frames asked for at a time (the server answers at most 50)

/** The replays a file holds: one JSON replay, or JSON Lines of them. */
export function replaysIn(text) {
  const trimmed = text.trim();
  if (!trimmed) throw new Error('it is empty');
  let records;
  try {
    records = [JSON.parse(trimmed)];
  } catch {
    records = trimmed.split('\n').filter((line) => line.trim()).map((line, i) => {
      try {
        return JSON.parse(line);
      } catch {
        throw new Error(`line ${i + 1} is not JSON`);
      }
    });
  }
  records.forEach((r, i) => {
    if (!r || typeof r.game !== 'string' || !Array.isArray(r.seats) || !Array.isArray(r.events)) {
      throw new Error(records.length > 1 ? `game ${i + 1} has no game, seats and events` : 'it has no game, seats and events');
    }
  });
  return records;
}

/** A frame fetcher for a replay held here: the server rebuilds CHUNK frames at a time. */
function fileFrames(record) {
  const chunks = new Map();
  return async (version) => {
    const first = version - (version % CHUNK);
    if (!chunks.has(first)) {
      chunks.set(first, api('/v1/replays/frames', {method: 'POST', auth: false, body: {replay: record, first, count: CHUNK}}));
    }
    try {
      const got = await chunks.get(first);
      return got.frames[version - first];
    } catch (err) {
      chunks.delete(first);
      throw err;
    }
  };
}

function label(record, i) {
  const title = rendererFor(record.game).title || record.game;
  const names = record.seats.map((s) => s.name ?? 'open').join(', ');
  const scores = record.result ? ` · ${record.result.scores.join('–')}` : '';
  return `${i + 1}. ${title} ${record.id}: ${names}${scores}`;
}

/** The page that opens a replay file: a file input, or a file dropped on the page. */
export async function replayFilePage(main) {
  crumbs({text: 'Lobby', href: '/'}, {text: 'Replay file'});
  const status = h('div', {class: 'replay-file-status', 'aria-live': 'polite'});
  const picker = h('div', {class: 'replay-pick'});
  const shown = h('div', {class: 'replay-file'});
  let stop = null;
  const input = h('input', {id: 'replay-file', type: 'file', accept: '.json,.jsonl,application/json,application/x-ndjson',
    onchange: () => input.files[0] && open(input.files[0])});

  async function show(record) {
    if (stop) stop();
    stop = null;
    history.replaceState(null, '', location.pathname); // a new game starts at its first step
    const n = record.seats.length;
    const renderer = rendererFor(record.game);
    if (record.status !== 'finished' || !record.revealed) {
      replace(shown, h('p', {class: 'message error', role: 'alert'},
        `${record.id} is ${record.status}: only a finished game’s replay holds every hand to step through.`));
      return;
    }
    const host = h('div', {class: 'replay-stepper'});
    replace(shown,
      h('ul', {class: 'replay-seats', 'aria-label': 'seats'}, record.seats.map((s) => h('li', {dataset: {seat: s.seat}},
        `${renderer.seatLabel(s.seat, n)}: ${s.name ?? 'open seat'}`))),
      host);
    try {
      stop = await stepThrough(host, record, {fetchFrame: fileFrames(record), heading: 'h2'});
    } catch (err) {
      replace(shown, h('p', {class: 'message error', role: 'alert'}, `This replay cannot be shown: ${err.message}`));
    }
  }

  async function open(file) {
    let records;
    try {
      records = replaysIn(await file.text());
    } catch (err) {
      replace(picker);
      replace(shown);
      replace(status, h('p', {class: 'message error', role: 'alert'}, `${file.name} is not a replay: ${err.message}`));
      return;
    }
    replace(status, h('p', {}, records.length > 1
      ? `${file.name} holds ${records.length} games: pick one.` : `${file.name}: one game.`));
    if (records.length > 1) {
      const choose = h('select', {id: 'replay-game', onchange: () => show(records[Number(choose.value)])},
        records.map((r, i) => h('option', {value: String(i)}, label(r, i))));
      replace(picker, h('label', {for: 'replay-game'}, 'Game '), choose);
    } else {
      replace(picker);
    }
    await show(records[0]);
  }

  main.addEventListener('dragover', (e) => e.preventDefault());
  main.addEventListener('drop', (e) => {
    e.preventDefault();
    const file = e.dataTransfer?.files?.[0];
    if (file) open(file);
  });
  replace(main, h('h1', {}, 'Open a replay file'),
    h('p', {}, 'A replay written by ', h('code', {}, 'parlour-bot play --out replay.json'),
      ' (one game), or by ', h('code', {}, '--rotate'), ' or the archive (JSON Lines, one game a line): choose it, or drop it on this page. ',
      'It is read in your browser; the game you step through is sent to this server only to rebuild its steps (nothing is kept).'),
    h('label', {for: 'replay-file'}, 'Replay file '), input, status, picker, shown);
}
