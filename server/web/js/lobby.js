// The lobby: a way in, live and finished games, tournaments, ladders, rating leaderboards.

import {api, rememberVisitorGame, setToken, visitorGame} from './api.js';
import {crumbs, h, labelled, replace, when, words} from './dom.js';
import {OFFERS, offersFor, rendererFor} from './games/index.js';

const REFRESH_MS = 10000;

function seatList(game) {
  const r = rendererFor(game.game);
  const mine = visitorGame()?.id === game.id; // this tab's own game against the bots: seat 0 is "you"
  return game.seats.map((s) => h('span', {class: 'seat-name'},
    `${r.seatLabel(s.seat, game.seats.length)}: `, s.name ?? h('em', {}, 'open'),
    mine && s.seat === 0 ? h('span', {class: 'tag you-tag'}, 'you') : null));
}

/** "firehouse", "Penguin book edition": a game's variant in words, or null for a plain game. */
export function variantOf(game) {
  const option = rendererFor(game.game).variantOption; // what the lobby shows after the title
  const value = option && game.options ? game.options[option] : null;
  if (value === null || value === undefined) return null;
  const offer = OFFERS.find((o) => o.game === game.game);
  const choice = offer?.choices.find((c) => c.option === option)?.values.find(([v]) => v === value);
  const text = choice ? choice[1].replace(/ \(\d\)$/, '') : words(value);
  return option === 'rules' ? `${text} edition` : text.toLowerCase();
}

/** A finished game's replay; a tournament's or ladder's game says whose, for the way back. */
function replayHref(game) {
  const t = game.tournament;
  const from = t && t.id ? `?tournament=${encodeURIComponent(t.id)}` : t && t.ladder ? `?ladder=${encodeURIComponent(t.ladder)}` : '';
  return `/replay/${game.id}${from}`;
}

function gameRow(game) {
  const r = rendererFor(game.game);
  const label = (s) => r.seatLabel(s, game.seats.length);
  let state;
  if (game.status === 'waiting') state = `waiting (${game.seats.filter((s) => !s.player_id).length} open)`;
  else if (game.result && game.result.termination === 'forfeit') state = `forfeited by ${label(game.result.forfeit)}`;
  else if (game.result) {
    const winners = game.result.winners.map(label);
    state = winners.length ? `won by ${winners.join(' & ')}` : 'a draw';
  } else state = `${game.to_move.map(label).join(', ')} to move`;
  const over = game.status === 'finished' || game.status === 'aborted';
  return h('tr', {dataset: {game: game.id}},
    h('td', {}, r.title || game.game, variantOf(game) ? h('span', {class: 'variant'}, ` (${variantOf(game)})`) : null,
      game.tournament ? h('div', {class: 'muted'}, game.tournament.id
        ? h('a', {href: `/tournaments/${game.tournament.id}`}, `tournament round ${(game.tournament.round ?? 0) + 1}`)
        : game.tournament.ladder ? h('a', {href: `/ladders/${game.tournament.ladder}`}, 'ladder game')
          : 'ladder game') : null),
    h('td', {}, h('div', {class: 'seat-names'}, seatList(game))),
    h('td', {}, state, h('div', {class: 'muted'}, when(game.created || game.ended))),
    h('td', {}, (game.scores || []).join(' · ')),
    h('td', {class: 'links'},
      h('a', {class: 'button', href: `/table/${game.id}`}, over ? 'Table' : 'Watch'),
      game.status === 'finished' ? h('a', {class: 'button', href: replayHref(game)}, 'Replay') : null));
}

function gamesTable(list, empty) {
  if (!list.length) return h('p', {class: 'muted'}, empty);
  return h('table', {class: 'list'},
    h('thead', {}, h('tr', {}, ['Game', 'Players', 'State', 'Scores', ''].map((t) => h('th', {}, t)))),
    h('tbody', {}, list.map(gameRow)));
}

function tournamentsTable(list) {
  return labelled(h('table', {class: 'list tournaments'},
    h('thead', {}, h('tr', {}, ['Tournament', 'Game', 'Format', 'State', 'Entries', 'Leading'].map((t) => h('th', {scope: 'col'}, t)))),
    h('tbody', {}, list.map((t) => h('tr', {dataset: {tournament: t.id}},
      h('td', {}, h('a', {href: `/tournaments/${t.id}`}, t.name)),
      h('td', {}, rendererFor(t.game).title || t.game),
      h('td', {}, words(t.format)),
      h('td', {}, t.status, t.rounds ? h('div', {class: 'muted'}, `round ${t.rounds}`) : null),
      h('td', {}, t.entries),
      h('td', {}, t.leaders.map((l) => l.names.map((n) => n ?? '?').join(' & ')).join(', ')))))));
}

