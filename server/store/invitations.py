"""Invitations in Redis: a player's open invitations, and settling a held seat or entry.

Consent (docs/api.md#consent-and-invitations): a seat or an entry naming a
player who did not ask for it is *held* until that player accepts. The truth
of a hold lives with the game or tournament:

* a held seat is an entry of ``g:{id}:seats`` with ``"pending": true`` (and its
  ``"invitation"`` and ``"expires"``): nobody else can take it, and the game stays
  ``waiting`` while any seat is held (``lua/join_seat.lua`` checks it too);
* a held entry is an entry of ``t:{id}:entries`` whose ``"pending"`` lists the
  players who have not accepted yet.

The invitation itself (``p:{<player_id>}:invitations``, hash id -> JSON) is the
invited player's index of what waits for an answer; settling a hold is a
WATCH/MULTI on the game's or the tournament's keys (one slot), after which the
index entry is dropped. An index entry whose hold is gone is stale and is
dropped when found.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import orjson
from redis import Redis
from redis.exceptions import WatchError

from . import keys
from .replies import text
from .scripts import Scripts

RETRIES = 20


def tournament_consented_field() -> str:
    """The field of ``t:{id}`` set to ``1`` by a start whose every entry was accepted."""
    return "consented"


# -- the invited player's index ------------------------------------------------------
def put(r: Redis, player_id: str, invitation: dict[str, Any]) -> None:
    """Add (or rewrite) one invitation of ``player_id``."""
    r.hset(keys.player_invitations(player_id), invitation["id"], orjson.dumps(invitation))


def of_player(r: Redis, player_id: str) -> list[dict[str, Any]]:
    """Every invitation of the player, oldest first."""
    stored: Any = r.hgetall(keys.player_invitations(player_id))
    found = [orjson.loads(v) for v in stored.values()]
    return sorted(found, key=lambda inv: (inv["created"], inv["id"]))


def get(r: Redis, player_id: str, invitation_id: str) -> dict[str, Any] | None:
    """One invitation of the player, or None."""
    raw: Any = r.hget(keys.player_invitations(player_id), invitation_id)
    return None if raw is None else orjson.loads(raw)


def drop(r: Redis, player_id: str, invitation_id: str) -> None:
    """Forget one invitation (answered, expired or stale), and its place in the sender's
    count of open invitations."""
    raw: Any = r.hget(keys.player_invitations(player_id), invitation_id)
    r.hdel(keys.player_invitations(player_id), invitation_id)
    if raw is not None:
        sender = (orjson.loads(raw).get("from") or {}).get("id")
        if sender:
            r.zrem(keys.player_sent_invitations(sender), sent_member(player_id, invitation_id))


# -- caps and blocks (docs/api.md#limits-on-invitations) --------------------------------
def sent_member(player_id: str, invitation_id: str) -> str:
    """The member of the sender's :func:`keys.player_sent_invitations` for one invitation."""
    return f"{player_id}|{invitation_id}"


def reserve_sent(
    r: Redis,
    scripts: Scripts,
    sender: str,
    members: list[str],
    *,
    expires: float,
    now: float,
    cap: int,
) -> tuple[bool, int]:
    """Count ``members`` (:func:`sent_member`) as the sender's open invitations, unless that
    passes ``cap``. Returns (added?, open invitations without them if refused, else with)."""
    if not members:
        return True, 0
    ok, count = scripts.reserve_sent(
        keys=[keys.player_sent_invitations(sender)], args=[repr(now), cap, repr(expires), *members]
    )
    return bool(ok), int(count)


def unreserve_sent(r: Redis, sender: str, members: list[str]) -> None:
    """Undo :func:`reserve_sent` (the invitations were not sent after all)."""
    if members:
        r.zrem(keys.player_sent_invitations(sender), *members)


STORED, FULL, BLOCKED = 1, 0, -1
"""What :func:`put_capped` did."""


def put_capped(
    r: Redis,
    scripts: Scripts,
    player_id: str,
    invitation: dict[str, Any],
    *,
    sender: str,
    now: float,
    cap: int,
    share: int = 0,
) -> int:
    """Store one invitation unless ``player_id`` blocks ``sender`` (:data:`BLOCKED`),
    holds ``cap`` open invitations already, or ``share`` of them from ``sender``
    (:data:`FULL`; ``share`` 0: no share); :data:`STORED` otherwise."""
    return int(
        scripts.put_invitation(
            keys=[keys.player_invitations(player_id), keys.player_blocks(player_id)],
            args=[repr(now), cap, sender, invitation["id"], orjson.dumps(invitation), share],
        )
    )


def block(r: Redis, player_id: str, other: str, now: float) -> None:
    """``player_id`` refuses ``other``'s invitations from now on (repeatable)."""
    r.zadd(keys.player_blocks(player_id), {other: now}, nx=True)


