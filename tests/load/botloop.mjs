// Load client for the bot loop, in Node so that no GIL sits between the bots:
// its latencies (seconds) are the server's. Reads a plan (JSON) on stdin, runs one mode
// for `seconds`, prints one JSON line of results on stdout.
//
// Modes, each bot on its own keep-alive connection:
//   moves  scripted games: each table's four seats POST the moves computed
//          beforehand by the engine (no read needed to choose): the move request alone.
//   loop   what the SDK runner does: long-poll GET /v1/me/turns?wait=, POST a random
//          legal move of each turn at once; the bot that ends a game starts the next
//          one for its table with the admin token.
//   push   the cheaper loop: each bot holds GET /v1/me/turns/stream open and POSTs
//          the move of each pushed turn at once.
//   floor  GET /v1/_ping_redis?round_trips=2&reply_bytes=N: the I/O a move cannot skip.
import http from "node:http";

const plan = JSON.parse(await new Promise((done) => {
  let text = "";
  process.stdin.on("data", (chunk) => (text += chunk));
  process.stdin.on("end", () => done(text));
}));
const base = new URL(plan.base);
let stopping = false;
let measuring = false;       // set once every bot is connected: what a bot's turn costs, not its connecting
const latencies = [];
let errors = 0;
let polls = 0;               // turns received while measuring (long-poll answers, pushed frames)
const wakers = new Set();  // push bots waiting for a turn: woken to stop
let rng = 12345;
const random = () => ((rng = (rng * 1103515245 + 12345) % 2147483648) / 2147483648);

function request(agent, method, path, token, body) {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  const headers = {};
  if (token) headers.Authorization = `Bearer ${token}`;
  if (payload) { headers["Content-Type"] = "application/json"; headers["Content-Length"] = Buffer.byteLength(payload); }
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: base.hostname, port: base.port, method, path, headers, agent },
      (res) => {
        const chunks = [];
        res.on("data", (c) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode, body: Buffer.concat(chunks) }));
      },
    );
    req.on("error", reject);
    req.end(payload);
  });
}

const agent = () => new http.Agent({ keepAlive: true, maxSockets: 1 });

async function timed(fn) {
  const start = process.hrtime.bigint();
  const out = await fn();
  if (measuring && !stopping) latencies.push(Number(process.hrtime.bigint() - start) / 1e9);
  return out;
}

const progress = [];  // per scripted table: [game index, step index] reached

async function scriptedTable(table, t) {
  const agents = table.tokens.map(agent);
  progress[t] = [0, 0];
  for (const [g, game] of table.games.entries()) {
    for (const [s, [seat, move, version]] of game.steps.entries()) {
      progress[t] = [g, s];
      if (stopping) return;
      const res = await timed(() => request(agents[seat], "POST", `/v1/games/${game.id}/moves`, table.tokens[seat], { move, version }));
      if (res.status !== 200) errors++;
    }
  }
  progress[t] = [table.games.length, 0];
  throw new Error("a table ran out of scripted games: plan more");
}

async function loopBot(bot, table) {
  const conn = agent();
  while (!stopping) {
    const page = await request(conn, "GET", `/v1/me/turns?wait=${plan.wait ?? 5}`, bot.token);
    if (page.status !== 200) { errors++; continue; }
    if (measuring && !stopping) polls++;
    for (const turn of JSON.parse(page.body).turns) {
      if (stopping) return;
      const moves = turn.view.legal_moves;
      const move = moves[Math.floor(random() * moves.length)];
      const res = await timed(() => request(conn, "POST", `/v1/games/${turn.game_id}/moves`, bot.token, { move, version: turn.version }));
      if (res.status !== 200) { errors++; continue; }
      if (JSON.parse(res.body).status === "finished") await newGame(conn, table);
    }
  }
}

