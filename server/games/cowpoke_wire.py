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
        "required": ["owner", "card", "taken_by"],
        "properties": {"owner": OWNER, "card": CARD, "taken_by": nullable(SEAT)},
    },
    "CowpokeTake": {
        "type": "object",
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
            {
                "type": "object",
                "additionalProperties": True,
                "required": ["round", "put_outs", "takes"],
                "properties": {
                    "round": INTEGER,
                    "put_outs": array(ref("TableCard")),
                    "takes": array(ref("CowpokeTake")),
                },
            }
        ),
        "deal_results": array(
            {
                "type": "object",
                "additionalProperties": True,
                "required": ["deal", "dealer"],
                "properties": {
                    "deal": INTEGER,
                    "dealer": SEAT,
                    "round": INTEGER,
                    "called_by": {"type": ["integer", "null"]},
                    "hands": array(CARDS),
                },
            }
        ),
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
    "showdown": record(
        {
            "deal": INTEGER,
            "dealer": SEAT,
            "round": INTEGER,
            "called_by": nullable(SEAT),
            "hands": array(CARDS),
            "best": array(record({"cards": CARDS, "combination": STRING})),
            "points": INTEGERS,
            "scores": INTEGERS,
            "winners": array(SEAT),
        }
    ),
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
