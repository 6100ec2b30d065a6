"""What a ladder's record says of its entries, shared by the ladder use cases: who is a
house bot, who is paired, who must validate and who passed, who sits at an open match.

Plain functions of a :class:`~server.store.ladders.LadderRecord` (and, for
:func:`read`, of the store), used by :mod:`server.services.ladders` (join, leave,
validation), :mod:`server.services.ladder_stats` (each entry's state),
:mod:`server.services.ladder_plan` (the matchmaking) and
:mod:`server.services.ladder_play` (the scheduler's pass).
"""

from __future__ import annotations

import secrets
from typing import Any

from redis import Redis

from server.services import views
from server.services.errors import NotFound
from server.store import ladders as store
from server.store.ladders import LadderRecord

VALIDATING = ("pending", "playing")
"""The states of a validation not over yet: the entry is ``validating``."""


def pool(ladder_id: str) -> str:
    """The ladder's rating pool (its own, apart from the game's)."""
    return f"ladder:{ladder_id}"


def read(r: Redis, ladder_id: str) -> LadderRecord:
    """The ladder as stored.

    Raises:
        NotFound: no such ladder.
    """
    record = store.read(r, ladder_id)
    if record is None:
        raise NotFound("no such ladder", {"ladder_id": ladder_id})
    return record


def new_validation(attempt: int) -> dict[str, Any]:
    """A validation to play (its entry's ``attempt``-th), with a fresh random ``key`` its
    game's id derives from: no later attempt, nor a later entry of the same player
    (whose attempts count from 1 again), can find an earlier attempt's game."""
    return {
        "state": "pending",
        "attempt": attempt,
        "game_id": None,
        "reason": None,
        "key": secrets.token_hex(8),
    }


def validated(entry: dict[str, Any]) -> bool:
    """Whether an entry may be matched: it needs no validation, or passed it."""
    got = entry.get("validation")
    return not got or got["state"] == "passed"


def house_entries(record: LadderRecord) -> list[str]:
    """The ladder's house bots (its anchors, the validation games' other seats), by id."""
    return sorted(p for p in record.entries if views.is_house(p))


def validates(record: LadderRecord, player_id: str) -> bool:
    """Whether an entry of ``player_id`` must pass a validation game here: the ladder
    validates, the player is no house bot, and the ladder's house bots fill a table
    with it."""
    if not record.meta.get("validation") or views.is_house(player_id):
        return False
    return len(house_entries(record)) >= record.meta["table_size"] - 1


def fixed(record: LadderRecord) -> bool:
    """Whether the ladder's sides are fixed pairs (``sides: "fixed"``)."""
    return record.meta.get("sides") == "fixed"


def pair_of(record: LadderRecord, player: str) -> str | None:
    """The player's partner when both named each other (an accepted pair), else None."""
    partner = record.entries.get(player, {}).get("partner")
    if partner and record.entries.get(partner, {}).get("partner") == player:
        return str(partner)
    return None


def playing(record: LadderRecord, player: str) -> bool:
    """Whether ``player`` sits at a table of an open match that has no result yet."""
    return any(
        player in seats and store.slot(n, t) not in record.results
        for n, match in record.open.items()
        for t, seats in enumerate(match["tables"])
    )
