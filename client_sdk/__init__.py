"""Parlour's Python client: an HTTP client, a ``Bot`` base class, a runner that plays
the bot's games (:mod:`client_sdk.runner`), and a callback endpoint
(:mod:`client_sdk.endpoint`) that serves the same bot as a URL.

A complete bot::

    from client_sdk import Bot, Client, run

    class FirstLegal(Bot):
        def choose_move(self, view):
            return view["legal_moves"][0]

    run(FirstLegal(), Client("http://127.0.0.1:8000", token="..."))

The SDK's one dependency is ``requests``: its client, runner and endpoint use only
``requests`` (with ``urllib3``, which ``requests`` is built on) and the standard
library, and talk to the public HTTP API and nothing else. Its optional parts need
more, installed beside it: the local runner (:mod:`client_sdk.local`, ``parlour-bot
play``) the engines (``pip install ./server/games``); the learning adapters
(:mod:`client_sdk.spiel`, :mod:`client_sdk.zoo`, :mod:`client_sdk.features`,
:mod:`client_sdk.policy`) the engines, NumPy and OpenSpiel or PettingZoo (the
``openspiel`` extra); and :mod:`client_sdk.typegen`, the tool that writes its types
from the spec, PyYAML (a dev dependency).
"""

from .bot import Bot
from .client import Client, Requestor
from .errors import (
    ERRORS_BY_CODE,
    AlreadyEntered,
    AlreadySeated,
    BadFrame,
    CannotStart,
    Conflict,
    ConnectionError,
    DeadlinePassed,
    EntriesClosed,
    Forbidden,
    GameNotFinished,
    GameNotStarted,
    GameOver,
    IllegalMove,
    InvalidRequest,
    NoOpenSeat,
    NotFound,
    NotYourTurn,
    ParlourError,
    RateLimited,
    SeatTaken,
    ServerError,
    StaleVersion,
    TournamentConflict,
    Unauthorized,
    WrongEntrySize,
)
from .runner import Runner, RunStats, run

__all__ = [
    "AlreadySeated", "BadFrame", "GameNotStarted", "NoOpenSeat", "AlreadyEntered", "CannotStart",
    "DeadlinePassed", "EntriesClosed", "GameNotFinished", "TournamentConflict", "WrongEntrySize",
    "Bot", "Client", "Requestor", "Runner", "RunStats", "run", "ERRORS_BY_CODE",
    "Conflict", "ConnectionError", "Forbidden", "GameOver", "IllegalMove", "InvalidRequest",
    "NotFound", "NotYourTurn", "ParlourError", "RateLimited", "SeatTaken", "ServerError",
    "StaleVersion", "Unauthorized",
]  # fmt: skip
