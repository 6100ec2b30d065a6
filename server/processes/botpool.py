"""``parlour botpool``: the server's own bots, which play the ``"bot:<name>"`` seats.

An app that embeds Parlour names bots in a game's seats (``[null,
"bot:concerto_signals", ...]``) and runs no bot process of its own: this pool
plays them. It is an ordinary client of the HTTP API, exactly like an outside
bot — it imports ``client_sdk`` and ``bots`` and nothing of the server
(``tests/embed`` checks): the only privileged thing it does is one admin call,
``POST /v1/bots``, which creates (once) the pool's player identities and hands
back their tokens. Each identity is then driven by a :class:`~client_sdk.runner.Runner`
in a thread, long-polling ``GET /v1/me/turns`` for every game it sits in.

``parlour serve`` starts one pool beside the API (like the scheduler). Several
pools may run against one server: the tokens are derived on the server, so
every pool gets the same ones, and a move sent twice is answered, not applied
twice.
"""

from __future__ import annotations

import logging
import os
import random
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from client_sdk import Client
from client_sdk.cli import load_bot
from client_sdk.errors import ConnectionError, ServerError
from client_sdk.runner import Runner
from server.processes.daemon import log_as, orphaned, stop_on_signals

log = logging.getLogger("botpool")


@dataclass(frozen=True)
class BotSpec:
    """A bot of the pool: its installed name (``parlour.bots``), the games it plays (None: any)."""

    name: str
    games: tuple[str, ...] | None


POOL = (
    BotSpec("random", None),
    BotSpec("concerto_greedy", ("concerto",)),
    BotSpec("concerto_signals", ("concerto",)),
)
"""The bots a default pool plays."""


class BotPool:
    """Registers the pool's identities through the admin API, then plays them.

    Args:
        server: the API root, e.g. ``http://127.0.0.1:8000``.
        admin_token: the server's admin token (only to learn the pool's tokens).
        bots: which bots to run.
        seats: identities per bot, i.e. how many seats of one game one bot may take.
        wait: long-poll seconds (also how long :meth:`stop` may take).
        seed: seeds the bots' random choices (reproducible tests); None: random.
    """

    def __init__(
        self,
        server: str,
        admin_token: str,
        *,
        bots: Sequence[BotSpec] = POOL,
        seats: int = 4,
        wait: float = 20.0,
        seed: int | None = None,
    ) -> None:
        self.server = server.rstrip("/")
        self.admin_token = admin_token
        self.bots = tuple(bots)
        self.seats = seats
        self.wait = wait
        self._rng = random.Random(seed)
        self.runners: list[Runner] = []
        self._threads: list[threading.Thread] = []

    def register(self, timeout: float = 30.0) -> list[dict[str, Any]]:
        """``POST /v1/bots`` until the server answers (it may still be starting).

        Returns:
            Per bot ``{"name", "games", "players": [{"id", "name", "token"}]}``.
        """
        body = {
            "bots": [
                {
                    "name": b.name,
                    "games": None if b.games is None else list(b.games),
                    "count": self.seats,
                }
                for b in self.bots
            ]
        }
        deadline = time.monotonic() + timeout
        with Client(self.server, self.admin_token, max_retries=0) as admin:
            while True:
                try:
                    return admin.requestor.request("POST", "/v1/bots", json=body, idempotent=True)[
                        "bots"
                    ]
                except (ConnectionError, ServerError):
                    if time.monotonic() > deadline:
                        raise
                    time.sleep(0.2)

    def start(self, timeout: float = 30.0) -> None:
        """Register, then run every identity in its own thread."""
        for bot in self.register(timeout):
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
                    args=(runner, player["name"]),
                    name=f"bot {player['name']}",
                    daemon=True,
                )
                self.runners.append(runner)
                self._threads.append(thread)
                thread.start()
        log.info(
            "bot pool: %d players of %d bots on %s", len(self.runners), len(self.bots), self.server
        )

    @staticmethod
    def _run(runner: Runner, name: str) -> None:
        try:
            runner.run()
        except Exception:  # noqa: BLE001 - one bot's failure must not stop the others
            log.exception("bot %s stopped", name)
        finally:
            runner.client.close()

    def stop(self, timeout: float | None = None) -> None:
        """Ask every runner to stop after its move in hand; wait for them."""
        for runner in self.runners:
            runner.stop()
        for thread in self._threads:
            thread.join(self.wait + 10 if timeout is None else timeout)

    @property
    def moves(self) -> int:
        """Moves made by the pool so far (all bots)."""
        return sum(r.stats.moves for r in self.runners)


def serve_forever(server: str, *, parent_pid: int | None = None, wait: float = 3.0) -> int:
    """``parlour botpool``: run the default pool until SIGINT/SIGTERM (or the parent exits).

    The admin token comes from ``PARLOUR_ADMIN_TOKEN``; ``parlour serve`` sets it.

    Why long-polls of only ``wait`` = 3 s: gunicorn's graceful stop waits for
    the requests in flight, and a poll parked in Redis ends only when its wait is
    over (a wake-up ends it only if it finds a turn). ``parlour serve`` stops the
    pool before its workers, and with short polls it stops in 2.5 s, as without
    a pool (7 s otherwise). The cost: 4 cheap requests a second while the pool
    is idle; a bot's turn still wakes its poll at once.
    """
    log_as("botpool")
    token = os.environ.get("PARLOUR_ADMIN_TOKEN")
    if not token:
        log.error("parlour botpool needs PARLOUR_ADMIN_TOKEN")
        return 2
    pool = BotPool(server, token, wait=wait)

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
