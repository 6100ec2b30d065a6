"""The TypeScript client (client_sdk/typescript) and the example bot written with it.

* its types are what openapi-typescript makes of today's openapi.yaml (a stale
  ``src/openapi.ts`` fails here: ``npm run generate`` in client_sdk/typescript);
* the package and the example bots compile with ``strict`` on (the build's ``tsc``), and
  neither casts;
* the example bot, compiled, plays a whole game against a real ``parlour serve``
  (holding all four seats), and enters a ladder to play the house bots;
* the turn source reads the server-sent events stream, and long-polls
  ``GET /v1/me/turns?wait=`` where the server answers the stream with 404;
* ``runBot`` accepts an invitation made while its turn stream was opening (never pushed
  to it: it looks at its invitations again once the stream is open).

The build (``npm ci``, ``tsc``) is shared with the other node tests: tests/typescript.py.
"""

from __future__ import annotations

import json
import re
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from client_sdk import Client
from server.processes.served import Served, free_port
from tests import typescript
from tests.typescript import EXAMPLE_BOT, EXAMPLES, PACKAGE, ROOT

SHORT = {"deals": 1, "target": 10000}  # one deal: about 50 moves


@pytest.fixture(scope="module", autouse=True)
def built() -> None:
    typescript.build()


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    server = Served(tmp_path_factory.mktemp("ts-serve") / "data", free_port(), ready_timeout=60)
    try:
        yield server
    finally:
        server.stop()


def four_seats(url: str, name: str) -> tuple[Client, str, str]:
    """A player holding all four seats of a one-deal Concerto game: client, token, game id."""
    return every_seat(url, name, "concerto", SHORT)


def every_seat(url: str, name: str, game: str, options: dict) -> tuple[Client, str, str]:
    """A player holding every seat of a new game: client, token, game id."""
    player = Client(url).players.register(name)
    client = Client(url, player["token"])
    view = client.games.create(game, options, allow_multiple_seats=True)
    while view["status"] == "waiting":
        view = client.games.join(view["id"])
    return client, player["token"], view["id"]


# A short game of each game; with the generated Python client's games
# (tests/api/test_generated_clients.py: Concerto 2013, Cowpoke for 2, partnership Pinochle)
# two generated-client games per game, in other option sets where a game has them.
GAMES = [
    ("concerto", {**SHORT, "rules": "penguin"}),
    ("seconds", {}),
    ("cowpoke", {"players": 5, "hands": 1}),
    ("pinochle", {"variant": "firehouse", "max_deals": 1}),
]


# A request field with a server-side default is optional on the wire: without this flag
# openapi-typescript makes it required (a tournament's `clock` would need `bank_ms`).
GENERATE_FLAGS = ["--default-non-nullable", "false"]


