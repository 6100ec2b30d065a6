"""Callbacks: a bot that is a URL. The server POSTs each turn of the player's seats to it
and plays the move it answers (docs/api.md, "Callbacks").

**Registration** (:class:`Callbacks`, ``/v1/me/callback``): a player sets,
replaces, rotates the secret of, and removes its own callback. The URL passes the
outbound guard (:func:`server.services.targets.check_target_url`, the webhooks'
one, with the operator's ``PARLOUR_WEBHOOK_ALLOW``) at registration; the
dispatcher's outbound stack (:mod:`server.processes.outbound`, the webhooks' too)
checks it again after resolving the name, before each call. The secret
(``cbs_...``) is shown once, in the answer that made it; it signs each call
exactly like a webhook (:func:`server.services.notifications.signature`, applied
by that stack). A callback ends with
the token that could set it: a revocation removes it, a rotation too unless asked
to keep it (then with a new secret), in the token's own swap
(:mod:`server.services.players`); a revoked player's seats are not played even by
a callback left from before (:meth:`Core.read_as` refuses it).

**Queueing.** After each commit (a repeatable step, :meth:`Core.queue_callbacks`)
the turns of the seats to move whose player has a callback are added to a Redis
stream, each once; the dispatchers sweep the callback players' turns every few
seconds for any the step missed (:meth:`Dispatch.sweep`). While a callback is set
the player's turn streams and long-polls keep working: a move made either way is accepted once (the
version compare-and-set).

The dispatchers' use cases (:class:`Dispatch`, the queue's consumers, and their books
on each player's calls) are :mod:`server.services.callback_dispatch`'s, named here too.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable
from typing import Any

from server.services import targets, wire
from server.services.callback_dispatch import Call as Call
from server.services.callback_dispatch import Dispatch as Dispatch
from server.services.callback_dispatch import Job as Job
from server.services.core import Core
from server.services.errors import InvalidRequest, NotFound, Unauthorized
from server.services.queued_turns import LATER as LATER
from server.services.targets import check_target_url
from server.store import callbacks as store
from server.store import players as player_store
from server.store.players import PlayerRecord
from server.tournaments.ladder import percentile

MAX_URL = 2048
"""Longest callback URL."""
SECRET_PREFIX = "cbs_"
FAILURE_KINDS = (
    "timeout",  # no answer in the time left
    "late",  # an answer, after the deadline
    "unreachable",  # no connection, or it broke
    "refused_address",  # the name resolves to an address the guard refuses
    "status",  # an answer other than 200
    "not_a_move",  # a body that is not {"move": ...}
    "too_large",  # a body past the bound
    "refused_move",  # the engine refused the move
)


def new_secret() -> str:
    """A fresh signing secret (``cbs_...``)."""
    return SECRET_PREFIX + secrets.token_urlsafe(32)


def health(books: tuple[dict[str, int], list[int], list[dict[str, Any]]]) -> dict[str, Any]:
    """A callback's health as the API shows it: counters, answer times, last failures."""
    counts, latencies, failures = books
    return {
        **counts,
        "latency_p50_ms": percentile(latencies, 0.50),
        "latency_p99_ms": percentile(latencies, 0.99),
        "latency_samples": len(latencies),
        "last_failures": failures,
    }


class Callbacks:
    """A player's own callback, over the shared :class:`Core`.

    Args:
        allow: internal ranges callbacks may target all the same (the webhooks'
            ``PARLOUR_WEBHOOK_ALLOW``).
        changed: called with the player's id when its callback is set to a new URL
            (the bot that plays its seats may be another one now): the ladders ask a
            validation game again (:meth:`server.services.ladders.Ladders.revalidate`).
    """

    def __init__(
        self,
        core: Core,
        allow: tuple[targets.Network, ...] = (),
        changed: Callable[[str], object] = lambda player_id: None,
    ) -> None:
        self.core = core
        self.r = core.r
        self.allow = allow
        self.changed = changed

    def show(self, token: str | None) -> dict[str, Any]:
        """The caller's callback (the secret's last 4 characters only) and its health.

        Raises:
            Unauthorized, Forbidden (the admin), NotFound: no callback is set.
        """
        player = self.core.player(token)
        got = store.get(self.r, player.id)
        if got is None:
            raise NotFound("no callback is set")
        return {
            "url": got["url"],
            "secret_hint": got["secret"][-4:],
            "since": wire.iso(got["since"]),
            "health": self.health([player.id])[player.id],
        }

    def put(self, token: str | None, url: Any) -> dict[str, Any]:
        """Set or replace the caller's callback, with a fresh secret (shown this once).
        A new URL (none before, or another) is a change of bot: ``changed`` is told.

        Raises:
            Unauthorized (also: the token was rotated or revoked while this ran; the
            callback is not left set), Forbidden, InvalidRequest: not an http(s) URL,
            too long, or an address the server must not reach.
        """
        player = self.core.player(token)
        if not isinstance(url, str) or not url:
            raise InvalidRequest("url must be an http(s) URL", {"url": ["an absolute http(s) URL"]})
        if len(url) > MAX_URL:
            raise InvalidRequest("url is too long", {"url": [f"at most {MAX_URL} characters"]})
        check_target_url(url, self.allow, "callbacks")
        secret = new_secret()
        before = store.get(self.r, player.id)
        store.put(self.r, player.id, url, secret, time.time())
        if not self._token_holds(player):
            raise Unauthorized("unknown token")
        if before is None or before["url"] != url:
            self.changed(player.id)
        return {"url": url, "secret": secret}

    def _token_holds(self, player: PlayerRecord) -> bool:
        """After a write with ``player``'s token: whether it is still the player's. A
        token rotated or revoked meanwhile removed the callback before the write or
        will not see it: the write is undone (the revocation's own removal, done late)."""
        now = player_store.get(self.r, player.id)
        if now is not None and now.token_sha256 == player.token_sha256:
            return True
        store.delete(self.r, player.id)
        return False

    def rotate(self, token: str | None) -> dict[str, Any]:
        """A new secret for the caller's callback; the old one signs nothing more.

        Raises:
            Unauthorized, Forbidden, NotFound: no callback is set.
        """
        player = self.core.player(token)
        secret = new_secret()
        url = store.rotate(self.r, self.core.scripts, player.id, secret)
        if url is None:
            raise NotFound("no callback is set")
        return {"url": url, "secret": secret}

    def delete(self, token: str | None) -> None:
        """Remove the caller's callback: its turns are no longer called (the turns
        queued already are dropped by the dispatcher).

        Raises:
            Unauthorized, Forbidden, NotFound: no callback is set.
        """
        player = self.core.player(token)
        if not store.delete(self.r, player.id):
            raise NotFound("no callback is set")

    def health(self, player_ids: list[str]) -> dict[str, dict[str, Any]]:
        """Each player's callback health (zeros for a player never called)."""
        return {pid: health(b) for pid, b in store.books(self.r, player_ids).items()}

    def with_callback(self, player_ids: list[str]) -> set[str]:
        """Those of ``player_ids`` that have a callback now."""
        return set(store.players(self.r)) & set(player_ids)
