"""Deterministic bots for the scale-out and fault tests, over HTTP or in process.

A bot's choice depends only on the game, its version and the seat
(:func:`choose`), never on timing, so the same boards played by the same bots
give the same games whatever the processes do around them: that is what lets a
run disturbed by kills be compared with an undisturbed one.

:class:`HttpBots` are the players of a disturbed run: one thread per player
looping on ``/me/turns?wait=`` like a real bot, riding out refused connections,
5xx and lost races, and recording every move the server acknowledged (200).
:func:`play_in_process` is the undisturbed run: the same choices through the
service, with one scheduler in a thread.
"""

from __future__ import annotations

import contextlib
import hashlib
import itertools
import threading
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import redis
import requests

from server.services.bundle import Services
from tests.faults.procs import ADMIN_TOKEN
from tests.scheduler.support import ROUNDS_ONLY, scheduler


def choose(game_id: str, version: int, seat: int, legal: Sequence[Any]) -> Any:
    """The bot's move: a pure function of where the game is."""
    digest = hashlib.sha256(f"{game_id}:{version}:{seat}".encode()).digest()
    return legal[int.from_bytes(digest[:4], "big") % len(legal)]


@dataclass
class Ack:
    """A move the server answered 200 to: it must be in the game's record for good."""

    game_id: str
    version: int
    seat: int
    move: Any


