"""The game resources as callers see them: views, headers, results and events.

Pure functions of a game's record and its engine state (no Redis): hidden
information stays hidden because every view comes from the engine's
``view(seat)`` and every event shown passes ``server.games.visible``.
"""

from __future__ import annotations

from typing import Any

from server.games import REGISTRY, BaseState, Event, Game, MalformedMove
from server.games import record as shown_record
from server.services import wire
from server.services.errors import Forbidden
from server.store.apps import BOT_PREFIX
from server.store.clocks import Clock
from server.store.games import GameRecord
from server.tournaments import ratings as rating_model


def engine(record: GameRecord) -> Game:
    """The engine that plays the game of ``record``."""
    return REGISTRY[record.meta["game"]]


def state_of(record: GameRecord) -> BaseState:
    """The engine state stored in ``record``."""
    return engine(record).from_dict(record.state)


def event(event: Event, version: int) -> dict[str, Any]:
    """An engine event as stored, stamped with the version that made it."""
    return shown_record.stamped(event, version)


event_out = shown_record.event_out  # a stored event as the API shows it (the local runner's too)


def rating_out(stored: dict[str, Any]) -> dict[str, Any]:
    """A stored rating as the API shows it: ``mu``, ``sigma``, ``ordinal`` (mu - 3 sigma),
    games, whether it is ``provisional`` and its 95% interval ``low``..``high``
    (:func:`server.tournaments.ratings.doubt`)."""
    mu, sigma = stored["mu"], stored["sigma"]
    return {
        "mu": mu,
        "sigma": sigma,
        "ordinal": rating_model.ordinal((mu, sigma)),
        "games": stored.get("games", 0),
        **rating_model.doubt((mu, sigma)),
    }


def holder(record: GameRecord, seat: int) -> str | None:
    """The player who holds ``seat``: None while it is open, or held for an invited
    player who has not accepted yet (docs/api.md: it is not theirs until then)."""
    taken = record.seats.get(seat)
    return None if taken is None or taken.get("pending") else str(taken["player_id"])


def seats_of(record: GameRecord, player_id: str) -> list[int]:
    """The seats ``player_id`` holds in the game, lowest first (see :func:`holder`)."""
    return sorted(s for s in record.seats if holder(record, s) == player_id)


def is_house(player_id: str | None) -> bool:
    """Whether ``player_id`` is one of the server's house bots (the bot pool's players).

    Their ids, and only theirs, start with ``bot``: the admin's ``POST /v1/bots``
    makes them; every other player's id is hexadecimal, so no one can become one."""
    return player_id is not None and player_id.startswith(BOT_PREFIX)


def house(player_id: str | None) -> dict[str, Any]:
    """``{"house": True}`` for a house bot's row (a seat, an entry, a leaderboard row),
    else nothing: a house bot's name cannot be passed off by anyone else."""
    return {"house": True} if is_house(player_id) else {}


def seats(record: GameRecord) -> list[dict[str, Any]]:
    """Every seat with its player's id and name (None for an open seat); a house bot's
    seat says ``"house": true``."""
    out = []
    for s in range(record.meta["num_seats"]):
        pid = record.seats.get(s, {}).get("player_id")
        out.append(
            {"seat": s, "player_id": pid, "name": record.seats.get(s, {}).get("name")} | house(pid)
        )
    return out


def pick_seat(state: BaseState, mine: list[int], wanted: int | None = None) -> int | None:
    """The seat a request speaks for: the one asked for, else one to move, else the first.

    Raises:
        Forbidden: ``wanted`` is not one of the caller's seats.
    """
    if wanted is not None:
        if wanted not in mine:
            raise Forbidden("you hold no such seat in this game")
        return wanted
    to_move = state.to_move()
    return next((s for s in mine if s in to_move), mine[0] if mine else None)


def is_retry(
    state: BaseState, accepted: dict[str, Any] | None, move: Any, seats: list[int]
) -> bool:
    """Was exactly this move already accepted for one of ``seats`` at the version sent?

    A move the clock made for a timed-out seat is not the player's: never a retry.
    """
    if accepted is None or accepted.get("timeout") or accepted["seat"] not in seats:
        return False
    try:
        return state.normalize_move(move) == accepted["move"]
    except MalformedMove:
        return False


