// The live table: a spectator's view, or a seat's with its token, kept up to date by
// long-polling the game's events; with a seat token, legal moves are clicked.

import {api, ApiError, forgetToken, query, rememberVisitorGame, setToken, token, visitorGame} from './api.js';
import {crumbs, h, redraw, replace, sleep} from './dom.js';
import {describeEvent, makeContext, renderBoard, tick} from './board.js';
import {rendererFor} from './games/index.js';
import {readerTable} from './reader.js';

const WAIT_SECONDS = 25;
const WAITING_SECONDS = 3;

export async function tablePage(main, gameId) {
  crumbs({text: 'Lobby', href: '/'}, {text: `Table ${gameId}`});
  const bar = h('div', {class: 'table-bar'});
  const message = h('p', {class: 'message', role: 'status', 'aria-live': 'polite'});
  const host = h('div', {class: 'board-host'});
  // Screen readers: each new move, then "Your move." when it is the viewer's turn.
  const live = h('div', {class: 'visually-hidden announcer', 'aria-live': 'polite', role: 'log'});
  const reader = readerTable({play: (move) => play(move)}); // screen-reader mode (reader.js)
  replace(main, h('h1', {class: 'visually-hidden'}, 'Game table'), reader.element, bar, message, host, live);
  let announced = null;
  // A tap on a card of your hand that is no legal move: say why nothing happened. On your
  // turn the server says why (the move goes with this view's version, so it is refused
  // and changes nothing: it is no legal move at that version).
  host.addEventListener('click', (e) => {
    const tapped = e.target instanceof Element ? e.target.closest('.seat.you .hand span.card') : null;
    if (!tapped || !view || view.you === null || view.status !== 'active') return;
    if (!(view.to_move || []).includes(view.you)) {
      const movers = (view.to_move || []).map((s) => rendererFor(view.game).seatLabel(s, view.seats.length));
      say(`Not your turn yet: ${movers.join(', ') || 'the others'} to move.`, 'info');
      return;
    }
    explain(tapped.dataset.card);
  });

  let view = null;
  let events = [];
  let last = 0;
  let pending = false;
  let troubled = false; // an error is shown that a later success should clear
  let generation = 0; // bumped when the token changes: an older long-poll stops

  // Responses can arrive out of order (a move's answer after the long-poll's newer view):
  // an older version never replaces a newer one, or a finished table would show as active.
  const accept = (next) => {
    if (!view || next.version >= view.version) view = next;
  };

  const say = (text, kind = 'info') => {
    message.textContent = text || '';
    message.className = `message ${kind}`;
  };

  function draw() {
    if (!view) return;
    const interactive = view.you !== null && view.status === 'active';
    const end = view.status === 'finished' ? playAgain() : null;
    redraw(host, renderBoard(view, {events, interactive, pending, onMove: play, end}));
    announce();
    reader.update(view, events, pending);
    drawBar();
    tick();
  }

  function announce() {
    const ctx = makeContext(view, {events});
    const fresh = announced === null ? [] : events.filter((e) => e.version > announced);
    announced = Math.max(view.version, ...events.map((e) => e.version));
    const lines = fresh.filter((e) => e.kind === 'play' || e.kind === 'pass' || e.kind === 'bid'
      || e.kind === 'put_out' || e.kind === 'take' || e.kind === 'call' || e.kind.endsWith('_end'))
      .slice(-4).map((e) => describeEvent(e, ctx));
    const yours = view.you !== null && view.status === 'active' && (view.to_move || []).includes(view.you);
    if (yours && !pending) lines.push('Your move.');
    const text = lines.join(' ');
    if (text && text !== live.textContent) live.textContent = text;
  }

  function drawBar() {
    const title = rendererFor(view.game).title || view.game;
    const seat = view.you;
    const name = seat === null ? null : view.seats[seat].name;
    const who = seat === null
      ? 'Watching as a spectator.'
      : `You are ${rendererFor(view.game).seatLabel(seat, view.seats.length)}${name && name !== 'You' ? ` (${name})` : ''}.`;
    const form = h('form', {class: 'token-form', onsubmit: (e) => {
      e.preventDefault();
      setToken(input.value);
      input.value = '';
      restart();
    }});
    const input = h('input', {type: 'password', name: 'token', autocomplete: 'off', placeholder: 'seat token',
      'aria-label': 'your seat token', required: true});
    form.append(input, h('button', {type: 'submit'}, 'Sit down'));
    const join = view.status === 'waiting' && token() && seat === null
      ? view.seats.filter((s) => !s.player_id).map((s) => h('button', {type: 'button', class: 'join',
        onclick: () => joinSeat(s.seat)}, `Take ${rendererFor(view.game).seatLabel(s.seat, view.seats.length)}`))
      : null;
    replace(bar,
      h('span', {class: 'game-title'}, title, ' ',
        h('a', {class: 'rules-link', href: `/rules/${view.game}`}, `${title} rules`)),
      h('span', {class: 'who'}, who),
      token() ? leaveButton(seat) : form,
      join,
      view.status === 'finished' ? h('a', {class: 'button', href: `/replay/${view.id}`}, 'Replay') : null);
  }

  // Before the game starts, Stand up frees the seat for someone else; once it has started
  // the seat stays taken (its clock plays it), so the button only stops showing your hand.
  function leaveButton(seat) {
    const standUp = seat !== null && view.status === 'waiting';
    const label = seat === null ? 'Forget token' : standUp ? 'Stand up' : 'Watch as spectator';
    return h('button', {type: 'button', class: 'leave',
      onclick: () => (standUp ? standUpFrom(seat) : watch())}, label);
  }

  function watch() {
    forgetToken();
    restart();
  }

  async function standUpFrom(seat) {
    try {
      await api(`/v1/games/${gameId}/seats/${seat}`, {method: 'DELETE'});
      say('');
      watch();
    } catch (err) {
      if (err instanceof ApiError && err.code === 'seat_open') { watch(); return; } // a resent leave
      say(err instanceof ApiError && err.code === 'game_started'
        ? 'The game has started: your seat stays yours and is played to the end.' : err.message, 'error');
      await loadView();
    }
  }

  async function loadView() {
    try {
      accept(await api(`/v1/games/${gameId}`));
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) {
        forgetToken();
        say('That token was refused; you are watching as a spectator.', 'error');
        accept(await api(`/v1/games/${gameId}`));
      } else {
        throw err;
      }
    }
    draw();
  }

  /** "Play again": a visitor's game deals a new one of the same game; any other goes to the lobby. */
  function playAgain() {
    const mine = visitorGame();
    if (!mine || mine.id !== gameId) {
      return h('a', {class: 'button play-again', href: '/', title: 'back to the lobby, to pick a game'}, 'Play again');
    }
    return h('button', {type: 'button', class: 'play-again', title: `a new deal of the same game against the bots`,
      onclick: async (e) => {
        e.currentTarget.disabled = true;
        try {
          const made = await api('/v1/visitors/games', {method: 'POST', body: {game: mine.game, options: mine.options}, auth: false});
          setToken(made.token);
          rememberVisitorGame(made.game.id, mine.game, mine.options);
          location.assign(`/table/${made.game.id}`);
        } catch (err) {
          say(err.message, 'error');
          e.currentTarget.disabled = false;
        }
      }}, 'Play again');
  }

  /** Why a card of your hand is no legal move now: the server's own reason. */
  async function explain(code) {
    if (pending) return;
    const asked = view.version;
    try {
      await api(`/v1/games/${gameId}/moves`, {method: 'POST', body: {move: {type: 'play', card: code}, version: asked, seat: view.you}});
      await loadView(); // not refused after all: the view shown was out of date
    } catch (err) {
      if (err instanceof ApiError && err.status === 422) say(`That card cannot be played now: ${err.message}.`, 'error');
      else if (err instanceof ApiError && err.status === 409) await loadView();
      else say(err.message, 'error');
    }
  }

  async function play(move) {
    if (pending || !view) return;
    pending = true;
    draw();
    try {
      accept(await api(`/v1/games/${gameId}/moves`, {method: 'POST', body: {move, version: view.version, seat: view.you}}));
      say('');
    } catch (err) {
      if (err instanceof ApiError && err.status === 409) {
        say('The table moved on before your move arrived; here is the latest.', 'info');
        await loadView();
      } else if (err instanceof ApiError && err.status === 422) {
        say(`That move is not allowed now: ${err.message}`, 'error');
        await loadView();
      } else {
        say(err.message, 'error');
      }
    } finally {
      pending = false;
      draw();
    }
  }

  async function joinSeat(seat) {
    try {
      accept(await api(`/v1/games/${gameId}/join`, {method: 'POST', body: {seat}}));
      say('');
      restart();
    } catch (err) {
      say(err.message, 'error');
    }
  }

  /** Follow the game: long-poll its events, redraw the view whenever some arrive. */
  async function follow(mine) {
    while (mine === generation) {
      if (view && (view.status === 'finished' || view.status === 'aborted')) return;
      try {
        const seat = view && view.you !== null ? view.you : null;
        // Taking a seat makes no event: while seats are open, look at the view every few seconds.
        const waiting = view && view.status === 'waiting';
        const wait = waiting ? WAITING_SECONDS : WAIT_SECONDS;
        const got = await api(`/v1/games/${gameId}/events${query({after: last, wait, seat})}`);
        if (mine !== generation) return;
        last = got.last;
        if (got.events.length) events = events.concat(got.events);
        if (got.events.length || waiting) await loadView();
        if (troubled) { troubled = false; say(''); } // back in touch: the old error goes
      } catch (err) {
        if (mine !== generation) return;
        troubled = true;
        say(err.code === 'network' ? 'Lost touch with the server; retrying…'
          : `Connection trouble (${err.message}); retrying…`, 'error');
        await sleep(2000);
      }
    }
  }

  async function restart() {
    const mine = ++generation;
    events = [];
    last = 0;
    try {
      await loadView();
      const seat = view.you;
      const first = await api(`/v1/games/${gameId}/events${query({after: 0, wait: 0, seat})}`);
      events = first.events;
      last = first.last;
      if (events.some((e) => e.version > view.version)) await loadView();
      else draw();
    } catch (err) {
      say(err instanceof ApiError && err.status === 404 ? 'No such game.' : err.message, 'error');
      return;
    }
    follow(mine);
  }

  await restart();
}
