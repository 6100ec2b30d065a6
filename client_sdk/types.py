"""The API's JSON shapes as ``TypedDict`` s, keys exactly as on the wire.

Hand-written, and held to ``openapi.yaml`` (the spec the server generates) by
``tests/sdk/test_types.py``: every ``TypedDict`` here has the keys of its spec
component, the same required and optional keys, and types that accept every
value the spec allows; the test names any drift.

The SDK returns the decoded JSON untouched: these types only tell your editor
and type checker what is inside. Keys the API marks as optional are
``NotRequired``; unknown extra keys from a newer server are simply there.

Two levels of detail:

* :class:`View` and :data:`Move` are game-agnostic (``state`` and moves are
  plain dicts): what :class:`~client_sdk.Bot` hands you, fine for a bot of one
  game that knows its state's keys.
* :data:`GameView` is the union of the per-game views (:class:`ConcertoView`,
  :class:`SecondsView`, :class:`CowpokeView`, :class:`PinochleView`), each with
  its typed ``state`` and ``legal_moves``; narrow on ``view["game"]``:

  ```python
  def choose_move(self, view: View) -> Move:
      typed = game_view(view)
      if typed["game"] == "pinochle":
          trump = typed["state"]["trump"] if typed["state"] else None
  ```

  Objects the spec leaves unnamed inside a state (a trick, a deal's result)
  stay ``dict[str, Any]``.

(No ``from __future__ import annotations`` here: ``TypedDict`` must see
``NotRequired`` at class creation to record which keys are optional.)
"""

from typing import Any, Literal, NotRequired, TypedDict, cast

Move = dict[str, Any]
"""A game move, e.g. Concerto ``{"type": "play", "card": "QS"}`` or ``{"type": "pass"}``;
:data:`ConcertoMove` and the other per-game unions type it exactly."""

Status = Literal["waiting", "active", "finished", "aborted"]

Card = str
"""Rank then suit, e.g. ``"TS"``, the ten of spades."""

Suit = Literal["S", "H", "D", "C"]


class SeatInfo(TypedDict):
    """One seat of a game: ``player_id`` and ``name`` are ``None`` while it is open;
    ``house`` (always true) marks one of the server's own bots."""

    seat: int
    name: str | None
    player_id: str | None
    house: NotRequired[Literal[True]]


class Result(TypedDict):
    """A finished game's result: one score per seat, and the winning seats."""

    termination: str
    """Why the game ended, e.g. ``"target_reached"``, or ``"forfeit"``."""
    scores: list[int]
    winners: list[int]
    forfeit: NotRequired[int]
    """The seat that forfeited (then ``scores`` are those when the game stopped)."""


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
    state: dict[str, Any] | None
    """Game-specific, already filtered for you (each game's rules page says what is in it);
    ``None`` (and no ``hand``) at a duplicate board's table that ended before another
    table of its board, until every table is over. Typed per game in :data:`GameView`."""
    result: Result | None


class TurnClock(TypedDict):
    """Your seat's clock as a turn tells it (every field None in an unclocked game)."""

    deadline: str | None
    """When the move is due (ISO 8601): the turn's start + the per-move time + the bank left."""
    bank_ms: int | None
    """Your time bank left, in milliseconds: a move may run past the per-move time into it."""
    last_latency_ms: int | None
    """Your last move in this game: ms from its turn's start to its commit (None before)."""


class Turn(TypedDict):
    """A game where you are to act, as ``GET /v1/me/turns`` lists it."""

    game_id: str
    seat: int
    version: int
    view: View
    clock: TurnClock


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


class TokenCallback(TypedDict):
    """What a token rotation did to the player's callback: removed (``kept`` false), or
    kept with a new signing ``secret`` (shown once)."""

    url: str
    kept: bool
    secret: NotRequired[str]


class RotatedToken(NewPlayer):
    """``POST .../token``: the new token (shown once) and what became of the callback
    (None: the player had none)."""

    callback: TokenCallback | None


class Rating(TypedDict):
    """A player's rating in one game."""

    mu: float
    sigma: float
    ordinal: float
    """``mu - 3 sigma``: what the leaderboard orders by."""
    games: int
    """Rated games played."""


class Player(TypedDict):
    """``GET /v1/players/me``: the caller's profile."""

    id: str
    name: str
    ratings: dict[str, Rating]
    """Per game the player has played rated games of."""
    games: list[str]
    """Ids of the unfinished games the player sits in."""


