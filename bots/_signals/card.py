"""The ``concerto_signals`` bot's convention card, as data laid out like the card itself.

:func:`convention_card` assembles it from the tables below: what the leader
does (:data:`LEADER`), one row per signal in checklist order (:data:`SIGNALS`),
what the partner answers (:data:`PARTNER`) and where the bot departs from
Parlett (:data:`DEVIATIONS`). A signal's pattern describes the leader's first
two cards: ``same_rank``, ``same_suit``, ``same_colour``, ``in_range`` (at most
four ranks apart, the ace high or low as fits), ``direction`` (``rising`` /
``falling``) and ``gap`` (rank difference); ``then`` is ``card``, ``pass`` or
``force``.
"""

from __future__ import annotations

import copy
from typing import Any

from .leader import CHECKLIST

BOT = "concerto_signals"
"""The bot that plays this card (its ``SignalsBot.name``)."""

LEADER: dict[str, Any] = {
    "checklist": list(CHECKLIST),
    "live_only": "a straight-flush holding is shown only if the cards it lacks "
                 "are not among the deal's completed hands",
    "after_a_pass": "once the signal is sent, when the partner passes: a card of "
                    "the best hand we can finish alone, of its most repeated rank",
}  # fmt: skip


def signal(
    holding: str, example: str, meaning: str | None = None, **pattern: Any
) -> dict[str, Any]:
    """One row of the card: the holding, what it means when one holding has several
    patterns, an example, and the pattern of the leader's first two cards."""
    row: dict[str, Any] = {"holding": holding}
    if meaning is not None:
        row["meaning"] = meaning
    return {**row, "example": example, "pattern": pattern}


# fmt: off
SIGNALS: list[dict[str, Any]] = [
    #      holding             example        meaning, then the pattern
    signal("straight_flush_5", "AS then 5S", same_suit=True, direction="rising", gap=4),
    signal("fours",            "7H then 7D", same_rank=True, first_suit="H", second_suit="D"),
    signal("straight_flush_4", "2S then 5S", "four in sequence (L xx H)",
           same_suit=True, direction="rising", gap=3),
    signal("straight_flush_4", "3S then 5S", "three in sequence, one higher or lower (L x H)",
           same_suit=True, direction="rising", gap=2),
    signal("straight_flush_4", "5S then 2S", "one missing between (H xx L)",
           same_suit=True, direction="falling", gap=3),
    signal("straight_flush_3", "4S then 5S", "two in sequence, one higher (LH)",
           same_suit=True, direction="rising", gap=1),
    signal("straight_flush_3", "5S then 4S", "two in sequence, one lower (HL)",
           same_suit=True, direction="falling", gap=1),
    signal("straight_flush_3", "5S then 3S", "three in sequence (H x L)",
           same_suit=True, direction="falling", gap=2),
    signal("straight_flush_3", "5S then AS", "none consecutive (H xxx L)",
           same_suit=True, direction="falling", gap=4),
    signal("two_threes",       "4H then JD",
           same_rank=False, same_suit=False, same_colour=True, in_range=False),
    signal("full_house",       "4H then JS", "threes first (also two threes in range)",
           same_rank=False, same_colour=False),
    signal("threes",           "7H then pass", first="red, the heart if held", then="pass"),
    signal("flush_5",          "4D then JD", same_suit=True, in_range=False, direction="rising"),
    signal("straight_5",       "4C then 8S",
           same_suit=False, same_colour=True, direction="rising", gap=4),
    signal("two_pairs",        "7C then 7H",
           same_rank=True, order="black-red or minor-major, never heart then diamond"),
    signal("flush_4",          "4S then 7S", same_suit=True, in_range=True, direction="rising"),
    signal("straight_4",       "4C then 6S",
           same_suit=False, same_colour=True, in_range=True, direction="rising", gap=[1, 2, 3]),
    signal("flush_3",          "8S then 4S",
           same_suit=True, in_range=True, direction="falling", gap=[1, 2, 4]),
    signal("straight_3",       "8C then 4S",
           same_suit=False, same_colour=True, in_range=True, direction="falling"),
    signal("pair",             "7S then pass", first="black (the diamond if both red)",
           then="pass"),
    signal("nothing",          "2C then 'Play'", then="force"),
]
"""One row per signal, as the card lists them: the straight-flush holdings by their
patterns, then the rest as the checklist meets them; a holding with several patterns
has a row for each, with its meaning."""

RESPONSES: dict[str, str] = {
    # reading           what the partner adds
    "straight_flush":   "play the card(s) the signalled holding lacks if we hold them all; "
                        "else give suit cards for a flush",
    "fours":            "call 'Play'",
    "two_threes":       "give the fourth of either rank (fours 3+1), else 'Play'",
    "full_house":       "give the fourth of the threes (fours 3+1), else 'Play'",
    "threes":           "give the fourth (fours 3+1), else a pair (full house)",
    "pair":             "give two of its rank (fours 2+2), or one and a pair (full house)",
    "two_pairs":        "give the other two of the rank (fours 2+2), or one (full house)",
    "flush_5":          "call 'Play'",
    "straight_5":       "call 'Play'",
    "straight":         "give two or three cards filling the straight, else 'Play'",
    "nothing":          "complete the hand alone",
}
"""The partner's answer to each reading (:func:`bots._signals.partner.partner_cards`)."""
# fmt: on

PARTNER: dict[str, Any] = {
    "after_the_lead": "pass, unless the lead and four of our cards make 12+ points "
                      "(a straight flush 1+4 or fours 1+3): then play them, and the "
                      "leader passes until the hand is complete",
    "responses": RESPONSES,
    "then": "call 'Play': the leader completes the hand alone",
    "reads_visible_hands": True,
}  # fmt: skip

DEVIATIONS: list[str] = [
    "Parlett's table lets several holdings share a pattern; this bot keeps "
    "them apart: straights are shown in one colour (different suits), full "
    "houses in two colours, and two threes within range use the full-house "
    "pattern.",
    "Two pairs are always shown by a pair of the same rank (Parlett's "
    "'different rank, high then low' is read but not sent).",
    "'Threes only' (red and pass) sits after the full house in the checklist; "
    "Parlett's checklist does not place it.",
    "A leader with nothing to show plays its lowest card and then calls 'Play'.",
    "Strong and weak signals are used on any hand, whichever the checklist reaches first.",
]
"""Where Parlett leaves a choice or his table is ambiguous: what this bot does."""


CARD: dict[str, Any] = {
    "game": "concerto",
    "system": "Parlett's Concerto signals (docs/bots/conventions.md, seed 000)",
    "bot": BOT,
    "version": 1,
    "leader": LEADER,
    "signals": SIGNALS,
    "partner": PARTNER,
    "deviations": DEVIATIONS,
}
"""The whole card, as :func:`convention_card` hands out copies of it."""


def convention_card() -> dict[str, Any]:
    """This bot's conventions, machine-readable, for opponents and human partners
    (a fresh copy: a caller may change it freely)."""
    return copy.deepcopy(CARD)
