"""A third-party generator as a conformance check of ``openapi.yaml``.

openapi-python-client (a dev dependency) generates a Python client from the committed
spec (with the repository's ``openapi-python-client.yaml``), once per session, with its
default post-hooks (ruff, from the dev extra): it must
say nothing, no warning and no error (a warning means it dropped or misread part of the
spec). Then a game of every option set the third-party suites judge
(tests/train/option_sets.py: every game, rule edition, variant and table size) is played
to its end over a real socket with only that client: a player registered, the games
created and joined, turns read, views read, moves chosen from the views' legal moves and
sent, errors received, and each finished game's replay, last frame and events page read,
all as the generated models; no dict is built or read by hand. What the generator cannot
parse (an answer that does not match its schema) fails the test, and so does an answer
the client kept as raw JSON: a dict where a model was due (the generated code falls back
to the JSON where no schema of a union parses), or a field no schema names.
"""

from __future__ import annotations

import functools
import importlib
import os
import random
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType
from typing import Any

import attrs
import pytest

from server.games import find_game
from tests import spec
from tests.conftest import ADMIN_TOKEN
from tests.per_game import check_covers
from tests.train.option_sets import OPTION_SETS
from tests.train.option_sets import ids as option_set_ids

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


# Every game in every option set the third-party suites judge (tests/train/option_sets.py:
# each rule edition, variant and table size, one deal each), so that each game's models
# meet every shape its answers take (two-player Cowpoke's dummy, 6 and 8 seats...).
@pytest.fixture(scope="module")
def views(gen) -> dict[str, type]:
    """Each game's view model, by the spec's `View` discriminator (its schema's name)."""
    mapping = spec.document()["components"]["schemas"]["View"]["discriminator"]["mapping"]
    return {game: getattr(gen.models, ref.rsplit("/", 1)[1]) for game, ref in mapping.items()}


def test_every_game_is_played_and_has_its_view_model(views) -> None:
    check_covers({g for g, _ in OPTION_SETS}, "OPTION_SETS")
    check_covers(views, "the spec's View mapping")


def call(operation: str, **kwargs: Any) -> Any:
    """One generated operation (``api.<tag>.<operationId>``): its status and parsed model,
    every part of it parsed into the spec's models (:func:`unparsed` finds none left)."""
    response = importlib.import_module(f"{PACKAGE}.api.{operation}").sync_detailed(**kwargs)
    parsed = response.parsed
    assert parsed is not None, (response.status_code, response.content)
    left = unparsed(parsed)
    assert not left, f"{operation}: not parsed into the spec's models: {left}"
    return response.status_code, parsed


def unparsed(value: Any, path: str = "") -> list[str]:
    """Where the generated client kept raw JSON: a dict of the answer where a model was due
    (the generator falls back to the JSON itself where no schema of a union parses), or a
    field the model's schema does not name (its ``additional_properties``, on a model that
    names its fields; a free-form object such as ``options`` names none)."""
    if _parsed(value):
        return []  # (the quick look, for every answer; the paths only when it fails)
    if isinstance(value, dict):
        return [path or "the answer"]
    if isinstance(value, list):
        return [p for i, v in enumerate(value) for p in unparsed(v, f"{path}[{i}]")]
    named = _named(type(value))
    if named is None:
        return []
    left = []
    extra = set(getattr(value, "additional_properties", {}))
    if named and extra:
        left.append(f"{path}.{{{', '.join(sorted(extra))}}} (in {type(value).__name__})")
    for name in named:
        left += unparsed(getattr(value, name), f"{path}.{name}")
    return left


def _parsed(value: Any) -> bool:
    """No raw JSON in ``value`` (:func:`unparsed` finds nothing there)."""
    if isinstance(value, list):
        return all(map(_parsed, value))
    if isinstance(value, dict):
        return False
    named = _named(type(value))
    if named is None:
        return True
    extra = getattr(value, "additional_properties", None)
    if named and extra:
        return False
    return all(_parsed(getattr(value, name)) for name in named)


@functools.cache
def _named(model: type) -> tuple[str, ...] | None:
    """A model's fields but ``additional_properties``; None for what is not a model."""
    if not attrs.has(model):
        return None
    return tuple(f.name for f in attrs.fields(model) if f.name != "additional_properties")


def test_raw_json_is_found() -> None:
    """:func:`unparsed` can fail: a dict where a model was due, a field no schema names."""

    @attrs.define
    class Model:
        x: Any
        additional_properties: dict[str, Any] = attrs.field(factory=dict)

    assert unparsed(Model([1, {"a": 1}])) == [".x[1]"]
    extra = Model(1)
    extra.additional_properties["y"] = 2
    assert unparsed(extra) == [".{y} (in Model)"]
    assert unparsed(Model(Model(2))) == []


