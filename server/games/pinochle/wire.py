"""Pinochle's wire (:class:`~server.games.kit.wire.Wire`), every variant: its ``state``
view, its moves and its events' ``data``, as :mod:`.state` sends and takes them
(docs/rules/pinochle.md)."""

from __future__ import annotations

from ..kit.wire import (
    BOOLEAN,
    CARD,
    CARDS,
    GAME_OVER_EVENT,
    HAND_EVENT,
    INTEGER,
    INTEGERS,
    SEAT,
    STRING,
    SUIT,
    TRICK_PLAY_EVENT,
    Schema,
    Wire,
    array,
    move,
    nullable,
    record,
    ref,
)
from .rules import VARIANTS

TRICK_CARDS = array(ref("TrickCard"))
CHECKS = array(ref("PinochleCheck"))


def by_side(schema: Schema, description: str) -> Schema:
    """Two of ``schema``, side 0's then side 1's, described."""
    return array(schema, description=f"{description}, by side", minItems=2, maxItems=2)


DEAL_RESULT = record(
    {
        "deal": {"type": "integer", "minimum": 1, "description": "the deal's number"},
        "dealer": SEAT,
        "trump": {**SUIT, "description": "the deal's trump suit"},
        "contract": {
            **nullable(
                record(
                    {
                        "bidder": SEAT,
                        "amount": {"type": "integer", "minimum": 1},
                        "made": BOOLEAN,
                    },
                    description="the auction's winner, its bid, and whether its side made it",
                )
            ),
            "description": "the contract (the variants with an auction); null without one",
        },
        "melds": by_side(INTEGER, "the points of the melds shown"),
        "melds_counted": by_side(
            INTEGER, "the meld points that count (P17: none for a side without a trick)"
        ),
        "counters": by_side(INTEGER, "the counter points taken in tricks"),
        "tricks": by_side(INTEGER, "the tricks won"),
        "made": by_side(INTEGER, "what the side made: its counted melds plus its counters"),
        "counted": by_side(
            BOOLEAN,
            "whether the side's points were counted (false for the bidders' opponents when"
            " the bidders reached the target first)",
        ),
        "points": by_side(
            INTEGER,
            "the points scored this deal (with a contract: the bid lost, negative, when the"
            " bidders did not make it; 0 when not counted)",
        ),
        "scores": by_side(INTEGER, "the score after the deal"),
        "checks": array(
            ref("PinochleCheck"),
            description="the deal checks paid at its end (P13; the check variant, else empty)",
        ),
    },
    description="a scored deal (P17, P18 and the variants' scoring)",
)
"""A deal's scoring, as the state's ``deal_results`` and the ``deal_end`` event send it."""

SHAPES = {
    "BidMove": move(
        "bid", "Pinochle: bid in the auction", amount={"type": "integer", "minimum": 1}
    ),
    "TrumpMove": move("trump", "Pinochle: the contract's holder names trump", suit=SUIT),
    "KeepMove": move("keep", "Pinochle: keep the turn-up"),
    "ExchangeDixMove": move(
        "exchange_dix", "Pinochle: exchange the dix (the nine of trump) for the turn-up"
    ),
    "PinochleMeld": {
        "type": "object",
        "additionalProperties": False,
        "required": ["name", "class", "points", "cards"],
        "properties": {"name": STRING, "class": STRING, "points": INTEGER, "cards": CARDS},
    },
    "PinochleCheck": record(
        {"deal": INTEGER, "side": INTEGER, "checks": INTEGER, "reason": STRING, "seat": SEAT},
        ["deal", "side", "checks", "reason"],
        description="checks a side earned (the check variant)",
    ),
}

