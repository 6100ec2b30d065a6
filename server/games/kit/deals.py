"""Preset deals: the one checker of their shape, each game adding only its own fields.

A client may fix the cards of the first deals of a game (for tests, for
duplicate tournaments). Every game checks its presets the same way, and
reports every problem at once, each prefixed by its place (``deals[1].hands``),
so a client fixes its request once instead of once per problem:

* the list: at most as many presets as the game has deals, if it says so;
* each preset: an object, with no field the game does not know;
* its hands: one per player, each of the game's hand size;
* its cards: cards of the game's pack, no card more often than the pack holds
  it, and (once the count is right) no card of the pack missing.

A game supplies a ``read`` function for one preset (its dealer, its hands and
whatever else its deal has) built from the helpers here.

>>> from .cards import STANDARD
>>> hands = HandShape(players=2, size=26, hands_text="two hands")
>>> def read(p: Preset) -> dict[str, Any] | None:
...     cards = read_hands(p, hands)
...     if cards is None:
...         return None
...     check_cards(p, [c for h in cards for c in h], STANDARD)
...     return {"hands": cards}
>>> try:
...     check_deals([{"hands": [[]]}, 7], read, object_text="hands")
... except InvalidDeal as error:
...     error.problems
['deals[0].hands: must be two hands', 'deals[1]: must be an object with hands']
>>> check_deals([{"hands": [STANDARD.cards()[:26], STANDARD.cards()[26:]]}], read,
...             object_text="hands")[0]["hands"][1][:3]
['AD', 'KD', 'QD']
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from .base import InvalidDeal, Seat
from .cards import Pack


@dataclass
class Preset:
    """One preset deal being read: its place, its index and its fields, and the problems so far."""

    where: str
    index: int
    fields: Mapping[str, Any]
    problems: list[str]

    def problem(self, text: str, field: str = "") -> None:
        self.problems.append(f"{self.where}{field}: {text}")


@dataclass(frozen=True)
class HandShape:
    """How many hands a preset has and how many cards each holds, and how to say so."""

    players: int
    size: int
    hands_text: str = ""
    """What ``hands`` must be, e.g. ``four hands``; by default ``<players> hands``."""
    hand_text: str = ""
    """What each hand must hold, e.g. ``13 cards``; by default ``<size> cards``."""

    def must_be(self) -> str:
        return self.hands_text or f"{self.players} hands"

    def must_hold(self) -> str:
        return self.hand_text or f"{self.size} cards"


def check_deals(
    raw: Iterable[Any] | None,
    read: Callable[[Preset], dict[str, Any] | None],
    *,
    object_text: str,
    fields: Collection[str] | None = None,
    at_most: tuple[int, str] | None = None,
) -> list[dict[str, Any]]:
    """Check every preset with ``read`` and return what it read, or raise with every problem.

    ``object_text`` says what a preset holds (``must be an object with …``);
    ``fields``, if given, are the only fields a preset may have; ``at_most``
    is the most presets a game takes and why.

    Raises:
        InvalidDeal: with every problem found, each prefixed by its place.
    """
    problems: list[str] = []
    deals: list[dict[str, Any]] = []
    presets = list(raw or [])
    if at_most is not None and len(presets) > at_most[0]:
        problems.append(f"deals: at most {at_most[0]} presets ({at_most[1]})")
    for i, deal in enumerate(presets):
        preset = Preset(f"deals[{i}]", i, {}, problems)
        if not isinstance(deal, Mapping):
            preset.problem(f"must be an object with {object_text}")
            continue
        preset.fields = deal
        extra = deal.keys() - set(fields) if fields is not None else set()
        if extra:
            preset.problem(f"unknown field(s) {', '.join(sorted(map(str, extra)))}")
        read_deal = read(preset)
        if read_deal is not None:
            deals.append(read_deal)
    if problems:
        raise InvalidDeal(problems)
    return deals


def read_dealer(preset: Preset, players: int, required: bool) -> Seat | None:
    """The preset's ``dealer``: a seat, or None when it is left out (and may be) or wrong."""
    dealer = preset.fields.get("dealer")
    if dealer is None and not required:
        return None
    if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < players:
        preset.problem(f"must be a seat 0..{players - 1}", ".dealer")
        return None
    return dealer


def check_scheduled_dealer(preset: Preset, expected: Seat) -> Seat:
    """A ``dealer``, if given, must be the one the rotation fixes; returns that one."""
    if "dealer" in preset.fields and preset.fields["dealer"] != expected:
        preset.problem(f"deal {preset.index + 1} is dealt by seat {expected}", ".dealer")
    return expected


def read_hands(preset: Preset, shape: HandShape) -> list[list[Any]] | None:
    """The preset's ``hands`` (copied), or None when it is not a list of one hand per player.

    A hand of the wrong size is a problem, but the hands are still returned,
    so that their cards can be checked too.
    """
    hands = preset.fields.get("hands")
    if not isinstance(hands, list) or len(hands) != shape.players:
        preset.problem(f"must be {shape.must_be()}", ".hands")
        return None
    for seat, hand in enumerate(hands):
        if not isinstance(hand, list) or len(hand) != shape.size:
            preset.problem(f"must hold {shape.must_hold()}", f".hands[{seat}]")
    return [list(h) if isinstance(h, list) else h for h in hands]


def cards_in(hands: Iterable[Any]) -> list[Any]:
    """Every card of the hands that are lists."""
    return [c for h in hands if isinstance(h, list) for c in h]


def check_cards(preset: Preset, cards: list[Any], pack: Pack, *, counted: bool = True) -> None:
    """The cards of a preset must be exactly ``pack``: every problem, then what is missing.

    With ``counted`` (the hands' sizes fix how many cards there are) missing
    cards are named once there are as many cards as the pack has; otherwise
    once the cards have no other problem.
    """
    pack_problems = pack.problems(cards)
    for text in pack_problems:
        preset.problem(text)
    # Only strings can be cards; anything else (an object, a list) is already a
    # problem above, and may not even be hashable.
    missing = sorted(set(pack.cards()) - {c for c in cards if isinstance(c, str)})
    complete = len(cards) == len(pack.cards()) if counted else not pack_problems
    if missing and complete:
        preset.problem(f"missing {', '.join(missing)}")
