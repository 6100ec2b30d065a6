// A complete Parlour bot in TypeScript, on the parlour-client package (client_sdk/typescript).
//
//   cd bots/examples && npm install && npm run build
//   node dist/random_bot.js --server http://127.0.0.1:8000 --token T [--games 1] [--wait 20]
//                           [--game ID | --ladder ID] [--accept-invitations]
//
// The bot is the one function the loop asks: a view in, one of its legal moves out.
// runBot does the rest, as the Python runner (client_sdk/runner.py) does: it takes the
// turns the server pushes on GET /v1/me/turns/stream (long-polling GET /v1/me/turns on
// a server without turn streams), skips a turn already played, sends the move with the
// turn's version, waits for the next turn after a 409, reconnects after a network error,
// and counts the games it played to their end.
import { parseArgs } from "node:util";

import { createParlourClient, runBot, type Bot, type Join, type Move, type View } from "parlour-client";

const { values: args } = parseArgs({
  options: {
    server: { type: "string", default: process.env["PARLOUR_SERVER"] ?? "http://127.0.0.1:8000" },
    token: { type: "string", default: process.env["PARLOUR_TOKEN"] ?? "" },
    games: { type: "string" },
    wait: { type: "string", default: "20" },
    game: { type: "string" },
    ladder: { type: "string" },
    "accept-invitations": { type: "boolean", default: false },
  },
});

/** A uniformly random legal move; the view says which game it is (`view.game`). */
export const randomBot: Bot = {
  chooseMove(view: View): Move {
    const legal: Move[] = view.legal_moves;
    const move = legal[Math.floor(Math.random() * legal.length)];
    if (move === undefined) throw new Error(`asked to move in ${view.game} with no legal move`);
    return move;
  },
};

function joining(): Join | undefined {
  if (args.game) return { game: args.game };
  if (args.ladder) return { ladder: args.ladder };
  return undefined;
}

async function main(): Promise<number> {
  if (!args.token) {
    console.error("a token is needed: --token T or PARLOUR_TOKEN");
    return 2;
  }
  const stop = new AbortController();
  process.on("SIGINT", () => stop.abort()); // a move in flight is finished first
  process.on("SIGTERM", () => stop.abort());
  const join = joining();
  const stats = await runBot(randomBot, createParlourClient({ server: args.server, token: args.token }), {
    ...(args.games ? { maxGames: Number(args.games) } : {}),
    ...(join ? { join } : {}),
    wait: Number(args.wait),
    acceptInvitations: args["accept-invitations"],
    signal: stop.signal,
    log: (line) => console.error(line),
  });
  console.log(`random_bot: ${stats.moves} moves, ${stats.finished} games finished`);
  return 0;
}

process.exitCode = await main();
