"""What the runner's parts share: its loggers, its statistics, its record of each game,
and :class:`Parts`, the base of the runner's parts (:mod:`.pages`, :mod:`.ladder`,
:mod:`.signals`) that names what each of them reads of the :class:`~.loop.Runner`.
"""

from __future__ import annotations

import logging
import threading
from collections import deque
from dataclasses import dataclass, field

from ..accept import AcceptPolicy
from ..client import Client

log = logging.getLogger("client_sdk.runner")
progress = logging.getLogger("client_sdk.progress")
"""One line per ladder joined or left and per game finished (INFO): what a person
running a bot wants to see; the rest (conflicts, retries) is :data:`log`'s."""

FINISHED = ("finished", "aborted")

RECENT_GAMES = 100


@dataclass
class RunStats:
    """What a run did; returned by :func:`run`."""

    moves: int = 0
    games_started: int = 0
    games_finished: int = 0
    conflicts: int = 0
    """409s answered by re-reading the view."""
    illegal_moves: int = 0
    """Moves the server refused as illegal (a bug in the bot; logged)."""
    invitations_accepted: int = 0
    """Invitations accepted under the runner's :class:`AcceptPolicy`."""
    outages: int = 0
    """Times the server could not be reached after the SDK's own retries."""
    bad_frames: int = 0
    """Turn-stream messages the runner could not read (logged, then read by long-poll)."""
    finished_games: deque[str] = field(default_factory=lambda: deque(maxlen=RECENT_GAMES))
    """The ids of the last ``RECENT_GAMES`` games finished, oldest first (bounded: a bot
    pool runs for weeks)."""


@dataclass
class _Game:
    seat: int | None
    last_check: float = 0.0
    validation: bool = False
    """The ladder's validation game of the bot's entry: unrated, not one of ``max_games``."""


class Parts:
    """The runner's state, as its parts read it; :class:`~.loop.Runner` sets it all in
    its ``__init__`` and defines the methods named here."""

    client: Client
    wait: float
    max_games: int | None
    handle_signals: bool
    accept: AcceptPolicy
    ladder: str | None
    push: bool
    stats: RunStats
    _stopping: threading.Event
    _busy: bool
    _unrated: dict[str, str]
    _me: str | None
    _left: bool

    @property
    def stopping(self) -> bool:
        raise NotImplementedError

    def stop(self) -> None:
        raise NotImplementedError

    def _done(self) -> bool:
        raise NotImplementedError

    def _check_game(self, game_id: str) -> None:
        raise NotImplementedError

    def _report_ratings(self, wait: float = 0.0) -> None:
        raise NotImplementedError
