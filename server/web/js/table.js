// The live table: a spectator's view, or a seat's with its token, kept up to date by
// long-polling the game's events; with a seat token, legal moves are clicked.

import {api, ApiError, forgetToken, query, rememberVisitorGame, returnUrl, setAsideToken, setToken, takeBackToken, token,
  visitorGame} from './api.js';
import {crumbs, h, redraw, replace, sleep} from './dom.js';
import {describeEvent, describeMove, makeContext, renderBoard, tick} from './board.js';
import {rendererFor} from './games/index.js';
import {minuteBox, minuteOf} from './minute.js';
import {applyPrefs, autoplayDelay, prefs, prefsBox} from './prefs.js';
import {readOut} from './reader.js';
import {readerMode} from './reader_mode.js';

const WAIT_SECONDS = 25;
const WAITING_SECONDS = 3;

/** An error of a move in a player's words (the server's reason where it is the game's). */
export function inWords(err) {
  if (!(err instanceof ApiError)) return `Something went wrong: ${err.message}.`;
  if (err.code === 'network') return 'Lost touch with the server: your move may not have arrived. Try again.';
  switch (err.code) {
    case 'illegal_move': return `That move is not allowed now: ${err.message}.`;
    case 'invalid_request': return 'That is not a move of this game now; here is the latest table.';
    case 'not_your_turn': return 'It is not your turn any more; here is the latest table.';
    case 'stale_version': return 'The table moved on before your move arrived; here is the latest.';
    case 'game_over': return 'The game is over: no more moves.';
    case 'seat_taken': return 'Someone took that seat first: choose another.';
    case 'already_seated': return 'You already have a seat at this table.';
    case 'no_open_seat': return 'Every seat of this table is taken.';
    case 'game_started': return 'The game has started: its seats are taken.';
    default: return err.message;
  }
}

