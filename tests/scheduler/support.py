"""Helpers for the tournament tests: players, a tournament set up in one call, random
movers, a scheduler thread, and the exactly-once checks shared by several tests."""

from __future__ import annotations

import contextlib
import random
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from redis import Redis

from server.games import GameError
from server.processes.scheduler import Runner
from server.services.brackets import snapshot
from server.services.bundle import Services
from server.services.errors import ServiceError
from server.services.rounds import table_game_id
from server.services.tournaments import Tournaments
from server.store import keys
from server.store.errors import StoreError
from server.store.tournaments import read
from server.tournaments.formats import rating_events
from tests.conftest import ADMIN_TOKEN


def register(service: Services, n: int, prefix: str = "p") -> list[dict[str, str]]:
    """``n`` players: ``{"id", "name", "token"}`` each."""
    return [service.players.register(None, f"{prefix}{i}") for i in range(n)]


def make_tournament(
    tours: Tournaments,
    players: Sequence[dict[str, str]],
    *,
    seats_per_entry: int,
    start: bool = True,
    **settings: Any,
) -> str:
    """Create (as the admin), enter ``players`` in groups of ``seats_per_entry``, start."""
    tid = tours.create(ADMIN_TOKEN, **settings)["id"]
    for i in range(0, len(players), seats_per_entry):
        tours.enter(ADMIN_TOKEN, tid, [p["id"] for p in players[i : i + seats_per_entry]])
    if start:
        tours.start(ADMIN_TOKEN, tid)
    return tid


class Movers:
    """Players that move at random through the service, each with its own token.

    Each pass asks awake players for their turns (``/me/turns`` without waiting) and
    plays a random legal move for each. Errors a real bot meets (someone else moved
    first, the clock moved for it) are counted, not raised.

    A pass asks first only the players who may have a turn: those whose last answer
    held turns, and those a move just made was handed to (the ``to_move`` of the view
    a move returns); everyone else's answer would be empty. Only when that makes no
    move (a new round's games, a move the clock made) does it ask every awake player.
    Empty answers draw nothing from the random source, so the moves are those of
    asking everyone every pass, for a fraction of the polls.
    """

    def __init__(
        self,
        service: Services,
        players: Sequence[dict[str, str]],
        seed: int = 0,
        asleep: Sequence[str] = (),
    ) -> None:
        self.service = service
        self.players = list(players)
        self.rng = random.Random(seed)
        self.asleep = set(asleep)
        self.moves = 0
        self.polls = 0
        self.refused: Counter[str] = Counter()
        self.due: set[str] = set()  # who may have a turn (see the class doc)

    def step(self) -> int:
        """One pass (of the players due, else of everyone); returns the moves made."""
        return (self._pass(only_due=True) if self.due else 0) or self._pass(only_due=False)

    def _pass(self, only_due: bool) -> int:
        made = 0
        due, self.due = self.due, set()
        for p in self.players:
            if p["id"] in self.asleep or (only_due and p["id"] not in due):
                continue
            self.polls += 1
            turns = self.service.feeds.turns(p["token"])["turns"]
            if turns:
                self.due.add(p["id"])  # asked again next pass, whether it moves or not
            for turn in turns:
                move = self.rng.choice(turn["view"]["legal_moves"])
                try:
                    shown = self.service.games.move(
                        p["token"], turn["game_id"], move, turn["version"], turn["seat"]
                    )
                    made += 1
                except (ServiceError, StoreError, GameError) as exc:
                    self.refused[type(exc).__name__] += 1
                    continue
                handed = {shown["seats"][s]["player_id"] for s in shown["to_move"]}
                due |= handed  # later in this pass: asked now, as a full pass would
                self.due |= handed
        self.moves += made
        return made