STATE = {
    "type": "object",
    "description": "the public state of a Pinochle game, every variant (identical for every seat)",
    "additionalProperties": False,
    "required": [
        *("variant", "head_rule", "count", "target", "sides", "deal_number", "dealer"),
        *("phase", "turn_up", "trump", "bids", "contract", "exchange", "melds"),
        *("meld_points", "exposed", "leader", "trick_number", "current_trick", "tricks"),
        *("tricks_won", "counters", "cards_left", "deal_results", "scores", "checks"),
        "check_log",
    ],
    "properties": {
        "variant": {"type": "string", "enum": list(VARIANTS)},
        "head_rule": STRING,
        "count": STRING,
        "target": INTEGER,
        "sides": array(array(SEAT)),
        "deal_number": INTEGER,
        "dealer": SEAT,
        "phase": STRING,
        "turn_up": nullable(CARD),
        "trump": nullable(SUIT),
        "bids": array(
            {
                "type": "object",
                "additionalProperties": False,
                "required": ["seat"],
                "properties": {"seat": SEAT, "amount": {"type": ["integer", "null"]}},
            }
        ),
        "contract": {
            "type": ["object", "null"],
            "additionalProperties": False,
            "required": ["bidder", "amount"],
            "properties": {"bidder": SEAT, "amount": INTEGER},
        },
        "exchange": {
            "type": ["object", "null"],
            "additionalProperties": False,
            "required": ["seat", "gave", "took"],
            "properties": {"seat": SEAT, "gave": CARD, "took": CARD},
        },
        "melds": {
            "type": ["array", "null"],
            "description": "each seat's melds once shown",
            "items": array(ref("PinochleMeld")),
        },
        "meld_points": {"type": ["array", "null"], "items": INTEGER},
        "exposed": array(CARDS),
        "leader": SEAT,
        "trick_number": INTEGER,
        "current_trick": TRICK_CARDS,
        "tricks": array(
            {
                "type": "object",
                "additionalProperties": False,
                "required": ["number", "leader", "cards", "winner", "counters", "last"],
                "properties": {
                    "number": INTEGER,
                    "leader": SEAT,
                    "cards": TRICK_CARDS,
                    "winner": SEAT,
                    "counters": INTEGER,
                    "last": BOOLEAN,
                },
            }
        ),
        "tricks_won": array(INTEGER),
        "counters": array(INTEGER),
        "cards_left": array(INTEGER),
        "deal_results": array(DEAL_RESULT, description="each deal scored so far, the first first"),
        "scores": array(INTEGER, description="by side"),
        "checks": {
            "type": ["array", "null"],
            "description": "check variant: each side's checks",
            "items": INTEGER,
        },
        "check_log": {
            "type": ["array", "null"],
            "description": "check variant: every payment of checks, the first first (null in"
            " the other variants)",
            "items": ref("PinochleCheck"),
        },
    },
}

EVENTS = {
    "deal": record(
        {
            "deal": INTEGER,
            "dealer": SEAT,
            "trump": {"type": ["string", "null"]},
            "turn_up": nullable(CARD),
        },
        description="a deal begins",
    ),  # fmt: skip
    "hand": HAND_EVENT,
    "bid": record({"seat": SEAT, "amount": INTEGER}),
    "pass": record({"seat": SEAT}, description="a pass"),
    "contract": record({"bidder": SEAT, "amount": INTEGER}),
    "trump": record({"seat": SEAT, "suit": STRING}),
    "keep": record({"seat": SEAT}),
    "exchange": record(
        {"seat": SEAT, "gave": CARD, "took": CARD},
        description="a Pinochle nine of trump exchanged for the turn-up",
    ),
    "melds": record(
        {
            "trump": STRING,
            "melds": array(array(ref("PinochleMeld")), description="each seat's melds"),
            "points": INTEGERS,
            "checks": CHECKS,
        }
    ),
    "play": TRICK_PLAY_EVENT,
    "trick": record(
        {
            "number": INTEGER,
            "leader": SEAT,
            "winner": SEAT,
            "cards": TRICK_CARDS,
            "counters": INTEGER,
            "last": BOOLEAN,
        },
        ["number", "leader", "cards", "winner", "counters", "last"],
        description="a trick is complete",
    ),  # fmt: skip
    "deal_end": {**DEAL_RESULT, "description": "a deal is scored (per side)"},
    "game_over": {
        **GAME_OVER_EVENT,
        "properties": {
            **GAME_OVER_EVENT["properties"],
            "checks": {**nullable(INTEGERS), "description": "per side"},
        },
    },
}

WIRE = Wire(
    state=STATE,
    moves={
        "bid": "BidMove",
        "pass": "PassMove",
        "trump": "TrumpMove",
        "keep": "KeepMove",
        "exchange_dix": "ExchangeDixMove",
        "play": "PlayMove",
    },
    moves_description=(
        "Pinochle (every variant): bid or pass in the auction, name trump, keep the turn-up"
        " or exchange the dix for it, play a card"
    ),
    events=EVENTS,
    shapes=SHAPES,
)
