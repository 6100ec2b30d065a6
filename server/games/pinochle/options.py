"""Pinochle's options and preset deals, each checked with every problem reported."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from ..kit.base import check_options, read_options
from ..kit.deals import (
    HandShape,
    Preset,
    cards_in,
    check_cards,
    check_deals,
    read_dealer,
    read_hands,
)
from .melds import VALUE_DEFAULTS, MeldTable
from .rules import (
    CHECK_TABLES,
    COUNTINGS,
    HEAD_RULES,
    VARIANTS,
    CheckTable,
    Counting,
    DoubleDeck,
    HeadRule,
    Partnership,
    Variant,
)

OPTIONS: dict[str, dict[str, Any]] = {
    "variant": {
        "default": None,
        "choices": list(VARIANTS),
        "doc": "partnership (turned trump), firehouse or check (auctions), double-deck (6 or 8); "
        "null: double-deck with 6 or 8 players, else partnership",
    },
    "players": {
        "default": None,
        "choices": [4, 6, 8],
        "doc": "4; double-deck is for 6 or 8 (null: 4, or 6 for double-deck)",
    },
    "head_rule": {
        "default": "seed",
        "choices": list(HEAD_RULES),
        "doc": "trick obligations: seed (overtrump when void, head trump leads), strict "
        "(always beat the winning card), trump-only (trump if void, head trump leads)",
    },
    "count": {
        "default": None,
        "choices": list(COUNTINGS),
        "doc": "counter values (null: simple for check, else traditional)",
    },
    "check_table": {
        "default": "seed",
        "choices": list(CHECK_TABLES),
        "doc": "Check's check values: the seed's table or the Bicycle rulebook's",
    },
    "target": {"default": 1000, "min": 1, "max": 100000, "doc": "score that wins the game"},
    "max_deals": {
        "default": None,
        "min": 1,
        "max": 10000,
        "doc": "null: play to the target; else the game also ends after this many deals, "
        "the higher score winning (equal: a draw)",
    },
    "first_dealer": {
        "default": None,
        "min": 0,
        "max": 7,
        "doc": "seat of the first dealer; null draws it from the deal seed",
    },
    **{
        name: {
            "default": value,
            "min": 0,
            "max": 100000,
            "doc": f"value of the meld {name.replace('_', ' ')}",
        }  # fmt: skip
        for name, value in VALUE_DEFAULTS.items()
    },
}


@dataclass(frozen=True)
class PinochleOptions:
    """Every option resolved (defaults filled in); the fields are the option names.

    The rule objects derived from them are looked up once per options object
    (``cached_property``), not on every trick.
    """

    variant: str = "partnership"
    players: int = 4
    head_rule: str = "seed"
    count: str = "traditional"
    check_table: str = "seed"
    target: int = 1000
    max_deals: int | None = None
    first_dealer: int | None = None
    triple_flush: int = VALUE_DEFAULTS["triple_flush"]
    double_flush: int = VALUE_DEFAULTS["double_flush"]
    quadruple_marriage: int = VALUE_DEFAULTS["quadruple_marriage"]
    triple_marriage: int = VALUE_DEFAULTS["triple_marriage"]
    double_marriage: int = VALUE_DEFAULTS["double_marriage"]
    quadruple_pinochle: int = VALUE_DEFAULTS["quadruple_pinochle"]
    triple_pinochle: int = VALUE_DEFAULTS["triple_pinochle"]
    double_pinochle: int = VALUE_DEFAULTS["double_pinochle"]
    sixteen_of_a_rank: int = VALUE_DEFAULTS["sixteen_of_a_rank"]
    twelve_aces: int = VALUE_DEFAULTS["twelve_aces"]
    twelve_kings: int = VALUE_DEFAULTS["twelve_kings"]
    twelve_queens: int = VALUE_DEFAULTS["twelve_queens"]
    twelve_jacks: int = VALUE_DEFAULTS["twelve_jacks"]
    eight_aces: int = VALUE_DEFAULTS["eight_aces"]
    eight_kings: int = VALUE_DEFAULTS["eight_kings"]
    eight_queens: int = VALUE_DEFAULTS["eight_queens"]
    eight_jacks: int = VALUE_DEFAULTS["eight_jacks"]

    @cached_property
    def rules(self) -> Variant:
        return VARIANTS[self.variant]

    @cached_property
    def head(self) -> HeadRule:
        return HEAD_RULES[self.head_rule]

    @cached_property
    def counting(self) -> Counting:
        return COUNTINGS[self.count]

    @cached_property
    def checks(self) -> CheckTable:
        return CHECK_TABLES[self.check_table]

    @cached_property
    def meld_table(self) -> MeldTable:
        return self.rules.meld_table({name: getattr(self, name) for name in VALUE_DEFAULTS})

    @cached_property
    def cards_each(self) -> int:
        return len(self.rules.pack.cards()) // self.players


def parse_options(raw: Mapping[str, Any] | None) -> PinochleOptions:
    """Check every option and fill in the defaults.

    ``variant``, ``players``, ``count`` and ``first_dealer`` may be null:
    double-deck for 6 or 8 players, else partnership; 4 players (6 for
    double-deck); simple counting for Check (traditional otherwise); a first
    dealer drawn from the seed. A ``check_table`` other than the default
    outside Check is refused, as is a player count the variant is not played by.

    Raises:
        InvalidOptions: naming every unknown option and every bad value.

    >>> parse_options({"variant": "double-deck"}).players
    6
    >>> parse_options({"players": 8}).variant, parse_options({}).variant
    ('double-deck', 'partnership')
    >>> parse_options({"variant": "check"}).count
    'simple'
    >>> sorted(parse_options_problems({"variant": "firehouse", "players": 6, "x": 1}))
    ['players', 'x']
    """
    return read_options(raw, OPTIONS, PinochleOptions, check_options_together)


def parse_options_problems(raw: Mapping[str, Any] | None) -> dict[str, str]:
    """The problems :func:`parse_options` would report (empty if none)."""
    problems, values = check_options(raw, OPTIONS)
    check_options_together(problems, values)
    return problems


def check_options_together(problems: dict[str, str], values: dict[str, Any]) -> None:
    """The variant, the players and the counting decide each other's defaults; the
    players, the check table and the first dealer must suit the variant."""
    if "variant" in problems:
        return
    if values["variant"] is None:
        many = values["players"] in DoubleDeck.players and "players" not in problems
        values["variant"] = DoubleDeck.name if many else Partnership.name
    variant = VARIANTS[values["variant"]]
    if values["players"] is None:
        values["players"] = variant.players[0]
    elif "players" not in problems and values["players"] not in variant.players:
        problems["players"] = (
            f"{variant.name} is played by {' or '.join(map(str, variant.players))}"
        )
    if values["count"] is None:
        values["count"] = variant.default_count
    if values["check_table"] != OPTIONS["check_table"]["default"] and not variant.keeps_checks:
        problems.setdefault("check_table", "only the check variant keeps checks")
    first, players = values["first_dealer"], values["players"]
    checkable = "first_dealer" not in problems and "players" not in problems
    if first is not None and checkable and first >= players:
        problems["first_dealer"] = f"must be a seat 0..{players - 1}"


def parse_deals(raw: Iterable[Any] | None, options: PinochleOptions) -> list[dict[str, Any]]:
    """Check preset deals, reporting every problem.

    A preset is ``{"dealer": seat?, "hands": [[card, ...] × players],
    "turn_up": card?}``; together the hands must be exactly the pack (48 or
    96 cards, each hand its share). ``dealer`` defaults to the rotation's
    dealer (the next deals rotate on from a given one). In the variants that
    turn a trump, ``turn_up`` is the dealer's last card, by default the last
    card listed in the dealer's hand; it must be in the dealer's hand. The
    auction variants turn nothing, so ``turn_up`` is refused there.

    Raises:
        InvalidDeal: with every problem found, each prefixed by its place.
    """
    rules, n = options.rules, options.players
    shape = HandShape(n, options.cards_each)

    def read(preset: Preset) -> dict[str, Any] | None:
        dealer = read_dealer(preset, n, required=False)
        hands = read_hands(preset, shape)
        if hands is None:
            return None
        check_cards(preset, cards_in(hands), rules.pack)
        turn_up = preset.fields.get("turn_up")
        if turn_up is not None:
            problem = _turn_up_problem(rules, preset, dealer, hands, turn_up)
            if problem:
                preset.problem(problem, ".turn_up")
        return {"dealer": dealer, "hands": hands, "turn_up": turn_up}

    return check_deals(
        raw,
        read,
        object_text="hands (dealer, turn_up optional)",
        fields=("dealer", "hands", "turn_up"),
    )


def _turn_up_problem(
    rules: Variant, preset: Preset, dealer: int | None, hands: list[Any], turn_up: Any
) -> str | None:
    """What is wrong with a preset's turned card, if anything (P21: only some variants turn one)."""
    if not rules.turns_trump:
        return f"{rules.name} turns no trump"
    if dealer is None:
        # A dealer that is there but wrong has its own problem already.
        return None if "dealer" in preset.fields else "name the dealer too"
    if not isinstance(hands[dealer], list) or turn_up not in hands[dealer]:
        return "must be a card of the dealer's hand"
    return None


def deal_in_packets(cards: list[str], players: int, first: int, packet: int) -> list[list[str]]:
    """Deal ``cards`` round the table in packets of ``packet``, starting with ``first``.

    The dealer is dealt last, so the pack's last card is the dealer's last card.

    >>> hands = deal_in_packets([str(i) for i in range(12)], 2, first=1, packet=3)
    >>> hands[1], hands[0]
    (['0', '1', '2', '6', '7', '8'], ['3', '4', '5', '9', '10', '11'])
    """
    hands: list[list[str]] = [[] for _ in range(players)]
    for i in range(0, len(cards), packet):
        hands[(first + i // packet) % players] += cards[i : i + packet]
    return hands
