"""Consent: nobody is seated in a game or entered in a tournament without asking for it.

A player may seat or enter only themself; the admin may seat or enter anyone
(the scheduler, ``make demo``, the house bots). Anyone else named in a seat
or an entry gets an **invitation** and the seat or entry is *held*:

* a held seat is taken (nobody else can join it) but the game does not start
  while any seat is held, and the held player is not seated yet: the game is not
  in their ``/v1/me/turns`` and their seat's cards are not theirs to see;
* a held entry counts as entered, but the tournament cannot start while any
  entry is held (409 ``invitations_pending``).

Accepting seats the player (or confirms their place in the entry); declining
frees the seat (or withdraws the whole entry); an invitation past its expiry
frees its hold when it is next looked at (listed, answered, or when the game
is joined or the tournament started). The server's bot pool identities and an
app's own guests need no invitation: they exist only to play what they are
seated in. A tournament started with every entry accepted records it
(``consented``); only such tournaments' games are rated
(:mod:`server.services.ratings`). See docs/api.md#consent-and-invitations.

**Limits** (docs/api.md#limits-on-invitations). An inviter (a player or an
app) holds at most ``per_inviter`` open invitations and a player at most
``per_invitee``, of which at most ``per_pair`` from any one inviter (so that a
few inviters, or throwaway accounts, cannot fill a player's slots and keep its
friends out); a player may block an inviter, whose invitations it then never
gets. An invitation past a limit or to a player blocking the inviter refuses
the whole request (409) before anything is created, and nothing reaches the
invited player's stream. The invitations are stored (under both limits, in one
script per invited player) *before* the game or the entry holding their seats,
and taken back if that fails; only then is anyone woken.
"""

from __future__ import annotations

import secrets
import time
from typing import Any

from server.services import views, wire
from server.services.core import Core
from server.services.errors import (
    InvalidRequest,
    InvitationExpired,
    InvitationRefused,
    NotFound,
    TooManyInvitations,
)
from server.services.wire import iso
from server.store import apps as app_store
from server.store import invitations as store
from server.store import players as player_store

DEFAULT_TTL = 86400.0
DEFAULT_PER_INVITER = 50
"""Open invitations one player or app may have sent (``PARLOUR_INVITATIONS_PER_INVITER``)."""
DEFAULT_PER_INVITEE = 50
"""Open invitations one player may hold (``PARLOUR_INVITATIONS_PER_INVITEE``)."""
DEFAULT_PER_PAIR = 10
"""Of those, from any one inviter (``PARLOUR_INVITATIONS_PER_PAIR``: a fifth of 50)."""
PAGE = 50
"""Invitations (or blocks) per page of a list, unless ``limit`` says otherwise."""
MAX_PAGE = 200


def needs_invitation(player_id: str, caller_id: str | None) -> bool:
    """Whether seating ``player_id`` on behalf of ``caller_id`` (None: the admin) needs the
    player's consent: not for the caller themself, the admin, or the server's bot pool."""
    if caller_id is None or player_id == caller_id:
        return False
    return not player_id.startswith(app_store.BOT_PREFIX)


def new_id() -> str:
    """A fresh invitation id."""
    return "iv" + secrets.token_hex(8)


