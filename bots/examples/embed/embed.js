// The example app's page. Without an invitation in the URL's fragment it shows a lobby that
// asks this app's backend for a new game; with one (#game=..&seat=..&token=..) it plays that
// seat, talking to Parlour directly: another origin, hence CORS. The guest token stays in the
// fragment (never sent to any server by the browser) and in memory.
"use strict";

const SEATS = ["North", "East", "South", "West"];
const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };
let api = null;          // Parlour's root URL, from /config.json
let invite = null;       // {game, seat, token}
let view = null;         // the latest view of our seat
let stream = null;       // the EventSource
let refreshing = null;   // the refresh in flight, if any
let again = false;       // another refresh was asked for meanwhile

const $ = (id) => document.getElementById(id);

function cardLabel(card) {
  const span = document.createElement("span");
  span.textContent = (card[0] === "T" ? "10" : card[0]) + SUITS[card[1]];
  if (card[1] === "H" || card[1] === "D") span.className = "red";
  return span;
}

async function call(method, path, body) {
  const response = await fetch(api + path, {
    method,
    headers: { "Authorization": "Bearer " + invite.token,
               ...(body ? { "Content-Type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const data = await response.json();
  return { status: response.status, data };
}

function render(v) {
  view = v;
  document.body.dataset.version = String(v.version);
  document.body.dataset.status = v.status;
  const st = v.state;
  const me = v.you;
  const mine = v.to_move.includes(me) && v.legal_moves.length > 0;
  if (v.status === "finished") {
    const r = v.result;
    const won = r && r.winners.includes(me);
    $("status").textContent = `Game over: ${won ? "you win" : r && r.winners.length ? "you lose" : "a draw"}.`;
  } else {
    $("status").textContent = mine ? "Your turn."
      : `Waiting for ${v.to_move.map((s) => SEATS[s]).join(", ") || "…"}.`;
  }
  document.body.dataset.myTurn = String(mine);
  $("scores").textContent = `North–South ${v.scores[0]} · East–West ${v.scores[1]}`;

  const current = $("current");
  current.replaceChildren(...st.current_hand.map((p) => {
    const span = document.createElement("span");
    span.dataset.seat = p.seat;
    span.append(SEATS[p.seat] + " ", cardLabel(p.card));
    return span;
  }));

  const playable = new Set(v.legal_moves.filter((m) => m.type === "play").map((m) => m.card));
  $("hand").replaceChildren(...(v.hand || []).map((card) => {
    const button = document.createElement("button");
    button.className = "card";
    button.dataset.card = card;
    button.append(cardLabel(card));
    button.disabled = !playable.has(card);
    button.onclick = () => send({ type: "play", card });
    return button;
  }));
  for (const button of document.querySelectorAll("#actions button")) {
    button.disabled = !v.legal_moves.some((m) => m.type === button.dataset.move);
  }

  $("hands").replaceChildren(...st.completed_hands.map((h) => {
    const li = document.createElement("li");
    li.dataset.side = h.side.join(",");
    li.dataset.points = h.points;
    li.dataset.players = [...new Set(h.cards.map((p) => p.seat))].sort().join(",");
    li.append(`${SEATS[h.leader]} led: `);
    for (const p of h.cards) li.append(cardLabel(p.card), " ");
    li.append(`— ${h.combination.replace("_", " ")}, ${h.points} pt`);
    return li;
  }));
}

async function refresh() {
  if (refreshing) { again = true; return refreshing; }
  refreshing = (async () => {
    do {
      again = false;
      const { status, data } = await call("GET", `/v1/games/${invite.game}?seat=${invite.seat}`);
      if (status === 200) render(data);
      else $("status").textContent = `Parlour says: ${data.error.message}`;
    } while (again);
  })();
  try { await refreshing; } finally { refreshing = null; }
}

async function send(move) {
  for (const b of document.querySelectorAll("#table button")) b.disabled = true;
  const { status, data } = await call("POST", `/v1/games/${invite.game}/moves`,
                                      { move, version: view.version });
  if (status === 200) render(data);
  else await refresh();  // someone moved first (409), or the move was refused: re-read
}

function listen() {
  // EventSource cannot send headers: the token goes in the query (see the API docs).
  const url = `${api}/v1/games/${invite.game}/stream?seat=${invite.seat}` +
              `&token=${encodeURIComponent(invite.token)}`;
  stream = new EventSource(url);
  stream.onopen = () => { $("live").dataset.state = "live"; $("live").textContent = "live"; };
  stream.onerror = () => { $("live").dataset.state = "off"; $("live").textContent = "reconnecting"; };
  stream.onmessage = () => refresh();  // every event the seat may see: re-read the view
  stream.addEventListener("end", () => {
    stream.close();
    $("live").dataset.state = "off";
    $("live").textContent = "game over";
    refresh();
  });
}

async function newGame() {
  $("new-game").disabled = true;
  const response = await fetch("/api/games", { method: "POST" });
  const data = await response.json();
  if (response.status !== 201) {
    $("lobby-error").textContent = data.error;
    $("new-game").disabled = false;
    return;
  }
  window.location.assign(data.url);  // the invitation: this page, with a fragment
}

async function start() {
  const params = new URLSearchParams(window.location.hash.slice(1));
  if (!params.get("token")) {
    $("lobby").hidden = false;
    $("table").hidden = true;
    $("new-game").onclick = newGame;
    document.body.dataset.ready = "lobby";
    return;
  }
  invite = { game: params.get("game"), seat: Number(params.get("seat")), token: params.get("token") };
  $("lobby").hidden = true;
  $("table").hidden = false;
  for (const button of document.querySelectorAll("#actions button")) {
    button.onclick = () => send({ type: button.dataset.move });
  }
  if (stream) stream.close();
  await refresh();
  listen();
  document.body.dataset.ready = "table";
}

window.addEventListener("hashchange", start);
fetch("/config.json").then((r) => r.json()).then((config) => { api = config.api; start(); });