function laddersTable(list) {
  return labelled(h('table', {class: 'list ladders'},
    h('thead', {}, h('tr', {}, ['Ladder', 'Game', 'Entries', 'Matches', 'Clock'].map((t) => h('th', {scope: 'col'}, t)))),
    h('tbody', {}, list.map((l) => h('tr', {dataset: {ladder: l.id}},
      h('td', {}, h('a', {href: `/ladders/${l.id}`}, l.name)),
      h('td', {}, rendererFor(l.game).title || l.game, variantOf(l) ? ` (${variantOf(l)})` : ''),
      h('td', {}, l.entries_count), h('td', {}, l.matches),
      h('td', {}, l.clock && l.clock.move_seconds ? `${l.clock.move_seconds} s a move` : ''))))));
}

function leaderboard(board, title) {
  return h('div', {class: 'leaderboard', dataset: {game: board.game}},
    h('h3', {}, h('a', {href: `/ratings/${board.game}`}, title)),
    board.leaderboard.length
      ? h('table', {class: 'list'},
        h('thead', {}, h('tr', {}, ['#', 'Player', 'Rating', 'Games'].map((t) => h('th', {}, t)))),
        h('tbody', {}, board.leaderboard.slice(0, 10).map((row) => h('tr', {}, h('td', {}, row.rank),
          h('td', {}, row.name ?? row.player_id), h('td', {title: `μ ${row.mu.toFixed(2)}, σ ${row.sigma.toFixed(2)}`},
            row.ordinal.toFixed(1)), h('td', {}, row.games)))))
      : h('p', {class: 'muted'}, 'No rated games yet.'));
}

/** Create a game against the server's bots, keep the guest token, and open the table. */
async function playAgainstBots(game, options, say) {
  say('Dealing…', 'info');
  try {
    const made = await api('/v1/visitors/games', {method: 'POST', body: {game, options}, auth: false});
    setToken(made.token);
    rememberVisitorGame(made.game.id, game, options);
    location.assign(`/table/${made.game.id}`);
  } catch (err) {
    say(err.message, 'error');
  }
}

function offerCard(offer, enabled, bots) {
  const have = bots ? bots[offer.game] ?? 0 : null; // bot seats the pool can fill (null: unknown)
  const idle = have === 0; // no bot of the pool plays this game: say so instead of a dead button
  const title = rendererFor(offer.game).title || offer.title;
  const selects = offer.choices.map((c) => {
    const id = `offer-${offer.game}-${c.option}`;
    // A choice that needs a word (Concerto's editions): what the value chosen changes.
    const help = c.help ? h('span', {class: 'choice-help muted', id: `${id}-help`}, c.help[c.values[0][0]]) : null;
    const select = h('select', {id, name: c.option, dataset: {option: c.option}, 'aria-describedby': help ? `${id}-help` : null,
      onchange: () => { if (help) help.textContent = c.help[select.value] ?? ''; }},
    c.values.map(([value, text, seats]) => h('option', {value: String(value),
      disabled: have > 0 && have < (seats || offer.seats) - 1},
    text)));
    return h('div', {class: 'choice'}, h('label', {for: id}, `${c.label} `, select), help);
  });
  const note = h('p', {class: 'message', role: 'status'});
  const say = (text, kind) => { note.textContent = text; note.className = `message ${kind}`; };
  const form = h('form', {class: 'offer', dataset: {game: offer.game}, onsubmit: (e) => {
    e.preventDefault();
    const options = {...offer.fixed};
    for (const [i, c] of offer.choices.entries()) {
      const raw = selects[i].querySelector('select').value;
      options[c.option] = typeof c.values[0][0] === 'number' ? Number(raw) : raw;
    }
    playAgainstBots(offer.game, options, say);
  }},
  h('h3', {}, title),
  h('p', {}, offer.blurb, ' ', h('a', {href: `/rules/${offer.game}`, class: 'rules-link'}, `${title} rules`)),
  selects,
  enabled && !idle ? h('button', {type: 'submit', class: 'play-bots'}, 'Play against bots') : null,
  enabled && idle ? h('p', {class: 'muted'}, 'No bot is running here for this game yet.') : null,
  note);
  return form;
}

