"""What the scheduler asks of games: the games due, apply a passed move deadline, read
final results and timeouts, keep unfinished games watched.

A clocked game's move checks its seat's deadline itself
(:meth:`server.services.moves.Moves.move`); when nobody moves in time, the
scheduler calls :meth:`Clocks.timeout`, which applies the clock's timeout
policy (:mod:`server.tournaments.clock`) as the seat's move.
"""

from __future__ import annotations

import time
from collections.abc import Collection
from dataclasses import replace
from typing import Any

from server.games import Event
from server.services import views
from server.services.core import Core
from server.store import clocks as clock_store
from server.store import games as game_store
from server.store.errors import StaleVersion
from server.tournaments import clock as clock_policy


class Clocks:
    """Move deadlines and final results, over the shared :class:`Core`."""

    def __init__(self, core: Core) -> None:
        self.core = core
        self.r = core.r

    def due(self, now: float) -> list[str]:
        """Ids of the games whose indexed deadline has come by ``now``, earliest first."""
        return clock_store.due(self.r, now)

    def due_among(self, game_ids: list[str], now: float) -> list[str]:
        """Those of ``game_ids`` whose indexed deadline has come by ``now``."""
        return clock_store.due_among(self.r, game_ids, now)

    def watch(self, game_ids: list[str], now: float) -> None:
        """Index as due now those of ``game_ids`` missing from the deadline index: the
        safety net for a crash between a game's creation or commit and its indexing."""
        clock_store.ensure_indexed(self.r, game_ids, now)

    def timeouts(self, game_ids: list[str]) -> dict[str, dict[str, int]]:
        """Per clocked game of ``game_ids``: seat (as a string) -> timeouts it ran out."""
        clocks = clock_store.read_many(self.r, game_ids)
        return {g: {str(s): n for s, n in c.timeouts.items()} for g, c in clocks.items()}

    def timeout(self, game_id: str, now: float | None = None, gone: Collection[int] = ()) -> str:
        """Apply the move clock to one game whose indexed deadline has come.

        Re-reads the truth (the game and its clock) and acts on at most one
        seat: the first seat to move whose deadline is at or before ``now``, or
        that is one of ``gone`` (seats whose player is gone: their turn is up at
        once, :mod:`server.services.ladder_play`), gets
        its timeout policy (:mod:`server.tournaments.clock`), committed together
        with the clock's bookkeeping (one more timeout, its time bank spent); a
        move that beat it to the commit wins and nothing happens. Call again
        while it returns ``default_move`` (several seats may be due at once).

        Returns:
            ``default_move`` or ``forfeit`` (applied); ``moved`` (a move arrived
            first); ``waiting`` (nobody is due yet; the index is corrected);
            ``rearmed`` (the deadlines of the current version had been lost and
            were set afresh); ``over`` (the game is no longer active, or gone).
        """
        now = time.time() if now is None else now
        record = self.core.game(game_id)
        clock = clock_store.read(self.r, game_id)
        if record is None or clock is None or record.status != "active":
            clock_store.index(self.r, game_id, None)
            return "over"
        state = views.state_of(record)
        if clock.version < record.version:  # a crash between a commit and its arming
            self.core.arm(record, state, clock, mover=None, restart=True)
            return "rearmed"
        due = [s for s in state.to_move() if clock.deadlines.get(s, now + 1) <= now or s in gone]
        if not due:
            clock_store.index(self.r, game_id, clock.earliest())
            return "waiting"
        seat = due[0]
        count = clock.timeouts.get(seat, 0) + 1
        action = clock_policy.action(clock.policy, count)
        announce = Event("timeout", {"seat": seat, "timeouts": count, "action": action})
        version = record.version + 1
        forfeit: dict[str, Any] | None = None
        if action == clock_policy.FORFEIT:
            scores = list(state.view(None).get("scores") or [0] * record.meta["num_seats"])
            forfeit = {"seat": seat, "scores": scores, "timeouts": count}
            status, move, events = "aborted", {"type": "forfeit"}, [announce]
        else:
            move = clock_policy.default_move(state.legal_moves(seat))
            events = [announce, *state.apply(seat, move)]
            status = "finished" if state.is_over() else "active"
        try:
            record.version, record.seq = clock_store.commit_timeout(
                self.r,
                self.core.scripts,
                game_id,
                expected_version=record.version,
                state=state.to_dict(),
                status=status,
                move={"seat": seat, "move": move, "timeout": True},
                seat=seat,
                forfeit=forfeit,
                events=[views.event(e, version) for e in events],
            )
        except StaleVersion:
            return "moved"
        record.status = status
        self.core.after_commit(record, state)
        clock = replace(clock, banks=clock.banks | {seat: 0})  # spent with the timeout
        self.core.arm(record, state, clock, mover=seat, now=now)
        return action

    def final_results(self, game_ids: list[str]) -> dict[str, dict[str, Any]]:
        """The results of those games that are over, for the scheduler.

        Returns:
            game id -> ``{"scores": per seat, "winners": seats, "forfeit": seat or
            None}`` for every finished game and every game aborted by a forfeit;
            games still being played are left out.
        """
        records = [
            g for g in game_store.read_many(self.r, game_ids) if g.status in ("finished", "aborted")
        ]
        clocks = clock_store.read_many(self.r, [g.id for g in records if g.status == "aborted"])
        out: dict[str, dict[str, Any]] = {}
        for record in records:
            if record.status == "finished":
                outcome = views.state_of(record).outcome()
                if outcome is not None:
                    out[record.id] = {
                        "scores": list(outcome.scores),
                        "winners": list(outcome.winners),
                        "forfeit": None,
                    }
                continue
            forfeit = clocks[record.id].forfeit if record.id in clocks else None
            if forfeit is not None:
                out[record.id] = {
                    "scores": forfeit["scores"],
                    "winners": [],
                    "forfeit": forfeit["seat"],
                }
        return out