def header(record: GameRecord) -> dict[str, Any]:
    """What every game resource starts with (the view, the replay): all public."""
    return shown_record.header(
        game_id=record.id,
        game=record.meta["game"],
        options=record.meta["options"],
        status=record.status,
        version=record.version,
        seats=seats(record),
        deal_commitment=record.meta["deal_commitment"],
    )


def result(record: GameRecord, state: BaseState, clock: Clock | None) -> dict[str, Any] | None:
    """The engine's outcome, or for a game aborted by a forfeit, the forfeit.

    A forfeit's ``scores`` are the (public) scores when the game stopped,
    ``forfeit`` is the seat that forfeited and ``winners`` is empty: what the
    forfeit means for a tournament table is the tournament's business
    (:func:`server.tournaments.clock.forfeit_result`).
    """
    if record.status == "aborted" and clock is not None and clock.forfeit is not None:
        return {
            "termination": "forfeit",
            "scores": clock.forfeit["scores"],
            "winners": [],
            "forfeit": clock.forfeit["seat"],
        }
    outcome = state.outcome()
    return None if outcome is None else outcome.to_dict()


def view(
    record: GameRecord, state: BaseState, seat: int | None, clock: Clock | None = None
) -> dict[str, Any]:
    """The view of ``seat`` (None: a spectator's): the engine's view plus the game's record.

    While the game waits for its players, ``seat`` is only ``you``: the view
    shown is the spectator's (docs/api.md, "Before the start").

    ``deadline`` (clocked games): the seat's own deadline when it is to
    move, else the earliest deadline of the seats to move; null otherwise.
    """
    # The engine's view under the header: the local runner (``parlour-bot play``)
    # renders its bots' views with the same function.
    to_move = [] if record.status in ("waiting", "aborted") else state.to_move()
    deadline = None
    if clock is not None and record.status == "active":
        timed = [s for s in to_move if s in clock.deadlines]
        if seat is not None and seat in timed:
            deadline = clock.deadlines[seat]
        elif timed:
            deadline = min(clock.deadlines[s] for s in timed)
    return shown_record.seat_view(
        header(record),
        state,
        seat,
        result=result(record, state, clock),
        deadline=wire.iso(deadline),
    )


def turn(
    record: GameRecord, state: BaseState, seat: int, clock: Clock | None = None
) -> dict[str, Any]:
    """One turn as ``GET /v1/me/turns``, the turn stream and a callback list it: the game,
    the seat to act, the version, its view and its clock (:func:`turn_clock`).

    The one place a turn entry is rendered: every path that tells a bot its turn
    uses it."""
    return {
        "game_id": record.id,
        "seat": seat,
        "version": record.version,
        "view": view(record, state, seat, clock),
        "clock": turn_clock(clock, seat),
    }


def turn_clock(clock: Clock | None, seat: int) -> dict[str, Any]:
    """The seat's clock as its turn shows it: its ``deadline`` (ISO 8601; its turn's
    start + the per-move time + its bank left), ``bank_ms`` (its time bank left, ms)
    and ``last_latency_ms`` (its last move's time from its turn's start to the commit,
    ms; null before its first). Every field is null in an unclocked game.

    >>> turn_clock(None, 0)
    {'deadline': None, 'bank_ms': None, 'last_latency_ms': None}
    """
    if clock is None:
        return {"deadline": None, "bank_ms": None, "last_latency_ms": None}
    return {
        "deadline": wire.iso(clock.deadlines.get(seat)),
        "bank_ms": clock.bank_left(seat),
        "last_latency_ms": clock.latencies.get(seat),
    }


def rendered_turns(
    record: GameRecord, state: BaseState, clock: Clock | None = None
) -> dict[str, bytes]:
    """Per player to act, its turns in this game as JSON, rendered once at commit.

    A player's turn stream pushes these bytes as they are, so a turn costs the
    server no second read of the game. Each holds only its own seats' views.
    """
    mine: dict[str, list[dict[str, Any]]] = {}
    for seat in state.to_move():
        if (player := holder(record, seat)) is not None:
            mine.setdefault(player, []).append(turn(record, state, seat, clock))
    return {player: wire.dumps(turns) for player, turns in mine.items()}
