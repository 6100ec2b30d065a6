"""The TypeScript client (client_sdk/typescript) and the example bot written with it.

* its types are what openapi-typescript makes of today's openapi.yaml (a stale
  ``src/openapi.ts`` fails here: ``npm run generate`` in client_sdk/typescript);
* the package, the example bots and a bot on openapi-fetch alone compile with ``strict``
  on (the build's ``tsc``), and none casts;
* against a real ``parlour serve``, a game of every option set the third-party suites
  judge (tests/train/option_sets.py) is played to its end by two clients sharing its
  seats, at once: the example bot, compiled, in one run, and a bot on openapi-fetch
  alone (tests/sdk/openapi_fetch_bot.ts: docs/clients.md's recipe, no parlour-client);
  then each reads every game's replay and events page (the example replay report and
  the openapi-fetch bot), and what each read is what the server sent;
* the example bot takes a seat in an open game, and enters a ladder to play the house bots;
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
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from client_sdk import Client
from server.games import REGISTRY
from server.processes.served import Served, free_port
from tests import typescript
from tests.per_game import check_covers
from tests.train.option_sets import OPTION_SETS
from tests.train.option_sets import ids as option_set_ids
from tests.typescript import (
    EXAMPLE_BOT,
    EXAMPLES,
    FETCH,
    FETCH_BOT,
    FETCH_BOT_SOURCE,
    PACKAGE,
    ROOT,
)

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


@pytest.mark.parametrize(
    "folder", [PACKAGE, EXAMPLES, FETCH], ids=["package", "examples", "openapi-fetch"]
)
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
    sources = [
        *sorted(EXAMPLES.glob("*.ts")),
        *sorted((PACKAGE / "src").glob("*.ts")),
        FETCH_BOT_SOURCE,
    ]
    assert EXAMPLES / "random_bot.ts" in sources
    for path in sources:
        if path.name == "openapi.ts":
            continue  # generated: types only
        code = code_of(path.read_text(encoding="utf-8"))
        for pattern, what in CASTS:
            found = pattern.search(code)
            assert found is None, f"{path.relative_to(ROOT)}: {what}: {found and found.group()}"


def test_two_clients_play_every_game_and_option_set_together(served: Served) -> None:
    """A game of every option set the third-party suites judge (tests/train/option_sets.py:
    every game, rule edition, variant and table size), its seats shared by two players,
    each a client of its own, both running at once until every game is over:

    * the example bot (bots/examples/random_bot.ts on parlour-client), in one run: its
      types take every game's views and moves without a cast; then the example replay
      report (bots/examples/replay_report.ts) reads each game's replay and events page;
    * a bot on openapi-fetch and openapi-typescript's types alone (docs/clients.md's
      recipe: tests/sdk/openapi_fetch_bot.ts), which then reads each game's view, replay,
      last frame and events page through the generated types.

    What each client read is what the server answers: the report's lines, and each value
    the openapi-fetch bot read at a path of an answer (a property the spec names that the
    server does not send fails here)."""
    check_covers({g for g, _ in OPTION_SETS}, "OPTION_SETS")
    anyone = Client(served.url)
    example, fetcher = (anyone.players.register(f"ts-{who}-bot") for who in ("example", "fetch"))
    admin = Client(served.url, served.admin_token)  # seats anyone
    labels = {}  # game id -> option set
    for (game, options), label in zip(OPTION_SETS, option_set_ids(), strict=True):
        seats = len(REGISTRY[game].new_state(options, "seats").seat_scores())
        # the first half of the seats and the second (fewer hand-overs than every other seat)
        players = [(example, fetcher)[2 * seat // seats]["id"] for seat in range(seats)]
        view = admin.games.create(game, options, players, allow_multiple_seats=True)
        assert view["status"] == "active", (label, view["status"])
        labels[view["id"]] = label
    tables = json.dumps(list(labels.items()))  # [[game id, option set], ...]
    bots = [
        subprocess.Popen(
            ["node", str(EXAMPLE_BOT), "--server", served.url, "--token", example["token"],
             "--games", str(len(labels)), "--wait", "1"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        ),
        subprocess.Popen(
            ["node", str(FETCH_BOT), served.url, fetcher["token"], tables],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        ),
    ]  # fmt: skip
    try:
        (example_out, example_err), (fetch_out, fetch_err) = (
            b.communicate(timeout=240) for b in bots
        )
    finally:
        for bot in bots:
            bot.kill()
    assert bots[0].returncode == 0, example_err
    assert bots[1].returncode == 0, fetch_out + fetch_err
    finals = {game_id: anyone.games.view(game_id) for game_id in labels}
    unfinished = [labels[g] for g, view in finals.items() if view["status"] != "finished"]
    assert not unfinished, unfinished
    played = [json.loads(line) for line in fetch_out.splitlines()]
    assert [(p["id"], p["label"]) for p in played] == list(labels.items())
    example_moves = sum(view["version"] for view in finals.values()) - sum(
        p["moves"] for p in played
    )
    assert f"random_bot: {example_moves} moves, {len(labels)} games finished" in example_out

    mine = Client(served.url, fetcher["token"])
    for game in played:
        game_id, label = game["id"], game["label"]
        assert game["player"] == fetcher["id"] and game["moves"] > 0, label
        answers = {
            "view": mine.games.view(game_id),
            "replay": mine.games.replay(game_id),
            "frame": mine.games.replay_frame(game_id, finals[game_id]["version"]),
            "events": mine.games.events(game_id),
        }
        for document, read in game["read"].items():
            for path, value in read.items():
                assert value == at(answers[document], path), (label, document, path)

    done = subprocess.run(
        ["node", str(EXAMPLES / "dist" / "replay_report.js"), "--server", served.url,
         "--token", example["token"], *labels],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    reports = [json.loads(line) for line in done.stdout.splitlines()]
    assert [r["id"] for r in reports] == list(labels)
    theirs = Client(served.url, example["token"])
    for report in reports:
        replay, page = theirs.games.replay(report["id"]), theirs.games.events(report["id"])
        result, revealed = replay["result"], replay["revealed"]
        assert report == {
            "id": replay["id"],
            "game": replay["game"],
            "status": "finished",
            "moves": finals[report["id"]]["version"],
            "seats": [{"seat": s["seat"], "name": s["name"]} for s in replay["seats"]],
            "scores": result["scores"],
            "winners": result["winners"],
            "termination": result["termination"],
            "seed": revealed["seed"],
            "hands": [len(hand) for hand in revealed["hands"]],
            "events": dict(Counter(e["kind"] for e in replay["events"])),
            "page": {
                "last": page["last"],
                "events": dict(Counter(e["kind"] for e in page["events"])),
            },
        }, labels[report["id"]]


def at(document: Any, path: str) -> Any:
    """The value at ``path`` in a JSON document: keys joined by dots, ``*`` for each item
    of a list (``seats.*.name``); a missing key is :data:`MISSING`.

    >>> at({"a": [{"b": 1}, {"b": 2}], "c": None}, "a.*.b"), at({"c": None}, "c.d")
    ([1, 2], '(missing)')
    """
    head, _, rest = path.partition(".")
    if head == "*":
        return [at(item, rest) if rest else item for item in document]
    if not isinstance(document, dict) or head not in document:
        return MISSING
    return at(document[head], rest) if rest else document[head]


MISSING = "(missing)"
"""What :func:`at` finds where the answer has no such key, and what the script says it
read where its typed property was ``undefined``: the two match only where both miss."""


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
