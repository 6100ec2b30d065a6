"""A third-party generator as a conformance check of ``openapi.yaml``.

openapi-python-client (a dev dependency) generates a Python client from the committed
spec (with the repository's ``openapi-python-client.yaml``), once per session, with its
default post-hooks (ruff, from the dev extra): it must
say nothing, no warning and no error (a warning means it dropped or misread part of the
spec). Then each of the four games is played to its end over a real socket with only
that client: players registered, the game created and joined, turns read, views read,
moves chosen from the view's legal moves and sent, errors received, all as the
generated models; no dict is built or read by hand. What the generator cannot parse
(an answer that does not match its schema) fails the test.
"""

from __future__ import annotations

import importlib
import os
import random
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from tests.conftest import ADMIN_TOKEN

ROOT = Path(__file__).resolve().parents[2]
OPERATIONS = [
    "api.players.register_player",
    "api.games.create_game",
    "api.games.join_game",
    "api.games.get_game",
    "api.games.make_move",
    "api.turns.get_turns",
]
PACKAGE = "parlour_client"  # as in docs/clients.md
BIN = Path(sys.executable).parent


@pytest.fixture(scope="session")
def generation(
    tmp_path_factory: pytest.TempPathFactory,
) -> tuple[subprocess.CompletedProcess, Path]:
    """openapi-python-client's run on openapi.yaml (its output, and where the package went)."""
    out = tmp_path_factory.mktemp("generated")
    generator = BIN / "openapi-python-client"
    assert generator.exists(), "openapi-python-client is missing: `pip install -e '.[dev]'`"
    env = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}"}
    done = subprocess.run(
        [str(generator), "generate", "--path", str(ROOT / "openapi.yaml"), "--meta", "none",
         "--config", str(ROOT / "openapi-python-client.yaml"), "--output-path", str(out / PACKAGE)],
        capture_output=True, text=True, env=env, cwd=out, timeout=300,
    )  # fmt: skip
    return done, out


@pytest.fixture(scope="session")
def gen(generation) -> ModuleType:
    """The generated package, imported (``gen.api``, ``gen.models``, ``gen.client``)."""
    done, out = generation
    assert done.returncode == 0, done.stdout + done.stderr
    sys.path.insert(0, str(out))
    try:
        package = importlib.import_module(PACKAGE)
        for name in ("models", "client", "types", *OPERATIONS):
            importlib.import_module(f"{PACKAGE}.{name}")
    finally:
        sys.path.remove(str(out))
    return package


def test_the_generator_has_nothing_to_say(generation):
    done, out = generation
    said = (done.stdout + done.stderr).strip()
    assert done.returncode == 0, said
    # Its whole output when all is well: the line naming where it generated.
    assert said == f"Generating {out / PACKAGE}", said
    assert (out / PACKAGE / "api" / "games" / "make_move.py").exists()


# Short games: one deal each (Seconds has no such option: its game is one deal already).
GAMES = [
    ("concerto", {"deals": 1}),
    ("seconds", {}),
    ("cowpoke", {"players": 2, "hands": 1}),
    ("pinochle", {"variant": "partnership", "max_deals": 1}),
]


def call(operation: str, **kwargs: Any) -> Any:
    """One generated operation (``api.<tag>.<operationId>``): its status and parsed model."""
    response = importlib.import_module(f"{PACKAGE}.api.{operation}").sync_detailed(**kwargs)
    parsed = response.parsed
    assert parsed is not None, (response.status_code, response.content)
    assert not isinstance(parsed, dict | list), parsed
    return response.status_code, parsed


@pytest.mark.parametrize(("game", "options"), GAMES, ids=[g for g, _ in GAMES])
def test_a_whole_game_with_only_the_generated_client(gen, live_server, game, options):
    models = gen.models
    from_client = importlib.import_module(f"{gen.__name__}.client")
    views = {
        "concerto": models.ConcertoView,
        "seconds": models.SecondsView,
        "cowpoke": models.CowpokeView,
        "pinochle": models.PinochleView,
    }
    admin = from_client.AuthenticatedClient(base_url=live_server.url, token=ADMIN_TOKEN)
    status, player = call(
        "players.register_player", client=admin, body=models.PlayerCreate(name=f"gen-{game}")
    )
    assert status == 201 and isinstance(player, models.PlayerCreated)
    me = from_client.AuthenticatedClient(base_url=live_server.url, token=player.token)

    body_options = models.GameCreateOptionsType0.from_dict(options)
    status, view = call(
        "games.create_game",
        client=me,
        body=models.GameCreate(game=game, options=body_options, allow_multiple_seats=True),
    )
    assert status == 201 and isinstance(view, views[game]), view
    game_id = view.id
    while view.status.value == "waiting":
        status, view = call("games.join_game", game_id=game_id, client=me, body=models.Join())
        assert status == 200 and isinstance(view, views[game]), view

    # An illegal move: the error names the legal moves, as models of the game's moves.
    status, turns = call("turns.get_turns", client=me)
    assert status == 200 and isinstance(turns, models.Turns) and turns.turns, turns
    turn = turns.turns[0]
    legal = turn.view.legal_moves
    illegal = next(m for m in ILLEGAL[game](models) if m not in legal)
    status, error = call(
        "games.make_move",
        game_id=game_id,
        client=me,
        body=models.MoveRequest(move=illegal, version=turn.version, seat=turn.seat),
    )
    assert status == 422 and error.error.code == "illegal_move", error
    assert error.error.details.legal_moves == legal
    # A stale version: 409. After both, nothing moved.
    status, error = call(
        "games.make_move",
        game_id=game_id,
        client=me,
        body=models.MoveRequest(move=legal[0], version=turn.version + 1, seat=turn.seat),
    )
    assert status == 409 and error.error.code == "stale_version", error
    status, mine = call("games.get_game", game_id=game_id, client=me, seat=turn.seat)
    assert status == 200 and mine.version == turn.version, "a refused move changed the game"

    # The bot loop: the turns name the seat to move and carry its view; the move is one of
    # the view's legal moves. Every tenth turn the seat's view is also read on its own.
    rng = random.Random(game)
    moves = 0
    while turns.turns:
        turn = turns.turns[0]
        assert turn.game_id == game_id and isinstance(turn.view, views[game])
        if moves % 10 == 0:
            status, mine = call("games.get_game", game_id=game_id, client=me, seat=turn.seat)
            assert status == 200 and isinstance(mine, views[game]), mine
            assert mine.version == turn.version and mine.legal_moves == turn.view.legal_moves
        move = rng.choice(turn.view.legal_moves)
        status, view = call(
            "games.make_move",
            game_id=game_id,
            client=me,
            body=models.MoveRequest(move=move, version=turn.version, seat=turn.seat),
        )
        assert status == 200 and isinstance(view, views[game]), view
        assert view.version == turn.version + 1
        moves += 1
        assert moves < 2000, "the game does not end"
        status, turns = call("turns.get_turns", client=me)
        assert status == 200 and isinstance(turns, models.Turns)

    status, final = call("games.get_game", game_id=game_id, client=me)
    assert status == 200 and isinstance(final, views[game])
    assert final.status.value == "finished" and final.version == moves
    assert isinstance(final.result, models.ResultType0), final.result
    assert final.result.scores and all(isinstance(n, int) for n in final.result.scores)