def test_every_game_and_option_set_with_only_the_generated_client(gen, views, live_server):
    """One player holds every seat of a game of each option set, and plays them all at once
    as a bot would: each `GET /v1/me/turns` names every game's seat to move, with its view;
    one move per game is sent from the view's legal moves, until no turn is left. Before
    that, each game refuses an illegal move and a stale one; after, each finished game's
    view, replay, last frame and events page are read."""
    models = gen.models
    from_client = importlib.import_module(f"{gen.__name__}.client")
    admin = from_client.AuthenticatedClient(base_url=live_server.url, token=ADMIN_TOKEN)
    status, player = call(
        "players.register_player", client=admin, body=models.PlayerCreate(name="gen-bot")
    )
    assert status == 201 and isinstance(player, models.PlayerCreated)
    me = from_client.AuthenticatedClient(base_url=live_server.url, token=player.token)

    tables: dict[str, tuple[str, str]] = {}  # game id -> (option set, game)
    for (game, options), label in zip(OPTION_SETS, option_set_ids(), strict=True):
        with told(label):
            body = models.GameCreate(
                game=game,
                options=models.GameCreateOptionsType0.from_dict(options),
                allow_multiple_seats=True,
            )
            status, view = call("games.create_game", client=me, body=body)
            assert status == 201 and isinstance(view, views[game]), view
            while view.status.value == "waiting":
                status, view = call(
                    "games.join_game", game_id=view.id, client=me, body=models.Join()
                )
                assert status == 200 and isinstance(view, views[game]), view
            assert len(view.seats) == options.get("players", 4)
            refuse_two_moves(models, me, view.id, game)
            tables[view.id] = (label, game)

    # The bot loop: the turns name each game's seats to move and carry their views; one
    # move per game is sent, with the turn's version. Each game's seat to move has its
    # view read on its own now and then too.
    rng = random.Random(1)
    moves = dict.fromkeys(tables, 0)
    while True:
        status, turns = call("turns.get_turns", client=me)
        assert status == 200 and isinstance(turns, models.Turns)
        if not turns.turns:
            break
        first = {turn.game_id: turn for turn in reversed(turns.turns)}  # (several may move)
        for game_id, turn in first.items():
            label, game = tables[game_id]
            with told(label):
                assert isinstance(turn.view, views[game]), turn.view
                if moves[game_id] % 20 == 0:
                    status, mine = call(
                        "games.get_game", game_id=game_id, client=me, seat=turn.seat
                    )
                    assert status == 200 and isinstance(mine, views[game]), mine
                    assert mine.version == turn.version
                    assert mine.legal_moves == turn.view.legal_moves
                move = rng.choice(turn.view.legal_moves)
                status, view = call(
                    "games.make_move",
                    game_id=game_id,
                    client=me,
                    body=models.MoveRequest(move=move, version=turn.version, seat=turn.seat),
                )
                assert status == 200 and isinstance(view, views[game]), view
                assert view.version == turn.version + 1
                moves[game_id] += 1
                assert moves[game_id] < 2000, "the game does not end"

    for game_id, (label, game) in tables.items():
        with told(label):
            read_the_finished_game(models, me, game_id, views[game], moves[game_id])


def refuse_two_moves(models: ModuleType, me: Any, game_id: str, game: str) -> None:
    """An illegal move (422: the error names the legal moves, as models of the game's moves)
    and a stale one (409); after both, nothing moved."""
    status, mine = call("games.get_game", game_id=game_id, client=me)
    assert status == 200 and mine.to_move, mine
    seat = mine.to_move[0]
    status, mine = call("games.get_game", game_id=game_id, client=me, seat=seat)
    legal = mine.legal_moves
    # the first move of the game's action space the seat may not make now, parsed by the
    # generated client into its model (one of the game's moves)
    shown = [m.to_dict() for m in legal]
    illegal = next(
        m for m in map(find_game(game).move_of, find_game(game).actions) if m not in shown
    )
    body = models.MoveRequest.from_dict({"move": illegal, "version": mine.version, "seat": seat})
    assert not unparsed(body), illegal  # a model of one of the game's moves
    status, error = call("games.make_move", game_id=game_id, client=me, body=body)
    assert status == 422 and error.error.code == "illegal_move", error
    assert error.error.details.legal_moves == legal
    status, error = call(
        "games.make_move",
        game_id=game_id,
        client=me,
        body=models.MoveRequest(move=legal[0], version=mine.version + 1, seat=seat),
    )
    assert status == 409 and error.error.code == "stale_version", error
    status, again = call("games.get_game", game_id=game_id, client=me, seat=seat)
    assert status == 200 and again.version == mine.version, "a refused move changed the game"


def read_the_finished_game(
    models: ModuleType, me: Any, game_id: str, view_model: type, moves: int
) -> None:
    """The finished game's view and result, its replay, last frame and events page, all as
    the generated models; each event the model of its kind."""
    status, final = call("games.get_game", game_id=game_id, client=me)
    assert status == 200 and isinstance(final, view_model)
    assert final.status.value == "finished" and final.version == moves
    assert isinstance(final.result, models.ResultType0), final.result
    assert final.result.scores and all(isinstance(n, int) for n in final.result.scores)
    status, replay = call("games.get_replay", game_id=game_id, client=me)
    assert status == 200 and isinstance(replay, models.Replay), replay
    assert replay.version == moves and replay.result == final.result
    assert isinstance(replay.revealed, models.ReplayRevealedType0)
    assert len(replay.revealed.hands) == len(final.seats)
    status, frame = call("games.get_replay_frame", game_id=game_id, version=moves, client=me)
    assert status == 200 and isinstance(frame, models.Frame)
    assert isinstance(frame.public, view_model) and frame.public.result == final.result
    assert len(frame.views) == len(final.seats)
    assert all(isinstance(v, view_model) for v in frame.views)
    status, events = call("games.get_events", game_id=game_id, client=me)
    assert status == 200 and isinstance(events, models.Events)
    assert events.events and events.last == events.events[-1].seq
    for read in (replay.events, events.events):
        kinds = [(e.kind, type(e).__name__) for e in read]
        assert all(name == event_model(kind) for kind, name in kinds), kinds
    assert {e.kind for e in replay.events} >= {"deal", "game_over"}


@contextmanager
def told(label: str) -> Iterator[None]:
    """A failure inside names the option set whose game failed."""
    try:
        yield
    except Exception as e:
        e.add_note(f"(the game of {label})")
        raise


def event_model(kind: str) -> str:
    """The model of an event kind, as the spec names its schema: ``deal_end`` -> DealEndEvent."""
    return "".join(w.capitalize() for w in kind.split("_")) + "Event"


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