def test_the_generated_types_are_current(tmp_path: Path) -> None:
    """src/openapi.ts is openapi-typescript's output for the committed openapi.yaml, made
    with the package's own `npm run generate` flags."""
    script = json.loads((PACKAGE / "package.json").read_text(encoding="utf-8"))["scripts"]
    assert " ".join(GENERATE_FLAGS) in script["generate"]
    fresh = tmp_path / "openapi.ts"
    generator = PACKAGE / "node_modules" / ".bin" / "openapi-typescript"
    done = subprocess.run(
        [str(generator), str(ROOT / "openapi.yaml"), *GENERATE_FLAGS, "--output", str(fresh)],
        cwd=PACKAGE, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    committed = (PACKAGE / "src" / "openapi.ts").read_text(encoding="utf-8")
    assert committed == fresh.read_text(encoding="utf-8"), (
        "client_sdk/typescript/src/openapi.ts is stale: run `npm run generate` there"
    )


@pytest.mark.parametrize("folder", [PACKAGE, EXAMPLES], ids=["package", "examples"])
def test_tsc_strict_passes(folder: Path) -> None:
    """``strict`` is on in the folder's tsconfig.json, and the build compiled the folder with
    it: ``typescript.build()`` runs ``tsc -p tsconfig.json`` there whenever a source or a
    config changed, and fails with tsc's output on any type error (tsc exits non-zero even
    when it emits), so the strict check is done once per change, not once more here."""
    config = json.loads((folder / "tsconfig.json").read_text(encoding="utf-8"))
    assert config["compilerOptions"]["strict"] is True
    typescript.build()  # current: this module's build; else tsc again, or its errors
    assert (folder / config["compilerOptions"]["outDir"]).is_dir()


CASTS = [
    (re.compile(r"\bas\s+(?!const\b)[\w{[(]"), "an `as` cast"),
    (re.compile(r"\bas\s+const\b"), "an `as const` assertion"),
    (re.compile(r"[\w)\]]!(?:\.|\[|\))"), "a non-null assertion"),
    (re.compile(r"(?<!\.)\bany\b"), "`any`"),
    (re.compile(r"@ts-(?:ignore|expect-error|nocheck)"), "a suppressed type error"),
]


def code_of(source: str) -> str:
    """The code, without comments, strings and `import {x as y}` renames."""
    source = re.sub(r"/\*.*?\*/", "", source, flags=re.S)
    source = re.sub(r"//[^\n]*", "", source)
    source = re.sub(r"`(?:[^`\\]|\\.)*`|\"(?:[^\"\\\n]|\\.)*\"", '""', source)
    return re.sub(r"^import [^;]*;", "", source, flags=re.M | re.S)


def test_the_example_bot_and_the_client_have_no_casts() -> None:
    assert CASTS[0][0].search(code_of("const x = y as Turn;"))  # the check can fail
    assert CASTS[2][0].search(code_of("view.hand!.length"))
    sources = [EXAMPLES / "random_bot.ts", *sorted((PACKAGE / "src").glob("*.ts"))]
    for path in sources:
        if path.name == "openapi.ts":
            continue  # generated: types only
        code = code_of(path.read_text(encoding="utf-8"))
        for pattern, what in CASTS:
            found = pattern.search(code)
            assert found is None, f"{path.relative_to(ROOT)}: {what}: {found and found.group()}"


@pytest.mark.parametrize(
    ("game", "options"), GAMES, ids=[f"{g}-{'-'.join(map(str, o.values()))}" for g, o in GAMES]
)
def test_the_example_bot_plays_a_whole_game(served: Served, game: str, options: dict) -> None:
    """bots/examples/random_bot.ts, compiled, holds every seat to the game's end, in each
    game and option set: its types take every game's views and moves without a cast."""
    client, token, game_id = every_seat(served.url, f"ts-{game}", game, options)
    done = subprocess.run(
        ["node", str(EXAMPLE_BOT), "--server", served.url, "--token", token,
         "--games", "1", "--wait", "1"],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    final = client.games.view(game_id)
    assert final["status"] == "finished" and final["game"] == game
    assert f"random_bot: {final['version']} moves, 1 games finished" in done.stdout


def test_the_example_bot_takes_a_seat_in_an_open_game(served: Served) -> None:
    """``--game ID``: the bot joins the open seat, and the game is played to its end with
    the creator's bot in the other three."""
    anyone = Client(served.url)
    creator = anyone.players.register("ts-creator")
    joiner = anyone.players.register("ts-joiner")
    seats = [creator["id"]] * 3 + [None]
    game = Client(served.url, creator["token"]).games.create(
        "concerto", SHORT, seats, allow_multiple_seats=True
    )
    bot = ["node", str(EXAMPLE_BOT), "--server", served.url, "--games", "1", "--wait", "1"]
    first = subprocess.Popen([*bot, "--token", creator["token"]], stdout=subprocess.PIPE, text=True)
    try:
        done = subprocess.run(
            [*bot, "--token", joiner["token"], "--game", game["id"]],
            capture_output=True, text=True, timeout=120,
        )  # fmt: skip
        first_out, _ = first.communicate(timeout=60)
    finally:
        first.kill()
    assert done.returncode == 0, done.stderr
    assert f"joined game {game['id']} in seat 3" in done.stderr
    assert "1 games finished" in done.stdout and "1 games finished" in first_out
    final = anyone.games.view(game["id"])
    assert final["status"] == "finished" and final["seats"][3]["player_id"] == joiner["id"]


def test_the_example_bot_plays_the_house_bots_on_a_ladder(served: Served) -> None:
    """``--ladder ID``: enters, plays one ladder game against the house bots, leaves."""
    anyone = Client(served.url)
    deadline = time.monotonic() + 30  # the bot pool defines its ladders and enters them
    while True:
        ladders = [
            lad for lad in anyone.ladders.list()["ladders"]
            if lad["game"] == "concerto" and lad["entries_count"] >= 3
        ]  # fmt: skip
        if ladders:
            break
        assert time.monotonic() < deadline, "no Concerto ladder with house bots"
        time.sleep(0.2)
    ladder = ladders[0]
    player = anyone.players.register("ts-ladder")
    done = subprocess.run(
        ["node", str(EXAMPLE_BOT), "--server", served.url, "--token", player["token"],
         "--games", "1", "--wait", "1", "--ladder", ladder["id"]],
        capture_output=True, text=True, timeout=180,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert re.search(r"random_bot: [1-9]\d* moves, 1 games finished", done.stdout), done.stdout
    assert f"entered ladder {ladder['id']}" in done.stderr
    deadline = time.monotonic() + 20  # the ladder records the result once it rates the game
    while True:
        entry = anyone.ladders.entry(ladder["id"], player["id"])
        if sum(entry["results"].values()) == 1 or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    assert sum(entry["results"].values()) == 1 and entry["status"] == "left", entry


HARNESS = """
import { createParlourClient, runBot } from "%(index)s";

const [server, token, refuseStream] = process.argv.slice(2);
const calls = { stream: 0, poll: 0 };
const client = createParlourClient({
  server,
  token,
  fetch: async (input) => {
    const url = new URL(input.url);
    if (url.pathname === "/v1/me/turns/stream") {
      calls.stream += 1;
      if (refuseStream === "yes") return new Response("{}", { status: 404 });
    }
    if (url.pathname === "/v1/me/turns") calls.poll += 1;
    return fetch(input);
  },
});
const bot = { chooseMove: (view) => view.legal_moves[0] };
const stats = await runBot(bot, client, { maxGames: 1, wait: 1 });
console.log(JSON.stringify({ ...stats, ...calls }));
"""


@pytest.mark.parametrize("refuse_stream", [False, True], ids=["stream", "long-poll"])
def test_the_turn_source_streams_or_falls_back_to_long_polls(
    served: Served, tmp_path: Path, refuse_stream: bool
) -> None:
    """With the stream: turns come pushed (no long-poll). A server that answers the stream
    with 404: one try, then ``GET /v1/me/turns?wait=`` to the game's end."""
    client, token, game_id = four_seats(served.url, "ts-poll" if refuse_stream else "ts-push")
    harness = tmp_path / "harness.mjs"
    harness.write_text(HARNESS % {"index": (PACKAGE / "dist" / "index.js").as_uri()})
    done = subprocess.run(
        ["node", str(harness), served.url, token, "yes" if refuse_stream else "no"],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    ran = json.loads(done.stdout)
    final = client.games.view(game_id)
    assert final["status"] == "finished"
    assert ran["finished"] == 1 and ran["moves"] == final["version"]
    if refuse_stream:
        assert ran["stream"] == 1 and ran["poll"] >= 1, ran
    else:
        assert ran["stream"] >= 1 and ran["poll"] == 0, ran


INVITED_ON_CONNECT = """
import { createParlourClient, runBot } from "%(index)s";

const [server, token, creatorToken, body] = process.argv.slice(2);
let created;
const client = createParlourClient({
  server,
  token,
  fetch: async (input) => {
    if (new URL(input.url).pathname === "/v1/me/turns/stream" && created === undefined) {
      // after runBot's first look at its invitations, before its stream listens
      const answer = await fetch(`${server}/v1/games`, {
        method: "POST",
        headers: { Authorization: `Bearer ${creatorToken}`, "Content-Type": "application/json" },
        body,
      });
      created = (await answer.json()).id;
    }
    return fetch(input);
  },
});
const bot = { chooseMove: (view) => view.legal_moves[0] };
const accepted = new AbortController(); // done once it accepted; else given up after 4 s
const stopped = AbortSignal.any([accepted.signal, AbortSignal.timeout(4000)]);
const log = (line) => line.startsWith("accepted invitation") && accepted.abort();
const stats = await runBot(bot, client, { acceptInvitations: true, wait: 1, signal: stopped, log });
console.log(JSON.stringify({ created, ...stats }));
"""


def test_run_bot_accepts_an_invitation_made_before_its_stream_opened(
    served: Served, tmp_path: Path
) -> None:
    """An invitation made between runBot's first look at ``GET /v1/me/invitations`` and the
    moment its turn stream listens is never pushed: runBot looks again once the stream is
    open, so the seat is taken and the game starts (before, it stayed ``waiting``)."""
    anyone = Client(served.url)
    creator = anyone.players.register("ts-inviter")
    invitee = anyone.players.register("ts-invitee")
    body = {
        "game": "concerto",
        "options": SHORT,
        "seats": [creator["id"], invitee["id"], creator["id"], creator["id"]],
        "allow_multiple_seats": True,
    }
    harness = tmp_path / "invited.mjs"
    harness.write_text(INVITED_ON_CONNECT % {"index": (PACKAGE / "dist" / "index.js").as_uri()})
    done = subprocess.run(
        ["node", str(harness), served.url, invitee["token"], creator["token"], json.dumps(body)],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    game_id = json.loads(done.stdout)["created"]
    view = Client(served.url, creator["token"]).games.view(game_id)
    assert view["seats"][1]["player_id"] == invitee["id"], view["seats"]
    assert view["status"] != "waiting", view["status"]
