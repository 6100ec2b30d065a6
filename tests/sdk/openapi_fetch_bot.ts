// A bot on openapi-fetch and openapi-typescript's types for openapi.yaml alone, as
// docs/clients.md's recipe makes them: no parlour-client, no cast. The test build
// (tests/typescript.py) compiles it (strict) beside the types; tests/sdk/test_typescript.py
// runs it:
//
//   node openapi_fetch_bot.js SERVER TOKEN '[[game_id, label], ...]'
//
// The player plays its seats of the games named to their end, all at once, as the other
// seats' player (the example bot) plays its own: each GET /v1/me/turns?wait= names every
// game where it is to move, with the seat's view, and one move per game (a random legal
// one) goes with the turn's version; where none is to move, it looks which games are
// over. Before its first move in each game, one at a version to come is refused (409); a
// move that lost the race to the other player's (409 too) waits for its next turn. Then each game's
// view, replay, last frame and events page are read, and one line of JSON per game says
// what was read where: the test finds each value at its path in the server's own answers
// (where a typed property was `undefined`, the line says "(missing)").
import createClient from "openapi-fetch";

import type { components, paths } from "./openapi.js";

type Schemas = components["schemas"];
type View = Schemas["View"];
type Move = Schemas["Move"];

interface Table {
  gameId: string;
  label: string;
}
/** What was read, by document (`view`, `replay`, `frame`, `events`) and path in it. */
type Read = { [path: string]: unknown };

const MISSING = "(missing)"; // what JSON cannot say: an `undefined` read

/** `read` with each `undefined` (a value, or a list's item) said as {@link MISSING}. */
function said(read: Read): Read {
  const one = (value: unknown): unknown => (value === undefined ? MISSING : value);
  return Object.fromEntries(
    Object.entries(read).map(([path, value]) => [path, Array.isArray(value) ? value.map(one) : one(value)]),
  );
}