def unblock(r: Redis, player_id: str, other: str) -> bool:
    """Lift a block; whether there was one."""
    return bool(r.zrem(keys.player_blocks(player_id), other))


def blocks(r: Redis, player_id: str) -> list[tuple[str, float]]:
    """Whom ``player_id`` blocks, ``(id, since)``, oldest first."""
    rows: Any = r.zrange(keys.player_blocks(player_id), 0, -1, withscores=True)
    return [(text(pid), float(at)) for pid, at in rows]


# -- held seats of a game --------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Settled:
    """What settling a hold did: the seats (or entry) it touched and the new status."""

    seats: tuple[int, ...]
    status: str


def settle_seats(
    r: Redis, game_id: str, invitation_id: str, *, accept: bool, now: float
) -> Settled | None:
    """Accept (seat for real) or free the seats held for ``invitation_id``, atomically.

    An accepted hold past its expiry is freed instead. The game becomes ``active``
    once every seat is taken and none is held.

    Returns:
        What was done, with the seats touched; None if no seat is held for it (the
        game is gone, or the hold was settled or freed already). ``Settled.status``
        is ``"expired"`` when the hold had expired and was freed.
    """
    state_key, seats_key = keys.game_state(game_id), keys.game_seats(game_id)
    for _ in range(RETRIES):
        with r.pipeline(transaction=True) as pipe:
            try:
                pipe.watch(state_key, seats_key)
                status_raw: Any = pipe.hget(state_key, "status")
                meta_raw: Any = pipe.hget(state_key, "meta")
                raw: Any = pipe.hgetall(seats_key)
                seats = {int(k): orjson.loads(v) for k, v in raw.items()}
                held = sorted(s for s, v in seats.items() if v.get("invitation") == invitation_id)
                if status_raw is None or meta_raw is None or not held:
                    return None
                expired = any(seats[s].get("expires", now) < now for s in held)
                pipe.multi()
                if accept and not expired:
                    for s in held:
                        seats[s] = {"player_id": seats[s]["player_id"], "name": seats[s]["name"]}
                        pipe.hset(seats_key, str(s), orjson.dumps(seats[s]))
                else:
                    for s in held:
                        del seats[s]
                    pipe.hdel(seats_key, *[str(s) for s in held])
                status = status_raw.decode()
                full = len(seats) == orjson.loads(meta_raw)["num_seats"]
                if (
                    status == "waiting"
                    and full
                    and not any(v.get("pending") for v in seats.values())
                ):
                    status = "active"
                    pipe.hset(state_key, "status", status)
                pipe.execute()
            except WatchError:
                continue
        return Settled(tuple(held), "expired" if expired else status)
    raise WatchError("the game kept changing")


def expired_holds(seats: dict[int, dict[str, Any]], now: float) -> list[str]:
    """The invitation ids of a game's held seats that have expired."""
    return sorted(
        {
            v["invitation"]
            for v in seats.values()
            if v.get("pending") and v.get("expires", now) < now and v.get("invitation")
        }
    )


# -- held entries of a tournament -------------------------------------------------------
def settle_entry(
    r: Redis, tournament_id: str, entry_id: str, player_id: str, *, accept: bool, now: float
) -> dict[str, Any] | None:
    """Accept ``player_id``'s place in a held entry, or withdraw the whole entry.

    An entry is withdrawn (its players free to enter again) when one of its
    players declines. Only while the tournament is open.

    Returns:
        The entry as it now is (``{"players", "pending"}``; ``{}`` once withdrawn),
        or None if there is no such held place (gone, settled, or entries closed).
    """
    head_key = keys.tournament(tournament_id)
    entries_key = keys.tournament_entries(tournament_id)
    players_key = keys.tournament_players(tournament_id)
    for _ in range(RETRIES):
        with r.pipeline(transaction=True) as pipe:
            try:
                pipe.watch(head_key, entries_key)
                status: Any = pipe.hget(head_key, "status")
                raw: Any = pipe.hget(entries_key, entry_id)
                if status != b"open" or raw is None:
                    return None
                entry = orjson.loads(raw)
                pending = list(entry.get("pending", []))
                if player_id not in pending:
                    return None
                pipe.multi()
                if accept:
                    pending.remove(player_id)
                    entry["pending"] = pending
                    if not pending:
                        del entry["pending"]
                    pipe.hset(entries_key, entry_id, orjson.dumps(entry))
                else:
                    pipe.hdel(entries_key, entry_id)
                    pipe.srem(players_key, *entry["players"])
                    entry = {}
                pipe.execute()
            except WatchError:
                continue
        return entry
    raise WatchError("the tournament kept changing")


def tournament_consented(r: Redis, tournament_id: str) -> bool:
    """Whether the tournament was started with every entry accepted by all its players."""
    return r.hget(keys.tournament(tournament_id), tournament_consented_field()) == b"1"
