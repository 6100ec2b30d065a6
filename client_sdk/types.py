"""The API's JSON shapes as ``TypedDict`` s, keys exactly as on the wire (openapi.yaml).

The SDK returns the decoded JSON untouched: these types only tell your editor
and type checker what is inside. Keys the API marks as optional are
``NotRequired``; unknown extra keys from a newer server are simply there.
(No ``from __future__ import annotations`` here: ``TypedDict`` must see
``NotRequired`` at class creation to record which keys are optional.)
"""

from typing import Any, Literal, NotRequired, TypedDict

Move = dict[str, Any]
"""A game move, e.g. Concerto ``{"type": "play", "card": "QS"}`` or ``{"type": "pass"}``."""

Status = Literal["waiting", "active", "finished", "aborted"]


class SeatInfo(TypedDict):
    """One seat of a game: ``player_id`` and ``name`` are ``None`` while it is open;
    ``house`` (always true) marks one of the server's own bots."""

    seat: int
    name: str | None
    player_id: str | None
    house: NotRequired[Literal[True]]


class Result(TypedDict):
    """A finished game's result: one score per seat, and the winning seats."""

    scores: list[int]
    winners: list[int]
    termination: NotRequired[str]
    """Why the game ended, e.g. ``"target_reached"``."""


class View(TypedDict):
    """What one seat (or a spectator) may see of a game: the answer of ``GET /v1/games/{id}``."""

    id: str
    game: str
    options: dict[str, Any]
    status: Status
    version: int
    seats: list[SeatInfo]
    you: int | None
    to_move: list[int]
    legal_moves: list[Move]
    """Non-empty only when you are to move."""
    hand: NotRequired[list[str]]
    """Your cards; absent for spectators."""
    scores: list[int]
    deadline: str | None
    deal_commitment: str
    state: dict[str, Any]
    """Game-specific, already filtered for you (each game's rules page says what is in it)."""
    result: Result | None


class Turn(TypedDict):
    """A game where you are to act, as ``GET /v1/me/turns`` lists it."""

    game_id: str
    seat: int
    version: int
    view: View


class TurnsPage(TypedDict):
    """The answer of ``GET /v1/me/turns``: every game where the caller is to move."""

    turns: list[Turn]


class Event(TypedDict):
    """One event of a game's feed, already filtered for the caller."""

    seq: int
    """Position in the game's feed: pass the last one seen as ``after``."""
    version: int
    """The game version the event belongs to."""
    kind: str
    data: dict[str, Any]
    visible_to: NotRequired[list[int] | None]
    """Only in the replay of a finished game: who could see it (``None``: everyone)."""


class EventsPage(TypedDict):
    """``GET /v1/games/{id}/events``: ``last`` is the ``after`` to send next time."""

    events: list[Event]
    last: int


class Replay(TypedDict):
    """``GET /v1/games/{id}/replay``: public events while playing; everything once finished."""

    id: str
    game: str
    options: dict[str, Any]
    status: Status
    version: int
    seats: list[SeatInfo]
    deal_commitment: str
    events: list[Event]
    result: Result | None
    revealed: dict[str, Any] | None
    """Once finished: the deal seed and the hands left at the end."""
    par: list[dict[str, Any]] | None
    """Once finished, Concerto: each deal's double-dummy par per side (``NS``/``EW``:
    ``max_hands``, ``min_leftover``, ``hand_points``); null for other games."""


class NewPlayer(TypedDict):
    """``POST /v1/players``: the token is shown once, keep it."""

    id: str
    name: str
    token: str


class Player(TypedDict):
    """``GET /v1/players/me``: the caller's profile."""

    id: str
    name: str
    ratings: dict[str, Any]
    games: list[str]
    """Ids of the unfinished games the player sits in."""
