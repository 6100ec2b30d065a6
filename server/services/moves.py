"""A game in play: the caller's view of it, and a move (one read, the engine, one
compare-and-set, then the repeatable steps after it).

Clocked games (those the scheduler creates, and a visitor's; see
:mod:`server.tournaments.clock`): a move checks its seat's deadline before the engine
sees it, and each commit re-arms the deadlines as a repeatable step after it
(:meth:`Core.arm`); the timeouts themselves are :mod:`server.services.clocks`.

A table of a duplicate board in play is shown only as :func:`server.services.boards.view`
allows (the board stays secret until every table of it is over): every view answered
here passes through it.
"""

from __future__ import annotations

import time
from dataclasses import replace
from typing import Any

from server.games import BaseState, GameError, GameOver
from server.services import boards, views
from server.services.core import Core, Read, to_wake
from server.services.errors import DeadlinePassed, Forbidden, GameNotStarted, InvitationsPending
from server.services.wire import iso
from server.store import clocks as clock_store
from server.store import games as game_store
from server.store.errors import StaleVersion
from server.store.games import GameRecord


class Moves:
    """Viewing and moving in games, over the shared :class:`Core`."""

    def __init__(self, core: Core) -> None:
        self.core = core
        self.r = core.r

    def view(self, token: str | None, game_id: str, seat: int | None = None) -> dict[str, Any]:
        """The caller's view of a game (a spectator's without a token or a seat)."""
        got = self.core.read(token, game_id, required=False, with_clock=True)
        record = got.game
        state = views.state_of(record)
        player = got.caller.player if got.caller else None
        mine = views.seats_of(record, player.id) if player else []
        shown = views.view(
            record, state, views.pick_seat(state, mine, seat), self.core.clock(record)
        )
        return boards.view(self.core, got.caller, record, shown)  # a duplicate board's secrecy

    def move(
        self,
        token: str | None,
        game_id: str,
        move: Any,
        version: int | None = None,
        seat: int | None = None,
    ) -> dict[str, Any]:
        """Apply the caller's move: one read, the engine, one compare-and-set, then wake-ups.

        A ``version`` that is stale raises StaleVersion and changes nothing,
        except when the same seat's same move was already accepted at that
        version: then the current view is the answer (a safe retry).

        In a clocked game, a move that arrives after its seat's deadline (its
        turn's start + the per-move time + its time bank left) is refused
        (DeadlinePassed) before the engine sees it: the timeout policy makes that
        move. An accepted move commits, with it, the seat's latency (its turn's
        start to now) and its bank left: whatever of the latency ran past the
        per-move time is taken from the bank.

        Raises:
            Unauthorized, NotFound, Forbidden (no seat here), StaleVersion,
            GameNotStarted, DeadlinePassed, GameOver (also once aborted), and
            the engine's MalformedMove, IllegalMove, NotYourTurn.
        """
        now = time.time()
        got = self.core.read(token, game_id, required=True, accepted_at=version, with_clock=True)
        return self._move(token, got, move, version, seat, now)

    def move_as(
        self,
        player_id: str,
        game_id: str,
        move: Any,
        version: int,
        seat: int,
        read: Read | None = None,
        state: BaseState | None = None,
    ) -> dict[str, Any]:
        """:meth:`move` for ``player_id`` without its token: the dispatcher submits a
        callback player's answer so, always with the turn's version (compare-and-set:
        a move the player also made another way is accepted once).

        ``read``: the game as the dispatcher read it for this turn
        (:meth:`Core.read_as`, at ``version``), used instead of a read of its own: if
        the game moved on since, the commit's compare-and-set refuses the move
        (StaleVersion) or finds the same move accepted (a duplicate: no error);
        ``state``: its engine state, not played on (only with ``read``)."""
        now = time.time()
        if read is None:
            read, state = self.core.read_as(player_id, game_id, accepted_at=version), None
        return self._move(None, read, move, version, seat, now, state)

    def _move(
        self,
        token: str | None,
        got: Read,
        move: Any,
        version: int | None,
        seat: int | None,
        now: float,
        state: BaseState | None = None,
    ) -> dict[str, Any]:
        record, accepted = got.game, got.accepted
        player = got.caller.player if got.caller else None
        mine = views.seats_of(record, player.id) if player else []
        if not mine or (seat is not None and seat not in mine):
            raise Forbidden("you hold no such seat in this game")
        if state is None:
            state = views.state_of(record)
        if version is not None and version != record.version:
            if accepted and views.is_retry(state, accepted, move, mine if seat is None else [seat]):
                shown = views.view(record, state, accepted["seat"], self.core.clock(record))
                return boards.view(self.core, got.caller, record, shown)
            raise StaleVersion(record.version)
        if record.status == "waiting":
            held = sorted({v["player_id"] for v in record.seats.values() if v.get("pending")})
            if held:
                raise InvitationsPending(
                    "the game starts once every invited player has accepted", {"players": held}
                )
            raise GameNotStarted("the game starts when every seat is taken")
        if record.status == "aborted":
            raise GameOver()
        picked = views.pick_seat(state, mine, seat)
        assert picked is not None  # ``mine`` is not empty
        clock = self.core.clock(record)
        if clock is not None and clock.version == record.version:
            deadline = clock.deadlines.get(picked)
            if deadline is not None and now > deadline and picked in state.to_move():
                raise DeadlinePassed(
                    "your deadline for this move has passed",
                    {"deadline": iso(deadline)},
                )
        shown = self._commit(token, record, state, picked, move, clock)
        return boards.view(self.core, got.caller, record, shown)  # the last move of a board table

    def _commit(
        self,
        token: str | None,
        record: GameRecord,
        state: BaseState,
        seat: int,
        move: Any,
        clock: clock_store.Clock | None,
    ) -> dict[str, Any]:
        """The engine applies ``move``; one compare-and-set commits it; then the repeatable
        steps (wake-ups, the clock). A duplicate that lost the race answers the view."""
        try:
            events = state.apply(seat, move)
        except GameError:  # told to the play hook's subscribers (Core.refused)
            self.core.refused(record, record.seats[seat]["player_id"])
            raise
        normalized = state.normalize_move(move)  # shape only: as accepted, for safe retries
        status = "finished" if state.is_over() else "active"
        # Unclocked, the next movers' turns ride in the commit's round trip; clocked,
        # they follow the arming of the clock, whose deadline their views show.
        push_now = status == "active" and clock is None
        after = replace(record, version=record.version + 1, status=status)
        spent = None  # the seat's bank left and latency, once its turn's clock is known
        if clock is not None and clock.version == record.version:
            spent = clock.spend(seat, time.time())
        clock_fields = None
        if clock is not None and spent is not None:  # committed with the move
            clock_fields = {f"b:{seat}": spent[0], f"l:{seat}": spent[1]}
            clock = replace(
                clock,
                banks=clock.banks | {seat: spent[0]},
                latencies=clock.latencies | {seat: spent[1]},
            )
        try:
            record.version, record.seq = game_store.commit(
                self.r,
                self.core.scripts,
                record.id,
                expected_version=record.version,
                state=state.to_dict(),
                status=status,
                move={"seat": seat, "move": normalized},
                events=[views.event(e, record.version + 1) for e in events],
                wake=to_wake(record, state) if push_now else (),
                turns=views.rendered_turns(after, state) if push_now else None,
                clock=clock_fields,
            )
        except StaleVersion as exc:
            if exc.accepted == {"seat": seat, "move": normalized}:
                if token is None:  # the dispatcher's: it needs no view
                    return {}
                return self.view(token, record.id, seat)  # a duplicate that lost the race
            raise
        record.status = status
        self.core.after_commit(record, state, woken=True)
        if spent is not None:  # the latency: from the seat's turn's start to the commit
            self.core.moved(record, record.seats[seat]["player_id"], spent[1] / 1000)
        if clock is not None:
            clock = self.core.arm(record, state, clock, mover=seat)
            self.core.wake_to_move(record, state, clock)
        return views.view(record, state, seat, clock)