export async function tablePage(main, gameId) {
  // An embedded table's way back is the embedding app's (its #return=), shown by its host.
  const back = returnUrl(gameId);
  const home = back ? {text: `Back to ${new URL(back).host}`, href: back} : {text: 'Lobby', href: '/'};
  crumbs(home, {text: `Table ${gameId}`});
  if (back && window.top !== window) document.querySelector('#crumbs a')?.setAttribute('target', '_top');
  const bar = h('div', {class: 'table-bar'});
  const message = h('p', {class: 'message', role: 'status', 'aria-live': 'polite'});
  const host = h('div', {class: 'board-host'});
  const howTo = h('div', {class: 'how-to'}); // "How to play in one minute", once the game is known
  const settings = h('div', {class: 'settings'});
  const confirmBar = h('div', {class: 'confirm-bar'}); // "Play Q♠" when a card waits for its confirmation
  applyPrefs();
  // Screen readers: each new move, then "Your move." when it is the viewer's turn.
  const live = h('div', {class: 'visually-hidden announcer', 'aria-live': 'polite', role: 'log'});
  // The screen-reader keys' answers (reader.js): said at once, whatever is being said.
  const reader = h('div', {class: 'visually-hidden reader', role: 'status', 'aria-live': 'assertive', 'aria-label': 'read out'});
  document.addEventListener('keydown', (e) => {
    if (e.ctrlKey || e.altKey || e.metaKey || !(e.target instanceof Element)) return;
    if (e.target.closest('input, select, textarea, [contenteditable]')) return;
    const text = readOut(e.key.toLowerCase(), {view, events, host});
    if (text === null) return;
    e.preventDefault();
    readAloud(text);
  });
  function readAloud(text) {
    reader.textContent = text === reader.textContent ? `${text} ` : text; // said again when asked again
  }
  // Screen-reader mode (reader_mode.js): a toggle, and a panel with a field to type moves in.
  const mode = readerMode({play: (move) => play(move), say: readAloud});
  replace(main, h('h1', {class: 'visually-hidden'}, 'Game table'), mode.element, bar, h('div', {class: 'table-tools'}, howTo, settings),
    message, confirmBar, host, live, reader);
  let announced = null;
  let asking = false; // "Watch as spectator" asks before the seat's token is set aside
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
    if (chosen && !(interactive && (view.legal_moves || []).some((m) => same(m, chosen)))) chosen = null;
    redraw(host, renderBoard(view, {events, interactive, pending, onMove: choose, end, chosen}));
    drawConfirm();
    announce();
    mode.update(view, pending);
    drawBar();
    tick();
    autoplay();
  }

  // Confirm before playing (the table's settings): a first click on a card picks it, a
  // second (or "Play …") plays it. Buttons other than cards play at once.
  let chosen = null;
  function choose(move) {
    if (prefs().confirm && typeof move.card === 'string' && !(chosen && same(chosen, move))) {
      chosen = move;
      draw();
      return;
    }
    chosen = null;
    play(move);
  }

  function drawConfirm() {
    if (!chosen) { replace(confirmBar); return; }
    const what = describeMove({seat: view.you, move: chosen}, makeContext(view, {events})).replace(/^[^:]*: /, '');
    replace(confirmBar,
      h('button', {type: 'button', class: 'move confirm-play', onclick: () => choose(chosen)}, `Confirm: ${what}`),
      h('button', {type: 'button', class: 'confirm-cancel', onclick: () => { chosen = null; draw(); }}, 'Choose again'));
  }

  // Autoplay (the table's settings): the only legal move plays itself after a short random
  // pause, the same for every seat; any view that changes the table first cancels it.
  let autoTimer = null;
  let autoFor = null;
  function autoplay() {
    const moves = view.legal_moves || [];
    const due = prefs().autoplay && view.you !== null && view.status === 'active' && !pending
      && (view.to_move || []).includes(view.you) && moves.length === 1;
    if (!due) { clearTimeout(autoTimer); autoTimer = null; autoFor = null; return; }
    if (autoFor === view.version && autoTimer) return;
    clearTimeout(autoTimer);
    autoFor = view.version;
    const version = view.version;
    autoTimer = setTimeout(() => {
      autoTimer = null;
      const now = view.legal_moves || [];
      if (view.version === version && now.length === 1 && !pending) play(now[0]);
    }, autoplayDelay());
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
    const option = rendererFor(view.game).variantOption;
    const variantName = option ? rendererFor(view.game).optionName(option, (view.options || {})[option]) : null;
    const seat = view.you;
    const name = seat === null ? null : view.seats[seat].name;
    const who = seat === null
      ? 'Watching as a spectator.'
      : `You are ${rendererFor(view.game).seatLabel(seat, view.seats.length)}${name && name !== 'Visitor' ? ` (${name})` : ''}.`;
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
        h('a', {class: 'rules-link', href: `/rules/${view.game}`}, `${title} rules`),
        variantName ? h('span', {class: 'variant'}, ` · ${variantName}`) : null),
      h('span', {class: 'who'}, who),
      token() ? leaveButton(seat) : backButton() ?? form,
      join,
      view.status === 'finished' ? h('a', {class: 'button', href: `/replay/${view.id}`}, 'Replay') : null);
  }

  // Before the game starts, Stand up frees the seat for someone else; once it has started
  // the seat stays taken (its clock plays it), so the button only stops showing your hand.
  // Watching a started game asks first, and keeps the seat's token aside (this tab) for
  // "Back to my seat".
  function leaveButton(seat) {
    const standUp = seat !== null && view.status === 'waiting';
    if (seat !== null && !standUp && asking) {
      return h('span', {class: 'confirm', role: 'group', 'aria-label': 'watch as a spectator?'},
        h('span', {}, 'Watch as a spectator? Your seat stays yours (its clock plays it); “Back to my seat” returns.'),
        h('button', {type: 'button', class: 'leave confirm-yes', onclick: () => { asking = false; watch(true); }}, 'Yes, watch'),
        h('button', {type: 'button', class: 'confirm-no', onclick: () => { asking = false; drawBar(); }}, 'Stay seated'));
    }
    const label = seat === null ? 'Forget token' : standUp ? 'Stand up' : 'Watch as spectator';
    return h('button', {type: 'button', class: 'leave', onclick: () => {
      if (standUp) standUpFrom(seat);
      else if (seat === null) watch(false);
      else { asking = true; drawBar(); }
    }}, label);
  }

  function watch(keep) {
    if (keep) setAsideToken(gameId);
    else forgetToken();
    restart();
  }

  function backButton() {
    return token() || !takeBackToken(gameId, false) ? null : h('button', {type: 'button', class: 'back-to-seat',
      onclick: () => { takeBackToken(gameId); restart(); }}, 'Back to my seat');
  }

  async function standUpFrom(seat) {
    try {
      await api(`/v1/games/${gameId}/seats/${seat}`, {method: 'DELETE'});
      say('');
      watch(false);
    } catch (err) {
      if (err instanceof ApiError && err.code === 'seat_open') { watch(false); return; } // a resent leave
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
    const back = returnUrl(gameId);
    if (back) { // an embedded table: the embedding app deals the next game
      return h('a', {class: 'button play-again', href: back, target: window.top !== window ? '_top' : null,
        title: `back to ${new URL(back).host}, to play again there`}, 'Play again');
    }
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

  /**
   * Why a card of your hand is no legal move now. When no legal move is a card of your hand
   * (an auction, a choice among the cards on the table) the page says so itself; else the
   * card goes to the server as the game's own card move, which refuses it with its reason.
   */
  async function explain(code) {
    if (pending) return;
    const cardMoves = (view.legal_moves || []).filter((m) => typeof m.card === 'string');
    const fromHand = cardMoves.filter((m) => (view.hand || []).includes(m.card));
    if (!fromHand.length) {
      say(cardMoves.length ? 'That card is not one to choose now: choose one of the highlighted cards.'
        : 'No card is played now: choose one of your moves beside the table.', 'info');
      return;
    }
    const asked = view.version;
    try {
      await api(`/v1/games/${gameId}/moves`, {method: 'POST', body: {move: {type: fromHand[0].type, card: code}, version: asked, seat: view.you}});
      await loadView(); // not refused after all: the view shown was out of date
    } catch (err) {
      if (err instanceof ApiError && err.status === 422) say(`That card cannot be played now: ${err.message}.`, 'error');
      else if (err instanceof ApiError && err.status === 409) await loadView();
      else say(inWords(err), 'error');
    }
  }

  const same = (a, b) => JSON.stringify(a, Object.keys(a).sort()) === JSON.stringify(b, Object.keys(b).sort());

  /**
   * Make a move. A move sent with a version the table has just left (another seat moved
   * first, as in a simultaneous put-out) is sent again at the new version while it is
   * still legal and still this seat's turn: a fast click is never lost.
   */
  async function play(move) {
    if (pending || !view) return;
    pending = true;
    draw();
    try {
      for (let tries = 0; ; tries++) {
        try {
          accept(await api(`/v1/games/${gameId}/moves`, {method: 'POST', body: {move, version: view.version, seat: view.you}}));
          say('');
          break;
        } catch (err) {
          if (!(err instanceof ApiError && err.status === 409 && err.code === 'stale_version') || tries >= 4) throw err;
          await loadView();
          const still = view.status === 'active' && (view.to_move || []).includes(view.you)
            && (view.legal_moves || []).some((m) => same(m, move));
          if (!still) {
            say('The table moved on before your move arrived, and it is no longer a move you can make; here is the latest.', 'info');
            break;
          }
        }
      }
    } catch (err) {
      say(inWords(err), err instanceof ApiError && err.status === 409 ? 'info' : 'error');
      if (err instanceof ApiError && (err.status === 409 || err.status === 422 || err.status === 400)) await loadView();
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
      say(inWords(err), 'error');
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

  replace(settings, prefsBox(() => draw()));
  await restart();
  if (view) {
    const r = rendererFor(view.game);
    const variant = r.variantOption ? (view.options || {})[r.variantOption] ?? view.state?.[r.variantOption] : null;
    const paragraphs = await minuteOf(view.game, variant);
    if (paragraphs) replace(howTo, minuteBox(view.game, r.title || view.game, paragraphs));
  }
}