class Invitations:
    """A player's invitations: list, accept, decline; and the holds they settle.

    Args:
        core: the shared core.
        ttl: seconds an invitation stays open.
    """

    def __init__(
        self,
        core: Core,
        *,
        ttl: float = DEFAULT_TTL,
        per_inviter: int = DEFAULT_PER_INVITER,
        per_invitee: int = DEFAULT_PER_INVITEE,
        per_pair: int = DEFAULT_PER_PAIR,
    ) -> None:
        self.core = core
        self.r = core.r
        self.ttl = ttl
        self.per_inviter = per_inviter
        self.per_invitee = per_invitee
        self.per_pair = per_pair

    # -- making them (for games, tournaments and apps) ---------------------------------
    def record(
        self,
        invitation_id: str,
        *,
        kind: str,
        inviter: dict[str, Any],
        target: dict[str, Any],
        now: float,
    ) -> dict[str, Any]:
        """An invitation as stored (and shown): ``target`` names the game or the entry."""
        return {
            "id": invitation_id,
            "kind": kind,
            "from": inviter,
            "created": now,
            "expires": now + self.ttl,
            **target,
        }

    def reserve(self, sender: str, invitations: list[tuple[str, dict[str, Any]]]) -> None:
        """Store ``(player_id, invitation)`` pairs from ``sender``, all or none, before
        the holds they answer are stored (then :meth:`deliver`, or :meth:`cancel`).

        Raises:
            TooManyInvitations: ``sender`` would pass its limit of open invitations.
            InvitationRefused: an invited player holds its limit, or ``sender``'s share
                of it, or blocks ``sender`` (which of these is not told).
        """
        if not invitations:
            return
        now = time.time()
        members = [store.sent_member(pid, inv["id"]) for pid, inv in invitations]
        ok, count = store.reserve_sent(
            self.r,
            self.core.scripts,
            sender,
            members,
            expires=max(inv["expires"] for _, inv in invitations),
            now=now,
            cap=self.per_inviter,
        )
        if not ok:
            raise TooManyInvitations(
                "too many open invitations: wait until some are answered or expire",
                {"open": count, "limit": self.per_inviter},
            )
        stored: list[tuple[str, dict[str, Any]]] = []
        for pid, inv in invitations:
            done = store.put_capped(
                self.r,
                self.core.scripts,
                pid,
                inv,
                sender=sender,
                now=now,
                cap=self.per_invitee,
                share=self.per_pair,
            )
            if done != store.STORED:
                self.cancel(sender, invitations)
                raise InvitationRefused(
                    "this player cannot take your invitation now", {"players": [pid]}
                )
            stored.append((pid, inv))

    def cancel(self, sender: str, invitations: list[tuple[str, dict[str, Any]]]) -> None:
        """Take back invitations :meth:`reserve` stored (their game or entry was not made)."""
        for pid, inv in invitations:
            if (store.get(self.r, pid, inv["id"]) or {}).get("from", {}).get("id") == sender:
                store.drop(self.r, pid, inv["id"])
        store.unreserve_sent(
            self.r, sender, [store.sent_member(pid, inv["id"]) for pid, inv in invitations]
        )

    def deliver(self, invitations: list[tuple[str, dict[str, Any]]], rewrite: bool = False) -> None:
        """Wake the invited players' turn streams, once the holds are stored; ``rewrite``
        stores the invitations again first (a tournament's now names its entry)."""
        if rewrite:
            for pid, inv in invitations:
                store.put(self.r, pid, inv)
        player_store.wake_invited(self.r, [(pid, inv["id"]) for pid, inv in invitations])

    # -- a player's use cases ------------------------------------------------------------
    def mine(
        self, token: str | None, limit: int = PAGE, cursor: str | None = None
    ) -> dict[str, Any]:
        """One page of the caller's open invitations, oldest first; expired ones are freed
        on the way. ``next_cursor`` (None on the last page) asks for the next page.

        Raises:
            InvalidRequest: a cursor this list did not give.
        """
        player = self.core.player(token)
        after = wire.cursor_key(cursor)
        now = time.time()
        out = []
        for inv in store.of_player(self.r, player.id):
            if inv["expires"] < now:
                self._free(player.id, inv, now)
                continue
            if inv.get("kind") == "tournament" and inv.get("entry_id") is None:
                continue  # its entry is being made (Tournaments.enter)
            if after is None or (inv["created"], inv["id"]) > after:
                out.append(inv)
        page = out[:limit]
        more = len(out) > limit
        return {
            "invitations": [_out(inv) for inv in page],
            "next_cursor": wire.cursor(page[-1]["created"], page[-1]["id"]) if more else None,
        }

    # -- blocks -------------------------------------------------------------------------
    def block(self, token: str | None, other: str) -> dict[str, Any]:
        """The caller refuses ``other``'s invitations from now on; ``other``'s open
        invitations to the caller are declined at once. Repeatable.

        Raises:
            Unauthorized, Forbidden (the admin), InvalidRequest (oneself), NotFound.
        """
        player = self.core.player(token)
        if other == player.id:
            raise InvalidRequest("you cannot block yourself", {"player_id": [other]})
        found = player_store.get(self.r, other)
        if found is None:
            raise NotFound("no such player", {"player_id": other})
        now = time.time()
        store.block(self.r, player.id, other, now)
        for inv in store.of_player(self.r, player.id):
            if (inv.get("from") or {}).get("id") == other:
                self._free(player.id, inv, now)
        since = dict(store.blocks(self.r, player.id)).get(other, now)
        return {"player_id": other, "name": found.name, "since": iso(since)}

    def unblock(self, token: str | None, other: str) -> None:
        """Lift the caller's block of ``other`` (nothing if there was none)."""
        player = self.core.player(token)
        store.unblock(self.r, player.id, other)

    def blocks(
        self, token: str | None, limit: int = PAGE, cursor: str | None = None
    ) -> dict[str, Any]:
        """One page of the players the caller blocks, oldest block first."""
        player = self.core.player(token)
        after = wire.cursor_key(cursor)
        rows = [(at, pid) for pid, at in store.blocks(self.r, player.id)]
        rows = [row for row in sorted(rows) if after is None or row > after]
        page = rows[:limit]
        found = player_store.get_many(self.r, [pid for _, pid in page])
        return {
            "blocks": [
                {
                    "player_id": pid,
                    "name": rec.name if (rec := found.get(pid)) else None,
                    "since": iso(at),
                }
                for at, pid in page
            ],
            "next_cursor": wire.cursor(*page[-1]) if len(rows) > limit else None,
        }

    def accept(self, token: str | None, invitation_id: str) -> dict[str, Any]:
        """Take the held seat(s) or confirm the place in the held entry.

        Raises:
            Unauthorized, Forbidden (the admin), NotFound (no such open invitation),
            InvitationExpired (its hold was freed).
        """
        player = self.core.player(token)
        inv = self._open(player.id, invitation_id)
        now = time.time()
        if inv["expires"] < now:
            self._free(player.id, inv, now)
            raise InvitationExpired("this invitation has expired", {"invitation": inv["id"]})
        if inv["kind"] == "game":
            self._accept_seat(player.id, inv, now)
        else:
            entry = store.settle_entry(
                self.r, inv["tournament_id"], inv["entry_id"], player.id, accept=True, now=now
            )
            if entry is None:
                store.drop(self.r, player.id, inv["id"])
                raise NotFound("this invitation is no longer open", {"invitation": inv["id"]})
        store.drop(self.r, player.id, inv["id"])
        return {**_out(inv), "status": "accepted"}

    def decline(self, token: str | None, invitation_id: str) -> dict[str, Any]:
        """Free the held seat(s), or withdraw the held entry (for all its players).

        Raises:
            Unauthorized, Forbidden (the admin), NotFound (no such open invitation).
        """
        player = self.core.player(token)
        inv = self._open(player.id, invitation_id)
        self._free(player.id, inv, time.time())
        return {**_out(inv), "status": "declined"}

    # -- holds ------------------------------------------------------------------------------
    def free_expired_seats(self, game_id: str, seats: dict[int, dict[str, Any]]) -> bool:
        """Free a game's held seats whose invitations expired; True if any was freed."""
        now = time.time()
        freed = False
        for invitation_id in store.expired_holds(seats, now):
            holder = next(
                v["player_id"] for v in seats.values() if v.get("invitation") == invitation_id
            )
            freed |= (
                store.settle_seats(self.r, game_id, invitation_id, accept=False, now=now)
                is not None
            )
            store.drop(self.r, holder, invitation_id)
        return freed

    def free_expired_entries(self, tournament_id: str, pending: dict[str, tuple[str, ...]]) -> bool:
        """Withdraw a tournament's held entries whose invitations expired; True if any was."""
        now = time.time()
        freed = False
        for entry_id, players in pending.items():
            for pid in players:
                for inv in store.of_player(self.r, pid):
                    mine = inv.get("tournament_id") == tournament_id
                    if mine and inv.get("entry_id") == entry_id and inv["expires"] < now:
                        self._free(pid, inv, now)
                        freed = True
        return freed

    def _open(self, player_id: str, invitation_id: str) -> dict[str, Any]:
        inv = store.get(self.r, player_id, invitation_id)
        if inv is None or (inv["kind"] == "tournament" and inv.get("entry_id") is None):
            raise NotFound("no such open invitation", {"invitation": invitation_id})
        return inv

    def _accept_seat(self, player_id: str, inv: dict[str, Any], now: float) -> None:
        game_id = inv["game_id"]
        player_store.add_game(self.r, [player_id], game_id)  # harmless until the seat is theirs
        settled = store.settle_seats(self.r, game_id, inv["id"], accept=True, now=now)
        if settled is None or settled.status == "expired":
            player_store.remove_game(self.r, [player_id], game_id)
            store.drop(self.r, player_id, inv["id"])
            if settled is None:
                raise NotFound("this invitation is no longer open", {"invitation": inv["id"]})
            raise InvitationExpired("this invitation has expired", {"invitation": inv["id"]})
        if settled.status == "active":  # the last hold settled: wake-ups, an app's webhooks
            record = self.core.game(game_id)
            if record is not None:
                self.core.after_commit(record, views.state_of(record))

    def _free(self, player_id: str, inv: dict[str, Any], now: float) -> None:
        """Decline (or expire) one invitation: free its hold, forget it."""
        if inv["kind"] == "tournament" and inv.get("entry_id") is None:
            pass  # its entry was never made: nothing is held
        elif inv["kind"] == "game":
            store.settle_seats(self.r, inv["game_id"], inv["id"], accept=False, now=now)
        else:
            entry = store.settle_entry(
                self.r, inv["tournament_id"], inv["entry_id"], player_id, accept=False, now=now
            )
            if entry == {}:  # withdrawn: the other invited players' invitations go with it
                for other in inv.get("players", []):
                    store.drop(self.r, other, inv["id"])
        store.drop(self.r, player_id, inv["id"])


def _out(inv: dict[str, Any]) -> dict[str, Any]:
    """An invitation as the API shows it (times as ISO 8601)."""
    return {**inv, "created": iso(inv["created"]), "expires": iso(inv["expires"])}
