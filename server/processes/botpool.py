"""``parlour botpool``: the server's own bots, which play the ``"bot:<name>"`` seats.

An app that embeds Parlour names bots in a game's seats (``[null,
"bot:concerto_signals", ...]``) and runs no bot process of its own: this pool
plays them. It is an ordinary client of the HTTP API, exactly like an outside
bot — it imports ``client_sdk`` (which loads the bots by name) and, of the server, only
the pure engines' registry, whose Game records name each game's house bots
(``tests/test_architecture.py`` checks): the only privileged thing it does is one admin call,
``POST /v1/bots``, which creates (once) the pool's player identities and hands
back their tokens. Each identity is then driven by a :class:`~client_sdk.runner.Runner`
in a thread, taking the turns of every game it sits in from ``GET /v1/me/turns/stream``.
A runner that fails is logged and run again after a pause (1 s, doubling to a minute),
so no game that names a house bot waits for it for ever; one whose token the server
refuses (the admin rotated or revoked it) asks ``POST /v1/bots`` for it again first,
which restores the identity's derived token, and plays on with it.

``parlour serve`` starts one pool beside the API (like the scheduler). Several
pools may run against one server: the tokens are derived on the server, so
every pool gets the same ones, and a move sent twice is answered, not applied
twice.

**House ladders.** Unless told not to (``--no-ladders``, ``PARLOUR_HOUSE_LADDERS=off``),
the pool also makes sure that each game's main edition has a ladder (found by its
name, ``"<title> ladder"``, else defined with :attr:`~server.games.Game.ladder_options`: a restart
defines none again) and enters
on it, as the admin, a table less one of its identities: the game's best house bot
first, its weakest (``random``) last, the best again in between (:func:`lineup`).
Those entries never fill a table among themselves, so they play only with the bots
that join, and a bot that joins alone is matched at its first scheduler pass. The
pool's runners take those games like any other (their turn stream is what keeps
the entries "seen waiting").
"""

from __future__ import annotations

import logging
import os
import random
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from client_sdk import Client
from client_sdk.cli import load_bot
from client_sdk.errors import ConnectionError, Forbidden, ServerError, Unauthorized
from client_sdk.runner import Runner
from server.games import ANY_GAME_BOTS, REGISTRY, Game
from server.processes.daemon import log_as, orphaned, stop_on_signals

log = logging.getLogger("botpool")


@dataclass(frozen=True)
class BotSpec:
    """A bot of the pool: its installed name (``parlour.bots``), the games it plays (None: any)."""

    name: str
    games: tuple[str, ...] | None


def house_pool(registry: Mapping[str, Game] = REGISTRY) -> tuple[BotSpec, ...]:
    """Each game's house bots (its :attr:`Game.house_bots`), each for the games that list
    it, then the bots that play every game (``random``), in the registry's order.

    >>> pool = house_pool()
    >>> pool[-1], [b.games for b in pool if b.name == "pinochle"]
    (BotSpec(name='random', games=None), [('pinochle',)])
    """
    games: dict[str, list[str]] = {}
    for game in registry.values():
        for name in game.house_bots:
            games.setdefault(name, []).append(game.id)
    own = [BotSpec(name, tuple(ids)) for name, ids in games.items() if name not in ANY_GAME_BOTS]
    return (*own, *(BotSpec(name, None) for name in ANY_GAME_BOTS))


POOL = house_pool()
"""The bots a default pool plays: every game's house bots, then ``random``, so a visitor
of any game is seated with the bot that plays it best."""


def ladder_name(game: Game) -> str:
    """The name a house ladder is found by (the demo's too): ``"Concerto ladder"``."""
    return f"{game.title} ladder"


def lineup(game: Game, entries: int) -> list[str]:
    """The house bots entered on ``game``'s ladder: its best first, its weakest last,
    the best again in between.

    >>> from server.games import REGISTRY
    >>> lineup(REGISTRY["concerto"], 3)
    ['concerto_signals', 'concerto_greedy', 'random']
    >>> lineup(REGISTRY["seconds"], 3)
    ['seconds', 'seconds', 'random']
    """
    bots = list(game.bots())  # best first; random, the weakest, last
    if entries <= len(bots):
        return [*bots[: entries - 1], bots[-1]] if entries > 1 else bots[:1]
    return [bots[0]] * (entries - len(bots) + 1) + bots[1:]