# -- per game: moves ----------------------------------------------------------


class PlayMove(TypedDict):
    """Play a card from your hand (Concerto, Seconds, Pinochle)."""

    type: Literal["play"]
    card: Card


class PassMove(TypedDict):
    """Pass (Concerto, Cowpoke, the Pinochle auction)."""

    type: Literal["pass"]


class ForceMove(TypedDict):
    """Concerto: call 'Play' on your partner."""

    type: Literal["force"]


class PutOutMove(TypedDict):
    """Cowpoke: put a card out on the table."""

    type: Literal["put_out"]
    card: Card


class TakeMove(TypedDict):
    """Cowpoke: take a card from the table."""

    type: Literal["take"]
    card: Card


class CallMove(TypedDict):
    """Cowpoke: call the showdown."""

    type: Literal["call"]


class BidMove(TypedDict):
    """Pinochle: bid in the auction."""

    type: Literal["bid"]
    amount: int


class TrumpMove(TypedDict):
    """Pinochle: the contract's holder names trump."""

    type: Literal["trump"]
    suit: Suit


class KeepMove(TypedDict):
    """Pinochle: keep the turn-up."""

    type: Literal["keep"]


class ExchangeDixMove(TypedDict):
    """Pinochle: exchange the dix (the nine of trump) for the turn-up."""

    type: Literal["exchange_dix"]


ConcertoMove = PlayMove | PassMove | ForceMove
SecondsMove = PlayMove
CowpokeMove = PutOutMove | TakeMove | CallMove | PassMove
PinochleMove = BidMove | PassMove | TrumpMove | KeepMove | ExchangeDixMove | PlayMove


# -- per game: public state -----------------------------------------------------


class SideScores(TypedDict):
    """A partnership game's two sides."""

    NS: int
    EW: int


class PlayedCard(TypedDict):
    """Concerto: one card of a hand, and who played it."""

    seat: int
    card: Card


class CompletedHand(TypedDict):
    """Concerto: a hand (a set of cards played together) once it is over."""

    deal: int
    number: int
    side: list[int]
    leader: int
    cards: list[PlayedCard]
    combination: Literal[
        "nothing", "one_pair", "two_pairs", "threes", "straight", "flush",
        "full_house", "fours", "straight_flush",
    ]  # fmt: skip
    points: int


class DealResult(TypedDict):
    """Concerto: one finished deal's scoring."""

    deal: int
    dealer: int
    hand_points: SideScores
    leftovers: dict[str, list[Card]]
    """The revealed left-overs, by side."""
    leftover_bonus: SideScores
    game_bonus: SideScores


class ConcertoState(TypedDict):
    """The public state of a Concerto game (rules page: docs/rules/concerto.md)."""

    rules: NotRequired[str]
    game_number: NotRequired[int]
    deal_number: int
    dealer: int
    hand_number: int
    leader: int
    current_hand: list[PlayedCard]
    completed_hands: list[CompletedHand]
    cards_left: list[int]
    deal_results: list[DealResult]
    side: NotRequired[list[int]]
    passes: NotRequired[int]
    forced: NotRequired[dict[str, Any] | None]
    deal_hand_points: NotRequired[SideScores]
    game_scores: NotRequired[SideScores]
    match_scores: NotRequired[SideScores | None]
    games: NotRequired[list[dict[str, Any]]]
    final_hands: NotRequired[list[Any] | None]


class TrickCard(TypedDict):
    """One card of a trick, and who played it (Seconds, Pinochle)."""

    seat: int
    card: Card


class SecondsState(TypedDict):
    """The public state of a Seconds game (identical for every seat)."""

    winner_rule: str
    first_dealer: int
    deal_number: int
    deals: int
    dealer: int
    scoring: str
    partners: list[int | None]
    """Each seat's partner this deal (None in a deal played without partners)."""
    leader: int
    trick_number: int
    current_trick: list[TrickCard]
    tricks: list[dict[str, Any]]
    tricks_won: list[int]
    cards_left: list[int]
    deal_results: list[dict[str, Any]]


class TableCard(TypedDict):
    """Cowpoke: a card put out on the table, and who took it."""

    owner: int
    card: Card
    taken_by: int | None


CowpokeTake = TypedDict("CowpokeTake", {"seat": int, "card": Card, "from": int, "auto": bool})
"""Cowpoke: one card taken from the table (``from``: the seat it was taken from)."""