def wait_for(
    predicate: Callable[[], bool],
    timeout: float,
    step: Callable[[], Any] | None = None,
    pause: float = 0.01,
) -> None:
    """Call ``step`` (if any) until ``predicate()`` holds; fail after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "timed out"
        if step is None or not step():
            time.sleep(pause)


def status(tours: Tournaments, tid: str) -> str:
    return tours.show(tid)["status"]


def play_out(tours: Tournaments, tid: str, movers: Movers, timeout: float = 60) -> dict:
    """Move until the tournament is over (a scheduler must be running); return it.

    Its status is read only after a pass that made no move: while a game still takes
    moves the tournament is not over, and reading it (standings and all) every pass
    cost more than the polls. An idle pass (every player asked) waits 50 ms for the
    scheduler to start the next round: passes 10 ms apart asked each player several
    times per scheduler pass for nothing."""
    deadline = time.monotonic() + timeout
    while True:
        assert time.monotonic() < deadline, "timed out"
        if movers.step():
            continue
        if status(tours, tid) in ("finished", "aborted"):
            return tours.show(tid)
        time.sleep(0.05)


ROUNDS_ONLY = 0.1
"""A scheduler interval for tournaments whose players always move in time: a pass then
only starts the next round (and ends the last), so passes 20 ms apart were mostly
empty, each reading the tournament and its games; 100 ms apart a round starts at most
that late."""


@contextlib.contextmanager
def scheduler(service: Services, interval: float = 0.02) -> Iterator[Runner]:
    """A :class:`Runner` in a thread for the duration of the block."""
    runner = Runner(service, interval=interval)
    stop = threading.Event()
    thread = threading.Thread(target=runner.run, args=(stop,), daemon=True)
    thread.start()
    try:
        yield runner
    finally:
        stop.set()
        thread.join(10)
        assert not thread.is_alive()


# ------------------------------------------------------------------ exactly-once checks


def all_game_ids(r: Redis) -> set[str]:
    """Every game stored in Redis (the hash of each game, found by SCAN)."""
    pattern = keys.game_state("*")
    return {k.decode().split("{")[1].split("}")[0] for k in r.scan_iter(match=pattern)}


def assert_exactly_once(service: Services, tours: Tournaments, tid: str) -> dict:
    """Every table has exactly one game, the derived one; every result matches its game;
    every rated game was applied once. Returns the finished tournament."""
    shown = tours.show(tid)
    assert shown["status"] == "finished", shown["status"]
    tables = [(rd["index"], t) for rd in shown["rounds"] for t in rd["tables"]]
    expected = {table_game_id(tid, r, t["table"]) for r, t in tables}
    assert {t["game_id"] for _, t in tables} == expected
    assert all_game_ids(service.core.r) >= expected
    assert len(tables) == shown["progress"]["games_finished"] == shown["progress"]["games_started"]
    if shown["progress"]["games_planned"] is not None:
        assert shown["progress"]["games_planned"] == len(tables)

    # each game was created once and never reset: one move record per version
    for _, t in tables:
        view = service.games.view(None, t["game_id"])
        assert view["status"] in ("finished", "aborted")
        assert t["result"] is not None
        assert service.core.r.hlen(keys.game_moves(t["game_id"])) == view["version"]

    # each rated game applied once: the players' game counts add up
    game = shown["game"]
    events = rating_events(snapshot(read(service.core.r, tid)))
    per_player = Counter(p for e in events for team in e.teams for p in team)
    board = {
        row["player_id"]: row["games"] for row in service.ratings.leaderboard(game)["leaderboard"]
    }
    assert board == dict(per_player)
    applied = {m.decode() for m in service.core.r.smembers(keys.ratings_applied(game))}
    assert applied == {f"{tid}:{e.key}" for e in events}
    return shown


def entry_points_from_games(service: Services, shown: dict) -> dict[str, float]:
    """Points per entry worked from each game's own result (its view), independently of the
    scheduler's records, for tables of two entries: the winning side 1, a draw ½ each, a
    forfeit 0 for the entry that forfeited; a bye in a round robin or duplicate ½
    (formats.BYE_POINTS). In duplicate, the contests of a round are its two directions:
    the entries that held the same cards (the same table position) at its tables,
    ranked by their nets (own score minus the opponent's) summed over the round's
    boards; an entry gets (beaten + ½ tied) / (others in its direction)."""
    points: Counter[str] = Counter()
    for rd in shown["rounds"]:
        for e in rd["byes"]:
            points[e] += 0.5
        if shown["format"] == "duplicate":
            nets: list[Counter[str]] = [Counter(), Counter()]
            for t in rd["tables"]:
                scores = service.games.view(None, t["game_id"])["result"]["scores"]
                for seat in range(2):
                    nets[seat][t["seats"][seat]] += scores[seat] - scores[1 - seat]
            for field in nets:
                for e, net in field.items():
                    others = [n for o, n in field.items() if o != e]
                    beaten = sum(1 for n in others if n < net) + 0.5 * others.count(net)
                    points[e] += beaten / len(others)
            continue
        for t in rd["tables"]:
            result = service.games.view(None, t["game_id"])["result"]
            seats = t["seats"]
            if result.get("forfeit") is not None:
                loser = seats[result["forfeit"]]
                for e in t["entries"]:
                    points[e] += 0 if e == loser else 1
                continue
            winners = {seats[s] for s in result["winners"]}
            for e in t["entries"]:
                points[e] += 1 if e in winners else 0.5 if not winners else 0
    return dict(points)