class BotPool:
    """Registers the pool's identities through the admin API, then plays them.

    Args:
        server: the API root, e.g. ``http://127.0.0.1:8000``.
        admin_token: the server's admin token (only to learn the pool's tokens).
        bots: which bots to run.
        seats: identities per bot, i.e. how many seats of one game one bot may take.
            None (the default): the largest table of the games the bot plays, read
            from ``GET /v1/rules`` (eight for a bot that plays Pinochle), so that a
            game whose every seat, or every seat but a visitor's, names that bot can
            be filled.
        wait: long-poll seconds (also how long :meth:`stop` may take).
        seed: seeds the bots' random choices (reproducible tests); None: random.
        restart_pause: seconds before a runner that failed is run again; doubled after
            each failure in a row, up to ``max_restart_pause`` (a run that lasted that
            long starts the count again).
        ladders: define the house ladders and enter the pool's identities on them
            (see the module doc); :attr:`ladders` then maps each game to its ladder id.
    """

    def __init__(
        self,
        server: str,
        admin_token: str,
        *,
        bots: Sequence[BotSpec] = POOL,
        seats: int | None = None,
        wait: float = 20.0,
        seed: int | None = None,
        restart_pause: float = 1.0,
        max_restart_pause: float = 60.0,
        ladders: bool = False,
    ) -> None:
        self.server = server.rstrip("/")
        self.admin_token = admin_token
        self.bots = tuple(bots)
        self.seats = seats
        self._tables: dict[str, int] | None = None  # game -> its largest table, once asked
        self.wait = wait
        self._rng = random.Random(seed)
        self.restart_pause = restart_pause
        self.max_restart_pause = max_restart_pause
        self.restarts = 0
        """Times a failed runner was run again (all bots)."""
        self.runners: list[Runner] = []
        self._threads: list[threading.Thread] = []
        self._stopped = threading.Event()
        self.house_ladders = ladders
        self.ladders: dict[str, str] = {}
        """Each game's house ladder id, once :meth:`start` entered the pool on it."""

    def register(self, timeout: float = 30.0) -> list[dict[str, Any]]:
        """``POST /v1/bots`` until the server answers (it may still be starting).

        Returns:
            Per bot ``{"name", "games", "players": [{"id", "name", "token"}]}``.
        """
        deadline = time.monotonic() + timeout
        with Client(self.server, self.admin_token, max_retries=0) as admin:
            while True:
                try:
                    body = {"bots": [self._ask(b, admin) for b in self.bots]}
                    return admin.requestor.request("POST", "/v1/bots", json=body, idempotent=True)[
                        "bots"
                    ]
                except (ConnectionError, ServerError):
                    if time.monotonic() > deadline:
                        raise
                    time.sleep(0.2)

    def _ask(self, bot: BotSpec, admin: Client) -> dict[str, Any]:
        """What ``POST /v1/bots`` is asked for one bot: its games and its identities."""
        if self.seats is not None:
            count = self.seats
        else:
            if self._tables is None:
                rules = admin.requestor.request("GET", "/v1/rules", idempotent=True)["games"]
                self._tables = {g["id"]: max(g["seats"]) for g in rules}
            mine = [n for g, n in self._tables.items() if bot.games is None or g in bot.games]
            count = max(mine, default=1)
        return {
            "name": bot.name,
            "games": None if bot.games is None else list(bot.games),
            "count": count,
        }

    def start(self, timeout: float = 30.0) -> None:
        """Register, enter the house ladders (if asked), then run every identity in its
        own thread."""
        registered = self.register(timeout)
        if self.house_ladders:
            self.ladders = self.enter_ladders(registered)
        for bot in registered:
            for player in bot["players"]:
                rng = random.Random(self._rng.random())
                runner = Runner(
                    load_bot(bot["name"], rng),
                    Client(self.server, player["token"]),
                    wait=self.wait,
                    handle_signals=False,
                )
                thread = threading.Thread(
                    target=self._run,
                    args=(runner, player["name"], player["id"]),
                    name=f"bot {player['name']}",
                    daemon=True,
                )
                self.runners.append(runner)
                self._threads.append(thread)
                thread.start()
        log.info(
            "bot pool: %d players of %d bots on %s", len(self.runners), len(self.bots), self.server
        )

    def enter_ladders(self, registered: list[dict[str, Any]]) -> dict[str, str]:
        """Find or define each game's house ladder, then enter its :func:`lineup` of the
        pool's identities (joining twice is harmless). Returns game -> ladder id.

        The ladders are defined all the same, but nothing is entered, where the
        operator keeps house bots off ladders (``PARLOUR_HOUSE_BOTS`` without
        ``ladders``: the server answers 403)."""
        players = {bot["name"]: [p["id"] for p in bot["players"]] for bot in registered}
        out: dict[str, str] = {}
        allowed = True
        with Client(self.server, self.admin_token) as admin:
            known = {(lad["game"], lad["name"]): lad for lad in admin.ladders.list()["ladders"]}
            for game in REGISTRY.values():
                name = ladder_name(game)
                ladder = known.get((game.id, name)) or admin.ladders.create(
                    game.id, options=dict(game.ladder_options) or None, name=name
                )
                out[game.id] = ladder["id"]
                used: dict[str, int] = {}
                entered = []
                for bot in lineup(game, int(ladder["table_size"]) - 1) if allowed else []:
                    ids = players.get(bot, [])
                    n = used.get(bot, 0)
                    if n >= len(ids):
                        continue  # fewer identities than the line-up (PARLOUR_BOTPOOL_SEATS)
                    used[bot] = n + 1
                    try:
                        admin.ladders.join(ladder["id"], ids[n])
                    except Forbidden as exc:  # the operator keeps them off ladders
                        log.info("house ladders: %s; no house bot entered", exc.message)
                        allowed = False
                        break
                    entered.append(bot)
                log.info(
                    "ladder %s (%s): house bots %s",
                    ladder["id"],
                    name,
                    ", ".join(entered) or "none",
                )
        return out

    def _run(self, runner: Runner, name: str, player_id: str) -> None:
        """Run one identity until the pool stops; a runner that fails is run again.

        A house bot that stays down stalls every visitor and app game that names it
        (one hostile name used to end a runner for good, and so did an admin's token
        change: the runner asks for its token again, :meth:`_refresh`). Whose turn it
        is lives on the server, so a restarted runner picks up every game where it left.
        """
        failures = 0
        try:
            while not runner.stopping:
                began = time.monotonic()
                try:
                    runner.run()
                    return  # asked to stop
                except Exception as exc:  # noqa: BLE001 - a bot's failure must not stop its seats
                    if isinstance(exc, Unauthorized):
                        self._refresh(runner, name, player_id)
                    if time.monotonic() - began >= self.max_restart_pause:
                        failures = 0
                    pause = min(self.max_restart_pause, self.restart_pause * 2**failures)
                    failures += 1
                    log.warning(
                        "bot %s failed (%d in a row); restarting in %.1fs",
                        name,
                        failures,
                        pause,
                        exc_info=True,
                    )
                until = time.monotonic() + pause
                while not runner.stopping and (left := until - time.monotonic()) > 0:
                    self._stopped.wait(min(left, 0.1))
                if not runner.stopping:
                    self.restarts += 1
        finally:
            runner.client.close()

    def _refresh(self, runner: Runner, name: str, player_id: str) -> None:
        """Give ``runner`` its identity's token again from ``POST /v1/bots`` (the server
        answers the derived one and stores it again); logged, not raised, if it fails."""
        try:
            tokens = {p["id"]: p["token"] for b in self.register(5.0) for p in b["players"]}
        except Exception:  # noqa: BLE001 - tried again at the runner's next failure
            log.warning("bot %s: its token was refused and could not be fetched", name)
            return
        if player_id in tokens:
            runner.client.requestor.token = tokens[player_id]
            log.warning("bot %s: its token was refused; fetched it again", name)

    def stop(self, timeout: float | None = None) -> None:
        """Ask every runner to stop after its move in hand; wait for them."""
        self._stopped.set()
        for runner in self.runners:
            runner.stop()
        for thread in self._threads:
            thread.join(self.wait + 10 if timeout is None else timeout)

    @property
    def moves(self) -> int:
        """Moves made by the pool so far (all bots)."""
        return sum(r.stats.moves for r in self.runners)


