"""A new game validated, stored and announced: the one path every way of creating a game
takes (:meth:`server.services.games.Games.create_game`, ``create_app_game``,
``create_tournament_game``).

The engine checks the options and any preset deals; the seats are checked (their
count, a player twice, unknown players); the record, its opening events and its move
clock, if any, are stored in one transaction (:func:`server.store.games.create`; a
derived id that exists already is no error: nothing is created). A seat naming a
player who must consent is held for them, and their invitation is reserved before the
game is stored and delivered after (:mod:`server.services.invitations`). Then the game
goes into the lobby's index, a clocked game's first deadline into the clocks' index,
and the players to move are woken.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Sequence
from typing import Any

from server.games import REGISTRY, BaseState
from server.games.record import deal_commitment
from server.services import views
from server.services.core import Core
from server.services.errors import InvalidRequest, NotFound
from server.services.invitations import Invitations, needs_invitation, new_id
from server.store import clocks as clock_store
from server.store import games as game_store
from server.store import lobby as lobby_store
from server.store import players as player_store
from server.store.games import GameRecord
from server.store.players import PlayerRecord


class NewGames:
    """Creating games, over the shared :class:`Core` and the invitations."""

    def __init__(self, core: Core, invitations: Invitations) -> None:
        self.core = core
        self.r = core.r
        self.invitations = invitations

    def create(
        self,
        *,
        game: str,
        options: dict[str, Any] | None,
        seats: list[str | None] | None,
        created_by: str,
        allow_multiple_seats: bool = False,
        deals: list[dict[str, Any]] | None = None,
        seed: str | None = None,
        game_id: str | None = None,
        clock: dict[str, Any] | None = None,
        extra_meta: dict[str, Any] | None = None,
        now: float | None = None,
        holds: dict[str, str] | None = None,
        inviter: dict[str, Any] | None = None,
    ) -> tuple[GameRecord, BaseState] | None:
        """Validate, store and announce a new game (None: ``game_id`` existed already).

        ``holds``: player id -> invitation id, for the players whose seats are held
        until they accept (``inviter`` is who invites them)."""
        engine = REGISTRY.get(game)
        if engine is None:
            raise InvalidRequest("unknown game", {"game": [f"one of {sorted(REGISTRY)}"]})
        options = dict(options or {})
        if seats is not None and engine.seat_option and engine.seat_option not in options:
            options[engine.seat_option] = len(seats)
        exclusive = game_id is not None
        game_id = game_id or secrets.token_hex(8)
        seed = seed or self.core.seed_for(game_id)
        state = engine.new_state(options, seed, deals)  # checks options and presets
        seats = list(seats) if seats is not None else [None] * state.num_seats
        found = self._seated(engine.id, state.num_seats, seats, allow_multiple_seats)
        meta = {
            "game": engine.id,
            "options": state.public_options(),
            "num_seats": len(seats),
            "allow_multiple_seats": allow_multiple_seats,
            "deal_commitment": deal_commitment(seed),
            "created_by": created_by,
            **({"clock": clock} if clock else {}),
            **(extra_meta or {}),
        }
        now = time.time() if now is None else now
        holds = holds or {}
        seat_map = {
            i: {"player_id": p, "name": found[p].name, **self._held(holds.get(p), now)}
            for i, p in enumerate(seats)
            if p is not None
        }
        record = GameRecord(
            id=game_id,
            version=0,
            state=state.to_dict(),
            meta=meta,
            status="active" if len(seat_map) == len(seats) and not holds else "waiting",
            seats=seat_map,
        )
        clock_fields = None
        if clock:
            clock_fields = clock_store.initial(
                clock["move_seconds"],
                clock["timeout_policy"],
                state.to_move(),
                now,
                int(clock.get("bank_ms") or 0),
            )
        invitations = self._invitations(record, holds, inviter, now)
        if invitations and inviter is not None:  # first: a refusal leaves nothing behind
            self.invitations.reserve(inviter["id"], invitations)
        try:
            player_store.add_game(
                self.r, [p for p in seats if p is not None and p not in holds], game_id
            )
            events = [views.event(e, 0) for e in engine.opening_events(state)]
            seq = game_store.create(self.r, record, events, clock=clock_fields, only_new=exclusive)
        except BaseException:
            if invitations and inviter is not None:
                self.invitations.cancel(inviter["id"], invitations)
            raise
        if seq is None:
            if invitations and inviter is not None:
                self.invitations.cancel(inviter["id"], invitations)
            return None
        record.seq = seq
        self.invitations.deliver(invitations)
        lobby_store.add_live(self.r, game_id, time.time(), created_by)
        self.core.wake_to_move(record, state)
        if clock and clock_fields:
            bank = int(clock.get("bank_ms") or 0) / 1000
            first = now + clock["move_seconds"] + bank if state.to_move() else None
            clock_store.index(self.r, game_id, first)
        return record, state

    @staticmethod
    def holds(seats: Sequence[str | None] | None, inviter: str | None) -> dict[str, str]:
        """Player id -> a new invitation id, for each seated player who must consent."""
        named = dict.fromkeys(p for p in seats or [] if p is not None)
        return {p: new_id() for p in named if needs_invitation(p, inviter)}

    def _held(self, invitation_id: str | None, now: float) -> dict[str, Any]:
        """The extra fields of a seat held for an invitation (none for a seat taken)."""
        if invitation_id is None:
            return {}
        return {"pending": True, "invitation": invitation_id, "expires": now + self.invitations.ttl}

    def _invitations(
        self,
        record: GameRecord,
        holds: dict[str, str],
        inviter: dict[str, Any] | None,
        now: float,
    ) -> list[tuple[str, dict[str, Any]]]:
        """Each held player's invitation, to store before the game (under the limits)."""
        if not holds or inviter is None:
            return []
        return [
            (
                pid,
                self.invitations.record(
                    iid,
                    kind="game",
                    inviter=inviter,
                    target={
                        "game_id": record.id,
                        "game": record.meta["game"],
                        "seats": [s for s, v in record.seats.items() if v["player_id"] == pid],
                    },
                    now=now,
                ),
            )
            for pid, iid in holds.items()
        ]

    def _seated(
        self, game: str, num_seats: int, seats: list[str | None], allow_multiple: bool
    ) -> dict[str, PlayerRecord]:
        """The players of a new game's taken seats, in seat order, once the seats are valid.

        Raises:
            InvalidRequest (a wrong count, a player twice), NotFound (no such player).
        """
        if len(seats) != num_seats:
            raise InvalidRequest(
                "wrong number of seats", {"seats": [f"this {game} game has {num_seats} seats"]}
            )
        taken = [pid for pid in seats if pid is not None]
        if not allow_multiple and len(set(taken)) != len(taken):
            raise InvalidRequest(
                "a player may hold one seat unless allow_multiple_seats",
                {"seats": ["a player appears twice"]},
            )
        found = player_store.get_many(self.r, taken)
        missing = {
            str(i): "no such player" for i, p in enumerate(seats) if p is not None and not found[p]
        }
        if missing:
            raise NotFound("no such player", {"seats": missing})
        return {pid: rec for pid in taken if (rec := found[pid]) is not None}