// The SDK's cheapest loop: the turn stream pushes each turn; POST its move at once.
// A bot holds its stream for minutes (PARLOUR_SSE_MAX_SECONDS): the measurement starts
// once every stream is open, so a phase of seconds does not charge 64 connections'
// set-up (the token check, the first read of the games) to its few thousand moves.
const opened = [];
async function pushBot(bot, table) {
  const conn = agent();        // moves
  const listen = agent();      // the stream holds its own connection
  const seen = new Map();      // "game/seat" -> newest version played
  const queue = [];
  let wakeUp = null;
  const req = http.request({ host: base.hostname, port: base.port, method: "GET",
    path: "/v1/me/turns/stream", agent: listen,
    headers: { Authorization: `Bearer ${bot.token}`, Accept: "text/event-stream" } });
  let open;
  opened.push(new Promise((done) => (open = done)));
  req.on("response", (res) => {
    let buffer = "";
    res.once("data", () => open());
    res.setEncoding("utf8");
    res.on("data", (chunk) => {
      buffer += chunk;
      let cut;
      while ((cut = buffer.indexOf("\n\n")) >= 0) {
        const block = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        if (!block.startsWith("event: turns")) continue;
        if (measuring && !stopping) polls++;
        queue.push(...JSON.parse(block.slice(block.indexOf("data: ") + 6)));
        if (wakeUp) { wakeUp(); wakeUp = null; }
      }
    });
  });
  req.on("error", () => {});
  req.end();
  while (!stopping) {
    if (!queue.length) {
      await new Promise((done) => { wakeUp = done; wakers.add(done); });
      continue;
    }
    const turn = queue.shift();
    const key = `${turn.game_id}/${turn.seat}`;
    if ((seen.get(key) ?? -1) >= turn.version) continue;
    seen.set(key, turn.version);
    const moves = turn.view.legal_moves;
    const move = moves[Math.floor(random() * moves.length)];
    const res = await timed(() => request(conn, "POST", `/v1/games/${turn.game_id}/moves`, bot.token, { move, version: turn.version }));
    if (res.status !== 200) { errors++; continue; }
    if (JSON.parse(res.body).status === "finished") await newGame(conn, table);
  }
  req.destroy();
}

async function newGame(conn, table) {
  table.count = (table.count ?? 0) + 1;
  const body = { game: "concerto", seats: table.ids, seed: `${table.seed}-${table.count}` };
  const res = await request(conn, "POST", "/v1/games", plan.admin, body);
  if (res.status !== 201) errors++;
}

async function floorClient() {
  const conn = agent();
  const path = `/v1/_ping_redis?round_trips=2&reply_bytes=${plan.reply_bytes ?? 0}`;
  while (!stopping) {
    const res = await timed(() => request(conn, "GET", path));
    if (res.status !== 200) errors++;
  }
}

let runners;
if (plan.mode === "moves") runners = plan.tables.map(scriptedTable);
else if (plan.mode === "loop") runners = plan.tables.flatMap((t) => t.tokens.map((token) => loopBot({ token }, t)));
else if (plan.mode === "push") runners = plan.tables.flatMap((t) => t.tokens.map((token) => pushBot({ token }, t)));
else if (plan.mode === "floor") runners = Array.from({ length: plan.clients }, floorClient);
else throw new Error(`unknown mode ${plan.mode}`);

// push mode: every stream open, or 10 s (other modes: nothing to wait for)
await Promise.race([Promise.all(opened), new Promise((done) => setTimeout(done, 10000))]);
measuring = true;
const started = process.hrtime.bigint();
process.stdout.write(JSON.stringify({ started: true }) + "\n");
await new Promise((done) => setTimeout(done, plan.seconds * 1000));
stopping = true;
for (const wake of wakers) wake();
process.stdout.write(JSON.stringify({ stopped: true }) + "\n");
const elapsed = Number(process.hrtime.bigint() - started) / 1e9;
await Promise.race([Promise.allSettled(runners), new Promise((d) => setTimeout(d, (plan.wait ?? 5) * 1000 + 2000))]);
// exit once the (large) line is out: a pipe is written asynchronously
const result = JSON.stringify({ count: latencies.length, elapsed, errors, polls, latencies, progress });
process.stdout.write(result + "\n", () => process.exit(0));