def serve_forever(
    server: str, *, parent_pid: int | None = None, wait: float = 3.0, ladders: bool = True
) -> int:
    """``parlour botpool``: run the default pool until SIGINT/SIGTERM (or the parent exits).

    The admin token comes from ``PARLOUR_ADMIN_TOKEN``; ``parlour serve`` sets it.

    Why long-polls of only ``wait`` = 3 s: gunicorn's graceful stop waits for
    the requests in flight, and a poll parked in Redis ends only when its wait is
    over (a wake-up ends it only if it finds a turn). ``parlour serve`` stops the
    pool before its workers, and with short polls it stops in 2.5 s, as without
    a pool (7 s otherwise). The cost: about 11 cheap requests a second while the
    pool is idle (33 identities); a bot's turn still wakes its poll at once.

    ``PARLOUR_BOTPOOL_SEATS`` sets the identities per bot (default: the largest
    table of its games). ``ladders`` (``parlour serve --no-ladders`` turns it off, as
    does ``PARLOUR_HOUSE_LADDERS=off``): enter the house ladders (the module doc).
    """
    log_as("botpool")
    logging.getLogger("client_sdk.progress").setLevel(logging.WARNING)  # a line a game: no
    token = os.environ.get("PARLOUR_ADMIN_TOKEN")
    if not token:
        log.error("parlour botpool needs PARLOUR_ADMIN_TOKEN")
        return 2
    seats = os.environ.get("PARLOUR_BOTPOOL_SEATS", "").strip()
    if seats and not (seats.isdigit() and 1 <= int(seats) <= 16):
        log.error("PARLOUR_BOTPOOL_SEATS must be a number from 1 to 16, not %r", seats)
        return 2
    setting = os.environ.get("PARLOUR_HOUSE_LADDERS", "on").strip().lower()
    if setting not in ("on", "off"):
        log.error("PARLOUR_HOUSE_LADDERS must be on or off, not %r", setting)
        return 2
    pool = BotPool(
        server,
        token,
        wait=wait,
        seats=int(seats) if seats else None,
        ladders=ladders and setting == "on",
    )

    def stop_runners() -> None:
        for runner in pool.runners:  # at once: no new long-poll
            runner.stop()

    stop = stop_on_signals(stop_runners)
    try:
        pool.start()
    except ConnectionError:
        log.error("bot pool: no server at %s", server)
        return 1
    while not stop.wait(1.0):
        if orphaned(parent_pid):
            log.warning("parent process gone: bot pool stopping")
            break
    pool.stop(timeout=wait + 5)
    log.info("stopped")
    return 0
