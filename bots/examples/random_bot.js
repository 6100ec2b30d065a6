#!/usr/bin/env node
// A complete Parlour bot in JavaScript: Node 18+, built-in fetch, no dependencies.
//
//   node bots/examples/random_bot.js --server http://127.0.0.1:8000 --token T [--games 1]
//
// It does what the Python runner (client_sdk/runner.py) does, in the fewest lines:
// long-poll GET /v1/me/turns, pick a uniformly random legal move, POST it with the
// view's version. A 409 (someone moved first, or a retry that lost) just means
// "read the turns again"; a network error means "wait a moment and read again" —
// whose turn it is lives on the server, so nothing is lost. Games that stop
// asking for moves are checked, so it notices when they finish.

const args = Object.fromEntries(
  process.argv.slice(2).reduce((pairs, arg, i, all) =>
    arg.startsWith("--") ? [...pairs, [arg.slice(2), all[i + 1]]] : pairs, []));
const server = (args.server || process.env.PARLOUR_SERVER || "http://127.0.0.1:8000")
  .replace(/\/$/, "");
const token = args.token || process.env.PARLOUR_TOKEN;
const maxGames = args.games ? Number(args.games) : Infinity;
const wait = args.wait ? Number(args.wait) : 20;
if (!token) {
  console.error("a token is needed: --token T or PARLOUR_TOKEN");
  process.exit(2);
}

let stopping = false;
for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => { stopping = true; });

async function api(method, path, body, timeoutSeconds = 10) {
  const response = await fetch(server + path, {
    method,
    headers: { "Authorization": `Bearer ${token}`, "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(timeoutSeconds * 1000),
  });
  const data = await response.json();
  if (!response.ok) {
    const error = new Error(`${response.status} ${data.error.code}: ${data.error.message}`);
    error.status = response.status;
    error.code = data.error.code;
    throw error;
  }
  return data;
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function main() {
  const playing = new Set();
  let moves = 0, finished = 0;
  while (!stopping && finished < maxGames) {
    try {
      const { turns } = await api("GET", `/v1/me/turns?wait=${wait}`, undefined, wait + 10);
      for (const turn of turns) {
        if (stopping) break;
        playing.add(turn.game_id);
        const legal = turn.view.legal_moves;
        const move = legal[Math.floor(Math.random() * legal.length)];
        try {
          const view = await api("POST", `/v1/games/${encodeURIComponent(turn.game_id)}/moves`,
            { move, version: turn.version, seat: turn.seat });
          moves += 1;
          if (view.status === "finished" && playing.delete(turn.game_id)) finished += 1;
        } catch (error) {
          if (error.status !== 409) throw error;  // 409: the game moved on; read again
        }
      }
      if (turns.length === 0) {  // nothing to do: did a game we played finish?
        for (const id of [...playing]) {
          const view = await api("GET", `/v1/games/${encodeURIComponent(id)}`);
          if (view.status === "finished" && playing.delete(id)) finished += 1;
        }
      }
    } catch (error) {
      if (error.status >= 400 && error.status < 500 && error.status !== 429) throw error;
      console.error(`server unavailable (${error.message}); trying again`);
      await sleep(1000);
    }
  }
  console.log(`random.js: ${moves} moves, ${finished} games finished`);
}

main().catch((error) => { console.error(error.message); process.exit(1); });
