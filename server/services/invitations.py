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
"""

from __future__ import annotations

import secrets
import time
from typing import Any

from server.services import views
from server.services.core import Core
from server.services.errors import InvitationExpired, NotFound
from server.store import apps as app_store
from server.store import invitations as store
from server.store import players as player_store
from server.tournaments.clock import iso

DEFAULT_TTL = 86400.0


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

    def __init__(self, core: Core, *, ttl: float = DEFAULT_TTL) -> None:
        self.core = core
        self.r = core.r
        self.ttl = ttl

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

    def send(self, invitations: list[tuple[str, dict[str, Any]]]) -> None:
        """Store ``(player_id, invitation)`` pairs, once their holds are stored."""
        store.put_many(self.r, invitations)
        player_store.wake_invited(self.r, [(pid, inv["id"]) for pid, inv in invitations])

    # -- a player's use cases ------------------------------------------------------------
    def mine(self, token: str | None) -> dict[str, Any]:
        """The caller's open invitations, oldest first; expired ones are freed on the way."""
        player = self.core.player(token)
        now = time.time()
        out = []
        for inv in store.of_player(self.r, player.id):
            if inv["expires"] < now:
                self._free(player.id, inv, now)
                continue
            out.append(_out(inv))
        return {"invitations": out}

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
        if inv is None:
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
        if inv["kind"] == "game":
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