function isRecord(value: unknown): value is { [key: string]: unknown } {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function tables(text: string): Table[] {
  const raw: unknown = JSON.parse(text);
  if (!Array.isArray(raw)) throw new Error("the games are a list");
  const entries: unknown[] = raw;
  return entries.map((entry) => {
    if (!Array.isArray(entry)) throw new Error(`not [game_id, label]: ${JSON.stringify(entry)}`);
    const [gameId, label]: unknown[] = entry;
    if (typeof gameId !== "string" || typeof label !== "string") {
      throw new Error(`not [game_id, label]: ${JSON.stringify(entry)}`);
    }
    return { gameId, label };
  });
}

/** The answer's data, or an error saying which call was refused and why. */
async function must<T>(
  what: string,
  call: Promise<{ data?: T; error?: unknown; response: Response }>,
): Promise<T> {
  const { data, error, response } = await call;
  if (data === undefined) throw new Error(`${what}: ${response.status} ${JSON.stringify(error)}`);
  return data;
}

/** Each game's own fields, read through its view's type (narrowed on `game`): a game the
 * spec adds to `View` fails to compile here until it is named. */
function gameFacts(view: View): Read {
  switch (view.game) {
    case "concerto":
      return { "state.deal_number": view.state?.deal_number, "state.cards_left": view.state?.cards_left };
    case "seconds":
      return { "state.winner_rule": view.state?.winner_rule, "state.deals": view.state?.deals };
    case "cowpoke":
      return {
        "state.players": view.state?.players,
        "state.dummy": view.state?.dummy,
        "state.suit_order": view.state?.suit_order,
      };
    case "pinochle":
      return {
        "state.variant": view.state?.variant,
        "state.head_rule": view.state?.head_rule,
        "state.count": view.state?.count,
        "state.sides": view.state?.sides,
      };
    default:
      return unnamed(view);
  }
}

function unnamed(view: never): never {
  throw new Error(`a view of no game named here: ${JSON.stringify(view)}`);
}

function viewRead(view: View): Read {
  return {
    game: view.game,
    status: view.status,
    version: view.version,
    "seats.*.player_id": view.seats.map((s) => s.player_id),
    to_move: view.to_move,
    "result.scores": view.result?.scores,
    "result.winners": view.result?.winners,
    ...gameFacts(view),
  };
}

async function main(): Promise<void> {
  const [server, token, games] = process.argv.slice(2);
  if (server === undefined || token === undefined || games === undefined) {
    throw new Error("usage: SERVER TOKEN GAMES_JSON");
  }
  const client = createClient<paths>({ baseUrl: server, headers: { Authorization: `Bearer ${token}` } });
  const me = await must("me", client.GET("/v1/players/me"));
  const labels = new Map(tables(games).map(({ gameId, label }) => [gameId, label]));

  /** A version the game has not reached is refused: 409 stale_version. */
  const refusedStale = async (turn: Schemas["Turn"], label: string) => {
    const first: Move | undefined = turn.view.legal_moves[0];
    if (first === undefined) throw new Error(`${label}: a turn with no legal move`);
    const stale = await client.POST("/v1/games/{game_id}/moves", {
      params: { path: { game_id: turn.game_id } },
      body: { move: first, version: turn.version + 1000, seat: turn.seat },
    });
    if (stale.response.status !== 409 || stale.error?.error.code !== "stale_version") {
      throw new Error(`${label}: a stale move was answered ${stale.response.status} ${JSON.stringify(stale.error)}`);
    }
  };

  // the bot loop: one move per game a round, every game's at once
  const moves = new Map<string, number>();
  const open = new Set(labels.keys());
  while (open.size > 0) {
    const { turns } = await must("turns", client.GET("/v1/me/turns", { params: { query: { wait: 1 } } }));
    const first = new Map([...turns].reverse().map((turn) => [turn.game_id, turn])); // several may move
    if (first.size === 0) {
      for (const gameId of open) {
        const view = await must(gameId, client.GET("/v1/games/{game_id}", { params: { path: { game_id: gameId } } }));
        if (view.status === "finished" || view.status === "aborted") open.delete(gameId);
      }
      continue;
    }
    await Promise.all([...first.values()].map(async (turn) => {
      const label = labels.get(turn.game_id);
      if (label === undefined) throw new Error(`a turn in a game not named: ${turn.game_id}`);
      if (!moves.has(turn.game_id)) await refusedStale(turn, label);
      const legal: Move[] = turn.view.legal_moves;
      const move = legal[Math.floor(Math.random() * legal.length)];
      if (move === undefined) throw new Error(`${label}: a turn with no legal move`);
      const { data: view, error, response } = await client.POST("/v1/games/{game_id}/moves", {
        params: { path: { game_id: turn.game_id } },
        body: { move, version: turn.version, seat: turn.seat },
      });
      if (error?.error.code === "stale_version") return; // the other player moved first: its next turn comes
      if (view === undefined) throw new Error(`${label}: ${response.status} ${JSON.stringify(error)}`);
      if (view.version !== turn.version + 1) throw new Error(`${label}: version ${view.version} after ${turn.version}`);
      moves.set(turn.game_id, (moves.get(turn.game_id) ?? 0) + 1);
    }));
  }

  for (const [gameId, label] of labels) {
    const path = { game_id: gameId };
    const view = await must(label, client.GET("/v1/games/{game_id}", { params: { path } }));
    const replay = await must(label, client.GET("/v1/games/{game_id}/replay", { params: { path } }));
    const frame = await must(label, client.GET("/v1/games/{game_id}/replay/{version}", {
      params: { path: { ...path, version: replay.version } },
    }));
    const events = await must(label, client.GET("/v1/games/{game_id}/events", { params: { path } }));
    const read: { [document: string]: Read } = {
      view: viewRead(view),
      replay: {
        version: replay.version,
        status: replay.status,
        "result.scores": replay.result?.scores,
        "revealed.seed": replay.revealed?.seed,
        "revealed.hands": replay.revealed?.hands,
        "events.*.seq": replay.events.map((e) => e.seq),
        "events.*.kind": replay.events.map((e) => e.kind),
      },
      frame: {
        version: frame.version,
        last_version: frame.last_version,
        ...Object.fromEntries(Object.entries(viewRead(frame.public)).map(([k, v]) => [`public.${k}`, v])),
        "views.*.you": frame.views.map((v) => v.you),
      },
      events: {
        last: events.last,
        "events.*.seq": events.events.map((e) => e.seq),
        "events.*.kind": events.events.map((e) => e.kind),
        "events.*.version": events.events.map((e) => e.version),
      },
    };
    const sayings = Object.fromEntries(Object.entries(read).map(([document, r]) => [document, said(r)]));
    console.log(JSON.stringify({ id: gameId, label, player: me.id, moves: moves.get(gameId) ?? 0, read: sayings }));
  }
}

await main();
