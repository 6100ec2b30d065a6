"""The ``concerto_signals`` convention card is data laid out like the card (bots/_signals/card.py).

Every holding of the leader's checklist (docs/bots/conventions.md, seed 000) has its
rows, together; the card names the bot that plays it, and what a caller gets is its own copy.
"""

from __future__ import annotations

from itertools import groupby

from bots._signals.card import CARD, RESPONSES, SIGNALS, convention_card
from bots._signals.leader import CHECKLIST
from bots.concerto_signals import SignalsBot


def test_each_holding_of_the_checklist_has_its_rows_together() -> None:
    holdings = [row["holding"] for row in SIGNALS]
    assert set(holdings) == set(CHECKLIST)
    runs = [holding for holding, _ in groupby(holdings)]
    assert len(runs) == len(set(runs))  # no holding's rows apart
    several = [row for row in SIGNALS if holdings.count(row["holding"]) > 1]
    assert several and all("meaning" in row for row in several)  # which pattern says what


def test_the_card_is_the_tables_and_names_the_bot_that_plays_it() -> None:
    card = convention_card()
    assert card["bot"] == SignalsBot.name
    assert card["signals"] == SIGNALS
    assert card["partner"]["responses"] == RESPONSES
    assert card["leader"]["checklist"] == list(CHECKLIST)


def test_each_caller_gets_its_own_copy_of_the_card() -> None:
    card = convention_card()
    card["signals"][0]["pattern"]["gap"] = 99
    card["partner"]["responses"].clear()
    card["deviations"].append("mine")
    assert convention_card() == CARD
    assert CARD["signals"][0]["pattern"]["gap"] == 4
    assert CARD["partner"]["responses"] and "mine" not in CARD["deviations"]
