"""Duplicate boards: who may learn a table's cards while its board is unfinished.

A duplicate board is two or more tables of a tournament or ladder dealt the same
cards in the same seats, each seating different players (each game's record
names the board's other tables, its ``twins``). Until every table is over,
whatever one table shows of its deal is the others' deal too. So while a board
is unfinished (docs/api.md#duplicate-boards):

- the admin sees every table as any game;
- a player seated at a table sees it through its seat while it is played (its
  view, events, stream, replay's public record, ``/me/turns``), as any game;
- once that table is over, even its players get only its header and result
  (the view's ``state`` and ``hand`` are held back, everything else is 403);
- anyone else (no token, another player) is refused with 403 ``board_in_play``,
  and the lobby lists the table without whose turn, scores or result.

A twin that is not stored counts as unfinished: games are never deleted, so it
is a twin the scheduler has not created yet. Once every table is over,
everything is public as for any game.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from server.services import views
from server.services.callers import Caller
from server.services.core import Core
from server.services.errors import BoardInPlay
from server.store import games as game_store
from server.store.games import GameRecord

OVER = ("finished", "aborted")


def twins_of(record: GameRecord) -> list[str]:
    """The ids of the other tables of the game's duplicate board (empty: no board).

    Games record ``twins`` (a list); games made before read as their one ``twin``."""
    meta = record.meta.get("tournament") or {}
    twins = meta.get("twins")
    if isinstance(twins, list):
        return [t for t in twins if isinstance(t, str)]
    twin = meta.get("twin")
    return [twin] if isinstance(twin, str) else []


def in_play(core: Core, record: GameRecord) -> bool:
    """Whether ``record`` is a table of a board that is not over yet (one read at most)."""
    twins = twins_of(record)
    if not twins:
        return False
    if record.status not in OVER:
        return True
    found = {g.id: g.status for g in game_store.read_many(core.r, twins)}
    return any(found.get(t) not in OVER for t in twins)


def in_play_among(core: Core, records: Iterable[GameRecord]) -> set[str]:
    """The ids of ``records`` that are tables of an unfinished board (one round trip)."""
    records = list(records)
    twins = {r.id: t for r in records if (t := twins_of(r))}
    wanted = sorted({t for ts in twins.values() for t in ts})
    found = {g.id: g.status for g in game_store.read_many(core.r, wanted)}
    return {
        r.id
        for r in records
        if r.id in twins
        and (r.status not in OVER or any(found.get(t) not in OVER for t in twins[r.id]))
    }


def _seated(caller: Caller | None, record: GameRecord) -> bool:
    player = caller.player if caller is not None else None
    return player is not None and bool(views.seats_of(record, player.id))


def refusal(record: GameRecord) -> BoardInPlay:
    """The 403 for a table whose board is still in play: says when it opens."""
    return BoardInPlay(
        "this table's board is still in play: its cards open to everyone once every "
        "table of the board is over",
        {"tables": sorted({record.id, *twins_of(record)})},
    )


def check(core: Core, caller: Caller | None, record: GameRecord) -> None:
    """Let through the admin, anyone once the board is over, and a seated player while
    its own table is played; refuse everyone else.

    Raises:
        BoardInPlay: the caller may learn nothing of this table's deal now.
    """
    if not twins_of(record) or (caller is not None and caller.is_admin):
        return
    if _seated(caller, record) and record.status not in OVER:
        return
    if in_play(core, record):
        raise refusal(record)


def view(
    core: Core, caller: Caller | None, record: GameRecord, shown: dict[str, Any]
) -> dict[str, Any]:
    """The view ``shown`` as ``caller`` may have it: refused to whoever :func:`check`
    refuses, except that a seated player of a table over before its twin gets the
    view without the engine's ``state`` and ``hand`` (its result stays)."""
    try:
        check(core, caller, record)
    except BoardInPlay:
        if not _seated(caller, record):
            raise
        return sealed(shown)
    return shown


def sealed(shown: dict[str, Any]) -> dict[str, Any]:
    """A view with nothing of the deal: the record's header, ``you``, scores and result."""
    out = {k: v for k, v in shown.items() if k != "hand"}
    out.update(state=None, to_move=[], legal_moves=[])
    return out


def still_live(core: Core, caller: Caller | None, record: GameRecord) -> None:
    """After a read of events: refuse if the table ended meanwhile while its board plays on
    (a long-poll started while it was live must not carry its last, revealing events).

    Raises:
        BoardInPlay: the table is over now and its twin is not.
    """
    if not twins_of(record) or (caller is not None and caller.is_admin):
        return
    now = core.game(record.id)
    if now is not None and now.status in OVER and in_play(core, now):
        raise refusal(record)
