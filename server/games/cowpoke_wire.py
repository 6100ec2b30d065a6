"""Cowpoke's wire (:class:`~server.games.kit.wire.Wire`): its ``state`` view, its moves and
its events' ``data``, as ``cowpoke.py`` sends and takes them (docs/rules/cowpoke.md).

A table card's owner is a seat, or ``"dummy"`` for the dummy's put-out in a two-player
game (W5): ``CowpokeOwner``, a seat or the one string, wherever an owner is sent (the
table, the takes, the ``reveal``, ``take`` and ``out_of_play`` events)."""

from __future__ import annotations

from .kit.wire import (
    BOOLEAN,
    CARD,
    CARDS,
    COMBINATION,
    GAME_OVER_EVENT,
    HAND_EVENT,
    INTEGER,
    INTEGERS,
    SEAT,
    STRING,
    Wire,
    array,
    move,
    nullable,
    record,
    ref,
)

OWNER = ref("CowpokeOwner")
SEAT_OR_NULL = {"type": ["integer", "null"], "minimum": 0}

SHOWDOWN = record(
    {
        "deal": {"type": "integer", "minimum": 1, "description": "the deal's number"},
        "dealer": SEAT,
        "round": {"type": "integer", "minimum": 1, "description": "the round it followed"},
        "called_by": {
            **nullable(SEAT),
            "description": "the seat that called it; null when compulsory (ten cards each)",
        },
        "hands": array(CARDS, description="every seat's cards, shown"),
        "best": array(
            record(
                {"cards": {**CARDS, "minItems": 5, "maxItems": 5}, "combination": COMBINATION},
                description="a seat's best five cards and their category",
            ),
            description="each seat's best five-card Poker hand, by seat",
        ),
        "points": {
            **INTEGERS,
            "description": "each seat's points of this showdown (W8: 1 to"
            " each winner, 0 to the others)",
        },
        "scores": {**INTEGERS, "description": "each seat's score after it"},
        "winners": array(
            SEAT, description="the seats whose hands are best (W7: equal hands share the win)"
        ),
    },
    description="a showdown (W7, W8): the hands shown, the best of each, who won it",
)
"""The record of a showdown: each in the state's ``deal_results``, the ``showdown`` event."""

SHAPES = {
    "PutOutMove": move("put_out", "Cowpoke: put a card out on the table", card=CARD),
    "TakeMove": move("take", "Cowpoke: take a card from the table", card=CARD),
    "CallMove": move("call", "Cowpoke: call the showdown"),
    "CowpokeOwner": {
        "description": "a seat, or `dummy` (the dummy hand's put-out, with two players)",
        "oneOf": [SEAT, {"type": "string", "enum": ["dummy"]}],
    },
    "TableCard": {
        "type": "object",
        "additionalProperties": False,
        "required": ["owner", "card", "taken_by"],
        "properties": {"owner": OWNER, "card": CARD, "taken_by": nullable(SEAT)},
    },
    "CowpokeTake": {
        "type": "object",
        "additionalProperties": False,
        "required": ["seat", "card", "from", "auto"],
        "properties": {"seat": SEAT, "card": CARD, "from": OWNER, "auto": BOOLEAN},
    },
}

STATE = {
    "type": "object",
    "description": "the public state of a Cowpoke game (identical for every seat)",
    "additionalProperties": False,
    "required": [
        *("players", "suit_order", "dummy", "deals", "deal_number", "dealer", "round"),
        *("phase", "cards_held", "stack_size", "put_out_done", "table", "chooser"),
        *("unserved", "takes", "asked", "passes", "exposed", "rounds", "deal_results"),
        *("drawn", "put_out"),
    ],
    "properties": {
        "players": INTEGER,
        "suit_order": STRING,
        "dummy": BOOLEAN,
        "deals": INTEGER,
        "deal_number": INTEGER,
        "dealer": SEAT,
        "round": INTEGER,
        "phase": STRING,
        "cards_held": array(INTEGER),
        "stack_size": INTEGER,
        "put_out_done": array(BOOLEAN),
        "table": array(ref("TableCard")),
        "chooser": SEAT_OR_NULL,
        "unserved": array(SEAT),
        "takes": array(ref("CowpokeTake")),
        "asked": SEAT_OR_NULL,
        "passes": array(SEAT),
        "exposed": array(CARDS, description="each seat's cards shown face up"),
        "rounds": array(
            record(
                {
                    "round": INTEGER,
                    "put_outs": array(ref("TableCard")),
                    "takes": array(ref("CowpokeTake")),
                    "out_of_play": {
                        **nullable(CARD),
                        "description": "the card left over at the exchange's end, face up"
                        " (W5, two players with the dummy); null in the other games",
                    },
                },
                description="a finished round of this deal",
            )
        ),
        "deal_results": array(SHOWDOWN, description="each showdown so far, the first first"),
        "drawn": nullable(CARD),
        "put_out": nullable(CARD),
    },
}

SEAT_IN_ROUND = {"round": INTEGER, "seat": SEAT}

EVENTS = {
    "deal": record({"deal": INTEGER, "dealer": SEAT}, description="a deal begins"),
    "hand": HAND_EVENT,
    "round": record({"deal": INTEGER, "round": INTEGER}),
    "draw": record(
        {"seat": SEAT, "card": CARD}, description="a card drawn (seen by its seat only)"
    ),
    "put_out": record(SEAT_IN_ROUND),
    "reveal": record(
        {
            "round": INTEGER,
            "chooser": SEAT,
            "put_outs": array(
                record({"owner": OWNER, "card": nullable(CARD), "taken_by": nullable(SEAT)})
            ),
        },
        ["round", "put_outs", "chooser"],
    ),
    "take": record({"seat": SEAT, "card": CARD, "from": OWNER, "auto": BOOLEAN}),
    "out_of_play": record({"card": CARD, "from": OWNER}),
    "asking": record({"round": INTEGER, "asked": SEAT}),
    "call": record(SEAT_IN_ROUND),
    "pass": record({"seat": SEAT, "round": INTEGER}, description="a pass"),
    "showdown": SHOWDOWN,
    "game_over": GAME_OVER_EVENT,
}

WIRE = Wire(
    state=STATE,
    moves={"put_out": "PutOutMove", "take": "TakeMove", "call": "CallMove", "pass": "PassMove"},
    moves_description=(
        "Cowpoke: put a card out, take one from the table, call the showdown, or pass"
    ),
    events=EVENTS,
    shapes=SHAPES,
)
