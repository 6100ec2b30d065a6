"""Replays: a game's record (everything, hands and seed, once it is finished), its
frames (every seat's view at every step), and each deal's par (``par`` below: stored
once when the game finished, read back here, :mod:`server.services.par`).

A table of a duplicate board (same cards as its twins, other players) is refused
to all but the admin and, while it is played, its seated players, until its twin
is over too (:mod:`server.services.boards`); its seated players get its public
record only, as for any game in play.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from server.games import record as shown_record
from server.services import boards, par, views
from server.services.core import Core
from server.services.errors import GameNotFinished, NotFound
from server.store import game_events as event_store
from server.store.games import GameRecord


class Replays:
    """Replays and their frames, over the shared :class:`Core`."""

    def __init__(self, core: Core) -> None:
        self.core = core
        self.r = core.r

    def replay(self, token: str | None, game_id: str) -> dict[str, Any]:
        """The public record while playing; everything, hands and seed, once finished."""
        got = self.core.read(token, game_id, required=False)
        boards.check(self.core, got.caller, got.game)
        return self.shown(got.game)

    def shown(self, record: GameRecord) -> dict[str, Any]:
        """The replay of ``record`` as the replay endpoint shows it, to a caller
        :func:`boards.check` lets through (the archive passes only games it would
        let anyone see)."""
        state = views.state_of(record)
        events = event_store.all_events(self.r, record.id)
        return shown_record.replay(  # what the local runner writes too (parlour-bot play)
            views.header(record),
            state,
            events,
            result=views.result(record, state, self.core.clock(record)),
            par=par.of(self.r, record, events) if record.status == "finished" else None,
        )

    def replay_frame(self, token: str | None, game_id: str, version: int) -> dict[str, Any]:
        """A finished game as it stood at ``version``: the spectator's view and every seat's.

        These are the frames of a replay: step through the game move by move with
        every hand shown, or "as seat X saw it" (seat X's own view at that step,
        which is exactly what it knew then). The engine rebuilds the state from
        the opening state and the moves accepted since, so a frame shows what the
        live game showed. Only once the game is finished, like the replay's
        ``revealed`` (and at a duplicate board's table, once the board is over).

        Raises:
            Unauthorized (a bad token), BoardInPlay (a duplicate board in play),
            NotFound (no such game, or version outside ``0..version``), GameNotFinished.
        """
        got = self.core.read(token, game_id, required=False)
        boards.check(self.core, got.caller, got.game)
        record = got.game
        if record.status != "finished":
            raise GameNotFinished(
                "a game's frames open once it is finished", {"status": record.status}
            )
        if not 0 <= version <= record.version:
            raise NotFound("no such version", {"version": [f"0..{record.version}"]})
        opening, moves = event_store.history(self.r, game_id)
        if opening is None or any(v not in moves for v in range(version)):
            raise NotFound("this game's history was not kept", {})
        state = views.engine(record).from_dict(opening)
        for v in range(version):
            state.apply(moves[v]["seat"], moves[v]["move"])
        at = replace(record, version=version, status="finished" if state.is_over() else "active")
        return {
            "id": record.id,
            "version": version,
            "last_version": record.version,
            "move": moves[version - 1] if version else None,
            "public": views.view(at, state, None),
            "views": [views.view(at, state, s) for s in range(record.meta["num_seats"])],
        }
