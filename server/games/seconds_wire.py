"""Seconds' wire (:class:`~server.games.kit.wire.Wire`): its ``state`` view, its moves and
its events' ``data``, as ``seconds.py`` sends and takes them (docs/rules/seconds.md)."""

from __future__ import annotations

from .kit.wire import (
    GAME_OVER_EVENT,
    HAND_EVENT,
    INTEGER,
    INTEGERS,
    SEAT,
    STRING,
    TRICK_PLAY_EVENT,
    Wire,
    array,
    nullable,
    record,
    ref,
)

TRICK_CARDS = array(ref("TrickCard"))
PARTNERS = array(nullable(SEAT))

STATE = {
    "type": "object",
    "description": "the public state of a Seconds game (identical for every seat)",
    "additionalProperties": False,
    "required": [
        *("winner_rule", "first_dealer", "deal_number", "deals", "dealer", "scoring"),
        *("partners", "leader", "trick_number", "current_trick", "tricks", "tricks_won"),
        *("cards_left", "deal_results"),
    ],
    "properties": {
        "winner_rule": STRING,
        "first_dealer": SEAT,
        "deal_number": INTEGER,
        "deals": INTEGER,
        "dealer": SEAT,
        "scoring": STRING,
        "partners": array(
            nullable(SEAT),
            description="each seat's partner this deal (null in the deals played alone)",
        ),
        "leader": SEAT,
        "trick_number": INTEGER,
        "current_trick": TRICK_CARDS,
        "tricks": array(
            {
                "type": "object",
                "additionalProperties": False,
                "required": ["deal", "number", "leader", "cards", "winner", "rule"],
                "properties": {
                    "deal": INTEGER,
                    "number": INTEGER,
                    "leader": SEAT,
                    "cards": TRICK_CARDS,
                    "winner": SEAT,
                    "rule": STRING,
                },
            }
        ),
        "tricks_won": array(INTEGER),
        "cards_left": array(INTEGER),
        "deal_results": array(
            {
                "type": "object",
                "additionalProperties": False,
                "required": ["deal", "dealer", "scoring", "partners", "tricks", "points", "scores"],
                "properties": {
                    "deal": INTEGER,
                    "dealer": SEAT,
                    "scoring": STRING,
                    "partners": PARTNERS,
                    "tricks": array(INTEGER),
                    "points": array(INTEGER),
                    "scores": array(INTEGER),
                },
            }
        ),
    },
}

EVENTS = {
    "deal": record(
        {
            "deal": INTEGER,
            "dealer": SEAT,
            "partners": array({"type": ["integer", "null"]}),
            "scoring": STRING,
        },
        description="a deal begins",
    ),  # fmt: skip
    "hand": HAND_EVENT,
    "play": TRICK_PLAY_EVENT,
    "trick": record(
        {
            "number": INTEGER,
            "leader": SEAT,
            "winner": SEAT,
            "cards": TRICK_CARDS,
            "deal": INTEGER,
            "rule": STRING,
        },
        ["number", "leader", "cards", "winner", "deal", "rule"],
        description="a trick is complete",
    ),  # fmt: skip
    "deal_end": record(
        {
            "deal": INTEGER,
            "dealer": SEAT,
            "partners": array({"type": ["integer", "null"]}),
            "scoring": STRING,
            "tricks": INTEGERS,
            "points": INTEGERS,
            "scores": INTEGERS,
        },
        description="a deal is scored (per seat)",
    ),
    "game_over": GAME_OVER_EVENT,
}

WIRE = Wire(
    state=STATE,
    moves={"play": "PlayMove"},
    moves_description="Seconds: play a card",
    events=EVENTS,
)