# Moves of the game's own schema, the first one not among the seat's legal moves is sent:
# a card play of any card (a seat holds fewer than the deck), or Cowpoke's pass and call.
def cards(ranks: str) -> Callable[[ModuleType], list[Any]]:
    return lambda m: [m.PlayMove(type_="play", card=r + s) for r in ranks for s in "CDHS"]


ILLEGAL = {
    "concerto": cards("23456789TJQKA"),
    "seconds": cards("23456789TJQKA"),
    "cowpoke": lambda m: [m.PassMove(type_="pass"), m.CallMove(type_="call")],
    "pinochle": cards("9TJQKA"),
}


def test_the_docs_bot_plays_as_written(generation, gen, live_server, tmp_path):
    """docs/clients.md's Python bot, run as written against a real server."""
    page = (ROOT / "docs" / "clients.md").read_text(encoding="utf-8")
    marker = "<!-- the test suite runs this block as written"
    block = page.split(marker, 1)[1].split("```python\n", 1)[1].split("```", 1)[0]
    (tmp_path / "bot.py").write_text(block, encoding="utf-8")
    env = {**os.environ, "PARLOUR_SERVER": live_server.url, "PYTHONPATH": str(generation[1])}
    done = subprocess.run(
        [sys.executable, "bot.py"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.startswith("finished scores ["), done.stdout


def test_two_player_cowpoke_s_dummy_reads_in_the_generated_client(gen, live_server):
    """With two players the dummy's put-out is owned by ``"dummy"`` (docs/rules/cowpoke.md,
    W5): in the view's table and takes, and in the ``reveal``, ``take`` and ``out_of_play``
    events. The generated client parses each of them (a ``CowpokeOwner``: a seat, or the
    enum's one member): the views as the game is played, the events page and the replay."""
    models = gen.models
    from_client = importlib.import_module(f"{gen.__name__}.client")
    admin = from_client.AuthenticatedClient(base_url=live_server.url, token=ADMIN_TOKEN)
    _, player = call("players.register_player", client=admin, body=models.PlayerCreate(name="duo"))
    me = from_client.AuthenticatedClient(base_url=live_server.url, token=player.token)
    options = models.GameCreateOptionsType0.from_dict({"players": 2, "hands": 1})
    body = models.GameCreate(game="cowpoke", options=options, allow_multiple_seats=True)
    status, view = call("games.create_game", client=me, body=body)
    while view.status.value == "waiting":
        status, view = call("games.join_game", game_id=view.id, client=me, body=models.Join())
    game_id, rng, owners = view.id, random.Random("duo"), []
    status, turns = call("turns.get_turns", client=me)
    while turns.turns:
        turn = turns.turns[0]
        owners += [card.owner for card in turn.view.state.table]
        move = models.MoveRequest(
            move=rng.choice(turn.view.legal_moves), version=turn.version, seat=turn.seat
        )
        status, view = call("games.make_move", game_id=game_id, client=me, body=move)
        assert status == 200 and isinstance(view, models.CowpokeView), view
        status, turns = call("turns.get_turns", client=me)
    status, page = call("games.get_events", game_id=game_id, client=me, seat=0)
    assert status == 200 and isinstance(page, models.Events) and page.events
    status, replay = call("games.get_replay", game_id=game_id, client=me)
    assert status == 200 and isinstance(replay, models.Replay) and replay.status.value == "finished"

    def owned(events: list[Any]) -> list[Any]:
        """Every owner the ``take``, ``out_of_play`` and ``reveal`` events name."""
        found = [
            e.data.from_ for e in events if isinstance(e, models.TakeEvent | models.OutOfPlayEvent)
        ]
        return found + [
            p.owner for e in events if isinstance(e, models.RevealEvent) for p in e.data.put_outs
        ]

    dummy = models.CowpokeOwnerType1.DUMMY
    for named in (owners, owned(page.events), owned(replay.events)):
        assert dummy in named and 0 in named and 1 in named, named
        assert all(o is dummy or type(o) is int for o in named), named
