"""The HTTP client: one method per API endpoint (openapi.yaml), one choke point for requests.

>>> client = Client("http://127.0.0.1:8000", token="t0k3n")
>>> names = sorted(k for k in vars(client) if not k.startswith("_") and k != "requestor")
>>> names[:5]
['apps', 'bots', 'games', 'invitations', 'ladders']
>>> names[5:]
['players', 'ratings', 'tokens', 'tournaments', 'turns', 'visitors']

:class:`Client` gathers the namespaces; each lives in its own module of
:mod:`client_sdk.namespaces` (``client.games`` in ``namespaces/games.py``), and the
:class:`Requestor` they all send through in ``namespaces/base.py``. Every method
builds a path, calls :meth:`Requestor.request`, and returns the decoded JSON
unchanged (typed by :mod:`client_sdk.types`). Errors are raised as the typed
exceptions of :mod:`client_sdk.errors`. The namespace classes and the
``Requestor`` are importable from here too, as they always were.
"""

from __future__ import annotations

import requests

from .namespaces import (
    USER_AGENT,
    Apps,
    Bots,
    Games,
    Invitations,
    Ladders,
    Matches,
    MyBots,
    Players,
    Ratings,
    Requestor,
    Tokens,
    Tournaments,
    Turns,
    Visitors,
)

__all__ = [
    "Client", "Requestor", "USER_AGENT", "Players", "Games", "Turns", "Tournaments", "Ratings",
    "Apps", "Bots", "Invitations", "Tokens", "Ladders", "Visitors", "MyBots", "Matches",
]  # fmt: skip


class Client:
    """A Parlour API client for one player (one token).

    Args:
        base_url: the server root, e.g. ``http://127.0.0.1:8000``.
        token: the player's bearer token (``None`` to register or spectate).
        session: a ``requests.Session`` to share (one is created otherwise).
        max_retries: retries of a failed call (see :class:`Requestor`).
        timeout: seconds per call; long-poll calls add their ``wait``.
        backoff: first retry delay in seconds.
        max_backoff: longest single delay, and longest ``Retry-After`` honoured.

    The namespaces share one session (one connection pool). A ``Client`` is
    meant for one thread, as ``requests.Session`` is; use it as a context
    manager (or call :meth:`close`) to release its connections.

    Attributes:
        players: registration and the caller's profile (:class:`Players`).
        games: rules, creation, seats, views, moves, events, replays (:class:`Games`).
        turns: the long-poll of the caller's turns (:class:`Turns`).
        tournaments: create, enter, start and follow tournaments (:class:`Tournaments`).
        ratings: leaderboards (:class:`Ratings`).
        apps: embedding apps and their webhooks (:class:`Apps`).
        bots: the server's bot pool, admin only (:class:`Bots`).
        invitations: seats and entries others named you in (:class:`Invitations`).
        tokens: rotate and revoke tokens (:class:`Tokens`).
        ladders: join a ladder, its leaderboard (:class:`Ladders`).
        visitors: a game against the bots without an account (:class:`Visitors`).
        requestor: the :class:`Requestor` every namespace sends through.
    """

    def __init__(
        self,
        base_url: str,
        token: str | None = None,
        *,
        session: requests.Session | None = None,
        max_retries: int = 2,
        timeout: float = 10.0,
        backoff: float = 0.25,
        max_backoff: float = 8.0,
    ) -> None:
        self._owns_session = session is None
        self.requestor = Requestor(
            base_url,
            token,
            session or requests.Session(),
            timeout=timeout,
            max_retries=max_retries,
            backoff=backoff,
            max_backoff=max_backoff,
        )
        self.players = Players(self.requestor)
        self.games = Games(self.requestor)
        self.turns = Turns(self.requestor)
        self.tournaments = Tournaments(self.requestor)
        self.ratings = Ratings(self.requestor)
        self.apps = Apps(self.requestor)
        self.bots = Bots(self.requestor)
        self.invitations = Invitations(self.requestor)
        self.tokens = Tokens(self.requestor)
        self.ladders = Ladders(self.requestor)  # docs/ladder.md
        self.visitors = Visitors(self.requestor)
        self.my_bots = MyBots(self.requestor)  # docs/tutorials/hosted-bot.md
        self.matches = Matches(self.requestor)  # docs/matches.md

    @property
    def base_url(self) -> str:
        """The server root this client talks to, without a trailing slash."""
        return self.requestor.base_url

    def close(self) -> None:
        """Close the session's connections (only if this client created it)."""
        if self._owns_session:
            self.requestor.session.close()

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"Client({self.base_url!r}, token={'***' if self.requestor.token else None})"
