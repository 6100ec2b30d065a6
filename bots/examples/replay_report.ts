// What finished games were, read with the parlour-client package (client_sdk/typescript):
// each game's replay (every event, the hands revealed) and its events page.
//
//   cd bots/examples && npm install && npm run build
//   node dist/replay_report.js --server http://127.0.0.1:8000 [--token T] GAME_ID...
//
// One line of JSON per game: who sat where, the result, the moves made, the events by
// kind, and the seed and hands the replay reveals. A spectator (no token) may read a
// finished game's replay; with a token the events page is that player's (its own seat's
// private events too).
import { parseArgs } from "node:util";

import { createParlourClient, ok, type Schemas } from "parlour-client";

const { values: args, positionals: gameIds } = parseArgs({
  allowPositionals: true,
  options: {
    server: { type: "string", default: process.env["PARLOUR_SERVER"] ?? "http://127.0.0.1:8000" },
    token: { type: "string", default: process.env["PARLOUR_TOKEN"] ?? "" },
  },
});

type Event = Schemas["Event"];

/** How many events of each kind, in the order each kind first came. */
function byKind(events: Event[]): { [kind: string]: number } {
  const counts: { [kind: string]: number } = {};
  for (const { kind } of events) counts[kind] = (counts[kind] ?? 0) + 1;
  return counts;
}

async function main(): Promise<number> {
  if (gameIds.length === 0) {
    console.error("name the games: replay_report.js [--server URL] [--token T] GAME_ID...");
    return 2;
  }
  const client = createParlourClient({ server: args.server, ...(args.token ? { token: args.token } : {}) });
  for (const gameId of gameIds) {
    const path = { game_id: gameId };
    const replay = await ok(client.GET("/v1/games/{game_id}/replay", { params: { path } }));
    const page = await ok(client.GET("/v1/games/{game_id}/events", { params: { path } }));
    const report = {
      id: replay.id,
      game: replay.game,
      status: replay.status,
      moves: replay.version,
      seats: replay.seats.map(({ seat, name }) => ({ seat, name })),
      scores: replay.result?.scores ?? null,
      winners: replay.result?.winners ?? null,
      termination: replay.result?.termination ?? null,
      seed: replay.revealed?.seed ?? null,
      hands: replay.revealed?.hands.map((hand) => hand.length) ?? null,
      events: byKind(replay.events),
      page: { last: page.last, events: byKind(page.events) },
    };
    console.log(JSON.stringify(report));
  }
  return 0;
}

process.exitCode = await main();
