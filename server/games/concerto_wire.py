"""Concerto's wire (:class:`~server.games.kit.wire.Wire`): its ``state`` view, its moves
and its events' ``data``, as ``concerto.py`` sends and takes them (docs/rules/concerto.md)."""

from __future__ import annotations

from .kit.wire import (
    CARD,
    CARDS,
    COMBINATION,
    GAME_OVER_EVENT,
    HAND_EVENT,
    INTEGER,
    SEAT,
    STRING,
    Wire,
    array,
    move,
    nullable,
    record,
    ref,
)

SIDE_SCORES = ref("SideScores")
SIDE = array(SEAT)
WINNER = {
    "type": ["string", "null"],
    "description": "the winning side (`NS` or `EW`); null when the game ends level",
}

SHAPES = {
    "ForceMove": move("force", "Concerto: call 'Play' on your partner"),
    "SideScores": {
        "type": "object",
        "additionalProperties": False,
        "required": ["NS", "EW"],
        "properties": {"NS": INTEGER, "EW": INTEGER},
    },
    "PlayedCard": {
        "type": "object",
        "additionalProperties": False,
        "required": ["seat", "card"],
        "properties": {"seat": SEAT, "card": CARD},
    },
    "CompletedHand": {
        "type": "object",
        "additionalProperties": False,
        "required": ["deal", "number", "side", "leader", "cards", "combination", "points"],
        "properties": {
            "deal": INTEGER,
            "number": {"type": "integer", "minimum": 1, "maximum": 8},
            "side": SIDE,
            "leader": SEAT,
            "cards": array(ref("PlayedCard")),
            "combination": {k: v for k, v in COMBINATION.items() if k != "description"},
            "points": INTEGER,
        },
    },
    "DealResult": record(
        {
            "game": {
                "type": "integer",
                "minimum": 1,
                "description": "the game of the match the deal was played in (1 outside a match)",
            },
            "deal": {
                "type": "integer",
                "minimum": 1,
                "description": "the deal's number in its game",
            },
            "dealer": SEAT,
            "hand_points": {**SIDE_SCORES, "description": "each side's hand score (C16)"},
            "leftovers": {
                "type": "object",
                "description": "the revealed left-overs, by side (C14, C15, C17, C19)",
                "additionalProperties": CARDS,
            },
            "leftover_bonus": {**SIDE_SCORES, "description": "each side's left-over bonus"},
            "game_bonus": {
                **SIDE_SCORES,
                "description": "each side's game bonus (C22: 0 unless it alone reached the target)",
            },
            "scores": {
                **SIDE_SCORES,
                "description": "each side's score in the game after the deal, bonuses included",
            },
        },
        description="a scored deal",
    ),
}

STATE = {
    "type": "object",
    "description": "the public state of a Concerto game (identical for every seat)",
    "required": [
        *("deal_number", "dealer", "hand_number", "leader", "current_hand"),
        *("completed_hands", "cards_left", "deal_results"),
    ],
    "properties": {
        "rules": {"type": "string", "description": "the rules edition"},
        "game_number": INTEGER,
        "deal_number": INTEGER,
        "dealer": SEAT,
        "hand_number": {"type": "integer", "minimum": 1, "maximum": 8},
        "leader": SEAT,
        "current_hand": array(ref("PlayedCard")),
        "completed_hands": array(ref("CompletedHand")),
        "cards_left": array(INTEGER),
        "deal_results": array(ref("DealResult")),
        "side": SIDE,
        "passes": INTEGER,
        "forced": {
            "type": ["object", "null"],
            "additionalProperties": False,
            "required": ["by", "player"],
            "properties": {"by": SEAT, "player": SEAT},
        },
        "deal_hand_points": SIDE_SCORES,
        "game_scores": SIDE_SCORES,
        "match_scores": nullable(SIDE_SCORES),
        "games": array(
            record(
                {"game": INTEGER, "scores": SIDE_SCORES, "winner": WINNER},
                description="a finished game of the match",
            ),
            description="the match's finished games (empty outside a match)",
        ),
        "final_hands": {
            "type": ["array", "null"],
            "description": "each seat's cards left when the game ended (null before)",
            "items": CARDS,
        },
    },
    "additionalProperties": False,
}

EVENTS = {
    "deal": record({"deal": INTEGER, "dealer": SEAT, "game": INTEGER}, description="a deal begins"),
    "hand": HAND_EVENT,
    "play": record(
        {"seat": SEAT, "card": CARD, "hand_number": INTEGER}, description="a card played"
    ),
    "pass": record({"seat": SEAT, "passes": INTEGER}, description="a pass"),
    "force": record({"seat": SEAT, "partner": SEAT}),
    "hand_complete": record(
        {
            "deal": INTEGER,
            "number": INTEGER,
            "leader": SEAT,
            "cards": array(ref("TrickCard")),
            "combination": STRING,
            "points": INTEGER,
            "side": SIDE,
        },
        description="a Concerto hand is complete",
    ),
    "deal_end": {**SHAPES["DealResult"], "description": "a deal is scored (the sides' scores)"},
    "game_end": record(
        {
            "game": INTEGER,
            "winner": WINNER,
            "scores": SIDE_SCORES,
            "hands": array(CARDS),
        },
        description="a Concerto game (of a match's games) is won",
    ),
    "game_over": GAME_OVER_EVENT,
}

WIRE = Wire(
    state=STATE,
    moves={"play": "PlayMove", "pass": "PassMove", "force": "ForceMove"},
    moves_description="Concerto: play a card, pass, or call 'Play' (force)",
    events=EVENTS,
    shapes=SHAPES,
)