/** "A, B and C". */
const inWords = (items) => (items.length < 2 ? items.join('')
  : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`);

function wayIn(settings, offers) {
  const enabled = settings && settings.enabled;
  return h('section', {id: 'way-in', 'aria-labelledby': 'way-in-title'},
    h('h2', {id: 'way-in-title'}, 'Play'),
    h('p', {class: 'intro'}, 'Parlour is a card-game server where people and bots play ',
      `${inWords(offers.map((o) => rendererFor(o.game).title || o.title))} at the same tables.`),
    enabled ? h('p', {}, 'Pick a game and play against the server\'s bots at once: no account needed. ',
      'Your seat\'s token stays in this tab only.')
      : h('p', {class: 'muted'}, 'Playing against bots without an account is turned off on this server.'),
    h('div', {class: 'offers'}, offers.map((o) => offerCard(o, enabled, settings && settings.bots))),
    h('p', {class: 'muted'}, 'A bot or a registered player plays with a player token: ',
      h('code', {}, 'POST /v1/players'), ' answers one, once. Open a table with ',
      h('code', {}, '#token=…'), ' in its address to sit down. ',
      h('a', {href: '/tutorials/python-bot'}, 'Write a bot in Python'), ' · ',
      h('a', {href: '/v1/rules'}, 'the JSON API')));
}

export async function lobbyPage(main) {
  crumbs({text: 'Lobby'});
  const live = h('section', {id: 'live'}, h('h2', {}, 'Live games'));
  const finished = h('section', {id: 'finished'}, h('h2', {}, 'Finished games'));
  const tournaments = h('section', {id: 'tournaments'}, h('h2', {}, 'Tournaments'));
  const ladders = h('section', {id: 'ladders'}, h('h2', {}, 'Ladders'));
  const ratings = h('section', {id: 'ratings'}, h('h2', {}, 'Leaderboards'));
  const input = h('input', {name: 'game', placeholder: 'game id', 'aria-label': 'game id', required: true});
  const open = h('form', {class: 'open-game', onsubmit: (e) => {
    e.preventDefault();
    location.assign(`/table/${encodeURIComponent(input.value.trim())}`);
  }}, input, h('button', {type: 'submit'}, 'Open table'));
  const [settings, rules] = await Promise.all([
    api('/v1/visitors', {auth: false}).catch(() => null),
    api('/v1/rules', {auth: false}).catch(() => null),
  ]);
  const offers = rules ? offersFor(rules.games) : OFFERS;
  replace(main, h('div', {class: 'lobby'}, h('h1', {class: 'visually-hidden'}, 'Parlour lobby'),
    wayIn(settings, offers), open, live, finished, tournaments, ladders, ratings));

  async function refreshGames() {
    const [now, done] = await Promise.all([
      api('/v1/games?status=live', {auth: false}),
      api('/v1/games?status=finished&limit=20', {auth: false}),
    ]);
    replace(live, h('h2', {}, 'Live games'), gamesTable(now.games, 'No game is being played.'));
    replace(finished, h('h2', {}, 'Finished games'), gamesTable(done.games, 'No game has finished yet.'));
  }

  async function loadTournaments() {
    const list = await api('/v1/tournaments', {auth: false});
    replace(tournaments, h('h2', {}, 'Tournaments'), list.tournaments.length
      ? tournamentsTable(list.tournaments) : h('p', {class: 'muted'}, 'No tournament yet.'));
  }

  async function loadLadders() {
    const list = await api('/v1/ladders', {auth: false});
    replace(ladders, h('h2', {}, 'Ladders'), list.ladders.length ? laddersTable(list.ladders)
      : h('p', {class: 'muted'}, 'No ladder yet.'),
    h('p', {class: 'muted'}, 'A ladder never ends: bots join it and the server keeps matching them. ',
      h('a', {href: '/tutorials/python-bot'}, 'Write a bot'), ' and put it on one.'));
  }

  async function loadRatings() {
    if (!rules) throw new Error('The list of games could not be read.');
    const boards = await Promise.all(rules.games.map((g) => api(`/v1/ratings/${g.id}`, {auth: false})));
    replace(ratings, h('h2', {}, 'Leaderboards'),
      h('div', {class: 'boards'}, boards.map((b, i) => leaderboard(b, rules.games[i].title))));
  }

  const report = (where) => (err) => where.append(h('p', {class: 'message error'}, err.message));
  await Promise.all([
    refreshGames().catch(report(live)),
    loadTournaments().catch(report(tournaments)),
    loadLadders().catch(report(ladders)),
    loadRatings().catch(report(ratings)),
  ]);
  setInterval(() => refreshGames().catch(() => {}), REFRESH_MS);
}