@dataclass
class HttpBots:
    """One thread per player, each looping on ``me/turns`` and moving (see module doc).

    Args:
        urls: API base URLs; each request goes to the next one (several API processes).
        players: ``{"id", "token"}`` each.
    """

    urls: Sequence[str]
    players: Sequence[dict[str, Any]]
    wait: float = 1.0
    acks: list[Ack] = field(default_factory=list)
    refused: Counter = field(default_factory=Counter)
    unexpected: list[tuple[int, Any]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._threads = [
            threading.Thread(target=self._run, args=(p,), daemon=True) for p in self.players
        ]

    def start(self) -> HttpBots:
        for t in self._threads:
            t.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        for t in self._threads:
            t.join(30)

    def _call(
        self,
        session: requests.Session,
        url: str,
        method: str,
        path: str,
        token: str,
        body: Any = None,
    ) -> tuple[int, Any] | None:
        """One request; None when the server could not be reached or answered 5xx."""
        try:
            r = session.request(
                method,
                url + path,
                json=body,
                timeout=10,
                headers={"Authorization": f"Bearer {token}"},
            )
        except requests.RequestException:
            with self._lock:
                self.refused["connection"] += 1
            return None
        if r.status_code >= 500:
            with self._lock:
                self.refused[str(r.status_code)] += 1
            return None
        return r.status_code, r.json()

    def _run(self, player: dict[str, Any]) -> None:
        session = requests.Session()
        urls = itertools.cycle(self.urls)
        while not self._stop.is_set():
            got = self._call(
                session, next(urls), "GET", f"/v1/me/turns?wait={self.wait}", player["token"]
            )
            if got is None:
                session.close()  # a dead server's keep-alive connections are dead too
                self._stop.wait(0.05)
                continue
            status, body = got
            if status != 200:
                with self._lock:
                    self.unexpected.append((status, body))
                self._stop.wait(0.05)
                continue
            for turn in body["turns"]:
                legal = turn["view"]["legal_moves"]
                move = choose(turn["game_id"], turn["version"], turn["seat"], legal)
                answer = self._call(
                    session,
                    next(urls),
                    "POST",
                    f"/v1/games/{turn['game_id']}/moves",
                    player["token"],
                    {"move": move, "version": turn["version"], "seat": turn["seat"]},
                )
                if answer is None:
                    continue  # asked again next loop: a safe retry if it was accepted
                status, body = answer
                with self._lock:
                    if status == 200:
                        self.acks.append(Ack(turn["game_id"], turn["version"], turn["seat"], move))
                    elif status == 409:  # a race with our own retry, never a rule problem
                        self.refused[body["error"]["code"]] += 1
                    else:
                        self.unexpected.append((status, body))


# -------------------------------------------------------------- setting up a tournament
def admin(url: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {ADMIN_TOKEN}"}


def register(url: str, n: int, prefix: str = "bot") -> list[dict[str, Any]]:
    """``n`` players registered over HTTP."""
    with requests.Session() as s:
        return [
            s.post(f"{url}/v1/players", json={"name": f"{prefix}{i}"}, timeout=10).json()
            for i in range(n)
        ]


def open_tournament(url: str, players: Sequence[dict[str, Any]], **settings: Any) -> str:
    """A Concerto tournament created and entered (pairs of players) over HTTP, not started.

    The clock is long: a kill must never turn into a timeout, or the disturbed run
    would not be comparable with the undisturbed one.
    """
    body = {
        "game": "concerto",
        "format": "round_robin",
        "options": {"deals": 1},
        "clock": {"move_seconds": 600},
        "timeout_policy": {"kind": "default_move"},
        **settings,
    }
    with requests.Session() as s:
        made = s.post(f"{url}/v1/tournaments", json=body, headers=admin(url), timeout=10)
        assert made.status_code == 201, made.text
        tid = made.json()["id"]
        for i in range(0, len(players), 2):
            entered = s.post(
                f"{url}/v1/tournaments/{tid}/entries",
                headers=admin(url),
                json={"players": [p["id"] for p in players[i : i + 2]]},
                timeout=10,
            )
            assert entered.status_code == 201, entered.text
    return tid


def start(url: str, tid: str) -> None:
    r = requests.post(f"{url}/v1/tournaments/{tid}/start", json={}, headers=admin(url), timeout=10)
    assert r.status_code == 200, r.text


def show(url: str, tid: str) -> dict[str, Any] | None:
    """The tournament over HTTP, or None while the server is away."""
    with contextlib.suppress(requests.RequestException, ValueError):
        r = requests.get(f"{url}/v1/tournaments/{tid}", timeout=5)
        if r.status_code == 200:
            return r.json()
    return None


# -------------------------------------------------------------- the undisturbed run
def copy_redis(src: redis.Redis, dst: redis.Redis) -> int:
    """Every key of ``src`` into the (emptied) ``dst``: the same players, tokens,
    tournament and entries, so that both runs play the same boards."""
    dst.flushdb()
    n = 0
    for key in src.scan_iter(count=1000):
        dst.restore(key, 0, src.dump(key), replace=True)
        n += 1
    return n


def play_in_process(
    service: Services, tid: str, players: Sequence[dict[str, Any]], timeout: float = 60
) -> dict[str, Any]:
    """Start the tournament and play it with the same bots, one scheduler, no faults."""
    tours = service.tournaments
    tours.start(ADMIN_TOKEN, tid)
    due: set[str] = set()  # who may have a turn: who had one, or was just handed one

    def ask(only_due: bool) -> bool:
        nonlocal due
        moved = False
        asked, due = due, set()
        for p in players:
            if only_due and p["id"] not in asked:
                continue  # its answer would be empty
            for turn in service.feeds.turns(p["token"])["turns"]:
                move = choose(
                    turn["game_id"], turn["version"], turn["seat"], turn["view"]["legal_moves"]
                )
                shown = service.games.move(
                    p["token"], turn["game_id"], move, turn["version"], turn["seat"]
                )
                moved = True
                due.add(p["id"])
                handed = {shown["seats"][s]["player_id"] for s in shown["to_move"]}
                due |= handed
                asked |= handed  # later in this pass, as asking everyone would
        return moved

    def step() -> bool:
        """The players due, else everyone (a new round's games): the moves are pure
        functions of the games (:func:`choose`), so fewer polls change nothing."""
        return (ask(only_due=True) if due else False) or ask(only_due=False)

    # the players always move in time: a scheduler pass only starts the next round
    with scheduler(service, interval=ROUNDS_ONLY):
        deadline = time.monotonic() + timeout
        while True:
            assert time.monotonic() < deadline, "timed out playing the undisturbed run"
            if step():
                continue
            # read only after a step that made no move: while a game takes moves the
            # tournament is not over (its show, standings and all, costs more than a step)
            shown = tours.show(tid)
            if shown["status"] == "finished":
                return shown
            time.sleep(0.02)  # the scheduler starts the next round


def outcome(shown: dict[str, Any]) -> dict[str, Any]:
    """What must not depend on how the tournament was run: standings and every table's
    game and result."""
    tables = sorted(
        (
            rd["index"],
            t["table"],
            t["game_id"],
            tuple(t["entries"]),
            tuple((t.get("result") or {}).get("scores") or ()),
        )
        for rd in shown["rounds"]
        for t in rd["tables"]
    )
    standings = [
        {k: s[k] for k in ("rank", "entry", "players", "points", "played")}
        for s in shown["standings"]
    ]
    return {"status": shown["status"], "tables": tables, "standings": standings}


SHOW_EVERY = 0.25
"""Seconds between reads of a tournament over HTTP while waiting for its end: each is
the whole tournament (rounds, tables, standings) built by an API worker, and reading
it 20 times a second cost more CPU than the bots' own requests."""


def wait_until(predicate, timeout: float, what: str, every: float = 0.05) -> None:
    """Poll ``predicate`` every ``every`` seconds; fail after ``timeout``."""
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(every)
