#!/usr/bin/env node
// A complete Parlour bot in JavaScript: Node 18+, built-in fetch, no dependencies.
//
//   node bots/examples/random_bot.js --server http://127.0.0.1:8000 --token T [--games 1]
//
// It does what the Python runner (client_sdk/runner.py) does, in the fewest lines:
// take turns as the server pushes them on GET /v1/me/turns/stream (server-sent
// events; from a server without turn streams, long-poll GET /v1/me/turns instead),
// pick a uniformly random legal move, POST it with the turn's version. A turn can
// come twice (on connecting and pushed): a version already played is skipped. A 409
// (someone moved first, or a retry that lost) just means "wait for the next turn";
// a network error means "wait a moment and connect again" — whose turn it is lives
// on the server, so nothing is lost. Games that stop asking for moves are checked
// on quiet moments, so it notices when they finish.

const args = Object.fromEntries(
  process.argv.slice(2).reduce((pairs, arg, i, all) =>
    arg.startsWith("--") ? [...pairs, [arg.slice(2), all[i + 1]]] : pairs, []));
const server = (args.server || process.env.PARLOUR_SERVER || "http://127.0.0.1:8000")
  .replace(/\/$/, "");
const token = args.token || process.env.PARLOUR_TOKEN;
const maxGames = args.games ? Number(args.games) : Infinity;
const wait = args.wait ? Number(args.wait) : 20;

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

// Server-sent events as the spec reads them (WHATWG HTML): a line ends at CR, LF or
// CRLF and nowhere else (a name may hold U+2028 or "data: "), "field: value" drops one
// space, "data" lines join with "\n", a blank line ends a message, ":" starts a comment.
// Yields {event, data} per message and {event: "comment"} per comment.
async function* sseMessages(body) {
  const decoder = new TextDecoder();
  let line = "", data = [], event = "", afterCR = false;
  for await (const chunk of body) {
    let text = decoder.decode(chunk, { stream: true });
    if (afterCR && text.startsWith("\n")) text = text.slice(1);  // the LF of a CRLF
    if (text) afterCR = text.endsWith("\r");
    const lines = (line + text).split(/\r\n|\r|\n/);
    line = lines.pop();  // not ended yet
    for (const l of lines) {
      const colon = l.indexOf(":");
      const name = colon < 0 ? l : l.slice(0, colon);
      const value = colon < 0 ? "" : l.slice(colon + (l[colon + 1] === " " ? 2 : 1));
      if (l === "") {
        if (data.length) yield { event: event || "message", data: data.join("\n") };
        data = [];
        event = "";
      } else if (colon === 0) yield { event: "comment" };
      else if (name === "data") data.push(value);
      else if (name === "event") event = value;
    }
  }
}

// Pages of turns: pushed on the turn stream, or one long-poll where there is none.
// An empty page is a quiet moment (a heartbeat, a game's end, a poll that timed out).
let pushing = true;
async function* turnPages() {
  if (pushing) {
    const response = await fetch(server + "/v1/me/turns/stream", {
      headers: { "Authorization": `Bearer ${token}`, "Accept": "text/event-stream" },
    });
    if (response.status === 404) {
      pushing = false;  // an older server: long-poll from now on
    } else if (!response.ok) {
      const error = new Error(`turn stream refused: ${response.status}`);
      error.status = response.status;
      throw error;
    } else {
      for await (const { event, data } of sseMessages(response.body)) {
        if (event === "turns") yield JSON.parse(data);
        else yield [];  // a heartbeat, a game over, an invitation: a quiet moment
        if (stopping) return;
      }
      return;  // the server ended this stream (it bounds each one): the caller reconnects
    }
  }
  const { turns } = await api("GET", `/v1/me/turns?wait=${wait}`, undefined, wait + 10);
  yield turns;
}

async function main() {
  if (!token) {
    console.error("a token is needed: --token T or PARLOUR_TOKEN");
    process.exit(2);
  }
  const playing = new Set();
  const played = new Map();  // game id -> the newest version played
  let moves = 0, finished = 0;
  while (!stopping && finished < maxGames) {
    try {
      for await (const turns of turnPages()) {
        for (const turn of turns) {
          if (stopping) break;
          if ((played.get(turn.game_id) ?? -1) >= turn.version) continue;
          playing.add(turn.game_id);
          const legal = turn.view.legal_moves;
          const move = legal[Math.floor(Math.random() * legal.length)];
          try {
            const view = await api("POST", `/v1/games/${encodeURIComponent(turn.game_id)}/moves`,
              { move, version: turn.version, seat: turn.seat });
            played.set(turn.game_id, turn.version);
            moves += 1;
            if (view.status === "finished" && playing.delete(turn.game_id)) finished += 1;
          } catch (error) {
            if (error.status !== 409) throw error;  // 409: the game moved on; wait for it
          }
        }
        if (turns.length === 0) {  // a quiet moment: did a game we played finish?
          for (const id of [...playing]) {
            const view = await api("GET", `/v1/games/${encodeURIComponent(id)}`);
            if (view.status === "finished" && playing.delete(id)) finished += 1;
          }
        }
        if (stopping || finished >= maxGames) break;
      }
    } catch (error) {
      if (error.status >= 400 && error.status < 500 && error.status !== 429) throw error;
      console.error(`server unavailable (${error.message}); trying again`);
      await sleep(1000);
    }
  }
  console.log(`random.js: ${moves} moves, ${finished} games finished`);
  process.exit(0);
}

if (require.main === module) {
  main().catch((error) => { console.error(error.message); process.exit(1); });
} else {
  module.exports = { sseMessages };  // for tests/bots/test_js_sse.py
}