class CowpokeState(TypedDict):
    """The public state of a Cowpoke game, as one seat sees it."""

    players: int
    suit_order: str
    dummy: bool
    deals: int
    deal_number: int
    dealer: int
    round: int
    phase: str
    cards_held: list[int]
    stack_size: int
    put_out_done: list[bool]
    table: list[TableCard]
    chooser: int | None
    unserved: list[int]
    takes: list[CowpokeTake]
    asked: int | None
    passes: list[int]
    exposed: list[list[Card]]
    """Each seat's cards shown face up."""
    rounds: list[dict[str, Any]]
    deal_results: list[dict[str, Any]]
    drawn: Card | None
    put_out: Card | None


PinochleMeld = TypedDict(
    "PinochleMeld", {"name": str, "class": str, "points": int, "cards": list[Card]}
)
"""Pinochle: one meld a seat showed."""


class PinochleState(TypedDict):
    """The public state of a Pinochle game (every variant), as one seat sees it."""

    variant: Literal["partnership", "firehouse", "check", "double-deck"]
    head_rule: str
    count: str
    target: int
    sides: list[list[int]]
    deal_number: int
    dealer: int
    phase: str
    turn_up: Card | None
    trump: Suit | None
    bids: list[dict[str, Any]]
    contract: dict[str, Any] | None
    exchange: dict[str, Any] | None
    melds: list[list[PinochleMeld]] | None
    """Each seat's melds once shown."""
    meld_points: list[int] | None
    exposed: list[list[Card]]
    leader: int
    trick_number: int
    current_trick: list[TrickCard]
    tricks: list[dict[str, Any]]
    tricks_won: list[int]
    counters: list[int]
    cards_left: list[int]
    deal_results: list[dict[str, Any]]
    scores: list[int]
    checks: list[int] | None
    check_log: list[dict[str, Any]] | None


# -- per game: views --------------------------------------------------------------


class ConcertoView(TypedDict):
    """A Concerto game as one seat (or a spectator) sees it; the keys of :class:`View`."""

    id: str
    game: Literal["concerto"]
    options: dict[str, Any]
    status: Status
    version: int
    seats: list[SeatInfo]
    you: int | None
    to_move: list[int]
    legal_moves: list[ConcertoMove]
    hand: NotRequired[list[Card]]
    scores: list[int]
    deadline: str | None
    deal_commitment: str
    state: ConcertoState | None
    result: Result | None


class SecondsView(TypedDict):
    """A Seconds game as one seat (or a spectator) sees it; the keys of :class:`View`."""

    id: str
    game: Literal["seconds"]
    options: dict[str, Any]
    status: Status
    version: int
    seats: list[SeatInfo]
    you: int | None
    to_move: list[int]
    legal_moves: list[SecondsMove]
    hand: NotRequired[list[Card]]
    scores: list[int]
    deadline: str | None
    deal_commitment: str
    state: SecondsState | None
    result: Result | None


class CowpokeView(TypedDict):
    """A Cowpoke game as one seat (or a spectator) sees it; the keys of :class:`View`."""

    id: str
    game: Literal["cowpoke"]
    options: dict[str, Any]
    status: Status
    version: int
    seats: list[SeatInfo]
    you: int | None
    to_move: list[int]
    legal_moves: list[CowpokeMove]
    hand: NotRequired[list[Card]]
    scores: list[int]
    deadline: str | None
    deal_commitment: str
    state: CowpokeState | None
    result: Result | None


class PinochleView(TypedDict):
    """A Pinochle game (any variant) as one seat (or a spectator) sees it."""

    id: str
    game: Literal["pinochle"]
    options: dict[str, Any]
    status: Status
    version: int
    seats: list[SeatInfo]
    you: int | None
    to_move: list[int]
    legal_moves: list[PinochleMove]
    hand: NotRequired[list[Card]]
    scores: list[int]
    deadline: str | None
    deal_commitment: str
    state: PinochleState | None
    result: Result | None


GameView = ConcertoView | SecondsView | CowpokeView | PinochleView
"""A view typed per game: narrow on ``view["game"]``."""


def game_view(view: View) -> GameView:
    """The same view, typed per game: after ``if typed["game"] == "cowpoke":`` the type
    checker knows the state's keys and the legal moves' shapes.

    >>> game_view({"game": "seconds", "legal_moves": []})["game"]
    'seconds'

    Nothing is checked or copied at run time: the server sends the keys the
    per-game schema names (``tests/sdk/test_types.py`` holds these types to it).
    """
    return cast(GameView, view)
