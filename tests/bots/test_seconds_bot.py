"""The ``seconds`` bot: it beats ``random`` clearly, never moves illegally, and makes
the plays docs/rules/seconds.md makes obvious.

Positions are real engine states: a preset deal (``new_state(deals=...)``), the
deals before it played at random, then the trick's first cards played as
written. The right card is worked by hand from the trick rule (the
second-highest card of the led suit wins) and the deal's scoring.
"""

from __future__ import annotations

import doctest
import random

import pytest

import bots.seconds
import bots.tools.arena
from bots.seconds import SecondsBot
from bots.tools.arena import MatchReport, arena_view, factory, main, play_game, rotation_match
from bots.uniform import RandomBot
from client_sdk import Bot
from server.games import REGISTRY
from tests.bots.sequential import ALPHA, mean_lower_bound, sequential_rotation

RANKS = "AKQJT98765432"
PACK = [r + s for s in "SHDC" for r in RANKS]


@pytest.mark.parametrize("module", [bots.seconds, bots.tools.arena])
def test_the_docstring_examples(module) -> None:
    result = doctest.testmod(module)
    assert result.attempted > 0 and result.failed == 0


# --------------------------------------------------------------------------- the arena

LOOKS = (6, 12)  # games of seven deals, each played in both seatings


def test_seconds_beats_random_clearly() -> None:
    """Claim, unchanged: seconds − random per deal is above 1.5 points, at one-sided 2.5 %.

    It was one look at 12 games (the 95% interval's lower end above 1.5); now it is
    group-sequential (tests/bots/sequential.py): a look at 6 games and one at 12, each
    at 2.5 % / 2 with Student's t, so a false pass is still at most 2.5 % likely and
    the 12-game verdict is stricter than it was.
    """
    # measured with seed "test-seconds": seconds 12.5, random 8.6 points per deal;
    # seconds - random = +3.9 ± 0.8 per deal (95% CI) over 12 games, ahead in all 12; the
    # sequential run (seeds "test-seconds/0", ...) stops at 6 games: +3.62, lower bound 1.94

    def holds(report: MatchReport, alpha: float) -> bool:
        return mean_lower_bound(report.differences("seconds", "random"), alpha) > 1.5

    bots = {"seconds": factory("seconds"), "random": factory("random")}
    run = sequential_rotation("seconds", bots, ["seconds", "random"], holds,
                              seed="test-seconds", looks=LOOKS)  # fmt: skip
    print(run.report.summary(), *run.looks, sep="\n")
    assert run.report.seatings == 2 and run.report.games in LOOKS
    assert all(p.deals == 7 for p in run.report.plays)
    assert holds(run.report, ALPHA / len(LOOKS))


def test_one_seconds_among_three_randoms_still_wins() -> None:
    # measured with this seed: seconds - random = +6.0 ± 1.2 per deal (95% CI)
    report = rotation_match("seconds", {"seconds": factory("seconds"), "random": factory("random")},
                            ["seconds", "random", "random", "random"], 6,
                            seed="test-seconds-1v3")  # fmt: skip
    print(report.summary())
    assert report.seatings == 4  # the one bot holds every seat's cards once
    assert report.difference("seconds", "random").low > 2


class FirstCard(Bot):
    """Deterministic: the first legal move, whatever the seat or the seed."""

    def choose_move(self, view):
        return view["legal_moves"][0]


def test_rotating_the_seats_cancels_the_cards() -> None:
    """Two copies of one deterministic bot, ``a b a b``: the two seatings play the same
    games, so each bot's mean over its seats is the same, game by game."""
    report = rotation_match("seconds", {"a": FirstCard, "b": FirstCard}, ["a", "b"], 3)
    assert report.differences("a", "b") == [0.0] * 3
    assert [p.seats for p in report.plays[:2]] == [("a", "b", "a", "b"), ("b", "a", "b", "a")]
    assert report.plays[0].scores == report.plays[1].scores


def test_the_arena_command_for_seconds(capsys) -> None:
    assert main(["seconds", "--bots", "seconds,random", "--games", "1", "--option",
                 "winner=highest"]) == 0  # fmt: skip
    out = capsys.readouterr().out
    assert "1 game of 7 deals, each played twice" in out
    assert "seconds − random per deal" in out and "'winner': 'highest'" in out
    assert main(["seconds", "--players", "3"]) == 2
    assert "seconds always seats 4" in capsys.readouterr().err
    assert main(["seconds", "--bots", "random,random,random,random,random"]) == 2
    assert "1 to 4 names" in capsys.readouterr().err


# --------------------------------------------------------------------------- legality


def test_never_an_illegal_move_at_mixed_tables() -> None:
    """The arena raises on the first move not in the seat's ``legal_moves``."""
    rng = random.Random(6)
    for game in range(4):
        bots = [rng.choice([SecondsBot, RandomBot])(random.Random(f"{game}/{s}")) for s in range(4)]
        options = {"first_dealer": rng.randrange(4),
                   "winner": rng.choice(["second-highest", "highest"])}  # fmt: skip
        scores = play_game("seconds", bots, f"legal/{game}", options)
        assert len(scores) == 4


def test_every_choice_in_random_states_is_legal() -> None:
    """Random play reaches states the bot's own play would not; ask it at every one."""
    bot = SecondsBot(random.Random(1))
    rng = random.Random(2)
    asked = 0
    for game in range(2):
        state = REGISTRY["seconds"].new_state({}, f"walk/{game}")
        while not state.is_over():
            seat = state.to_move()[0]
            view = arena_view(state, seat, "seconds", "walk", {})
            assert bot.choose_move(view) in view["legal_moves"]
            asked += 1
            state.apply(seat, rng.choice(view["legal_moves"]))
    assert asked == 2 * 7 * 52


# --------------------------------------------------------------------------- positions


def position(deal: int, hands: dict[int, list[str]], trick: list[tuple[int, str]]) -> dict:
    """The view of the seat to move after ``trick`` opens the first trick of ``deal``.

    ``hands`` fixes some hands in full (13 cards) or in part; the rest of the
    pack fills them up. Deals before ``deal`` are played at random.
    """
    used = {c for cards in hands.values() for c in cards}
    rest = [c for c in PACK if c not in used]
    full = []
    for seat in range(4):
        cards = list(hands.get(seat, []))
        while len(cards) < 13:
            cards.append(rest.pop())
        full.append(cards)
    state = REGISTRY["seconds"].new_state({}, "position", deals=[{"hands": full}] * deal)
    rng = random.Random(0)
    while state.deal_number < deal:
        seat = state.to_move()[0]
        state.apply(seat, rng.choice(state.legal_moves(seat)))
    for seat, card in trick:
        assert state.to_move() == [seat]
        state.apply(seat, {"type": "play", "card": card})
    me = state.to_move()[0]
    return arena_view(state, me, "seconds", "position", {})


def choice(view: dict) -> str:
    return SecondsBot(random.Random(0)).choose_move(view)["card"]


# Deal 7 is dealt by seat 2 (first dealer 0): seat 3 leads, seat 2 plays last.
# 5S, KS, 2S, then my AS makes the spades A K 5 2: the K wins (seat 0). My 9S
# makes them K 9 5 2: the 9 wins, and it is mine.
SPADES_HAND = ["AS", "9S", *[r + "H" for r in "AKQJT9876"], "2D", "3D"]


def test_deal_7_dumps_the_high_card_to_lose_the_trick() -> None:
    view = position(7, {2: SPADES_HAND, 3: ["5S"], 0: ["KS"], 1: ["2S"]},
                    [(3, "5S"), (0, "KS"), (1, "2S")])  # fmt: skip
    assert view["state"]["scoring"] == "thirteen_minus" and view["you"] == 2
    assert choice(view) == "AS"


def test_deal_6_takes_the_same_trick_with_the_nine() -> None:
    # Deal 6 is dealt by seat 1: seat 2 leads, seat 1 plays last. Squares: I want it.
    view = position(6, {1: SPADES_HAND, 2: ["5S"], 3: ["KS"], 0: ["2S"]},
                    [(2, "5S"), (3, "KS"), (0, "2S")])  # fmt: skip
    assert view["state"]["scoring"] == "square" and view["you"] == 1
    assert choice(view) == "9S"


def test_deal_1_lets_the_partner_win() -> None:
    # Deal 1, dealer 0: seat 1 leads, seat 0 (partner: seat 2) plays last.
    # 7H, 9H (partner), JH; my QH makes Q J 9 7 -> the J (an opponent) wins;
    # my 2H makes J 9 7 2 -> the 9, my partner's trick.
    hand = ["QH", "2H", *[r + "S" for r in "AKQJT98"], "2D", "3D", "4D", "5D"]
    view = position(1, {0: hand, 1: ["7H"], 2: ["9H"], 3: ["JH"]},
                    [(1, "7H"), (2, "9H"), (3, "JH")])  # fmt: skip
    assert view["state"]["partners"][0] == 2
    assert choice(view) == "2H"


@pytest.mark.parametrize(("deal", "me", "leader", "right", "why"), [
    (4, 3, 0, "5H", "d4: my half-partner is x+1 = seat 0, whose 9H wins under my 5H"),
    (5, 0, 1, "AH", "d5: my half-partner is x-1 = seat 3, whose JH wins under my AH"),
])  # fmt: skip
def test_deals_4_and_5_give_the_trick_to_the_right_half_partner(
    deal: int, me: int, leader: int, right: str, why: str
) -> None:
    # The trick is 9H, 3H, JH from the leader on; my AH makes A J 9 3 -> the JH
    # wins; my 5H makes J 9 5 3 -> the 9H wins.
    seats = [(leader + i) % 4 for i in range(3)]
    hand = ["AH", "5H", *[r + "S" for r in "AKQJT98"], "2D", "3D", "4D", "5D"]
    hands = {me: hand, **{s: [c] for s, c in zip(seats, ["9H", "3H", "JH"], strict=True)}}
    view = position(deal, hands, list(zip(seats, ["9H", "3H", "JH"], strict=True)))
    assert view["you"] == me
    assert choice(view) == right, why


def test_deal_7_discards_the_card_most_likely_to_win_later() -> None:
    # Deal 7, second to play and void in the led diamonds: no discard can win
    # this trick, so shed the KS (only the AS, still out, is higher: it wins
    # whenever the AS falls on it) rather than the AH (an ace never wins).
    hand = ["KS", "AH", *[r + "C" for r in "AKQJT9876"], "2H", "3H"]
    view = position(7, {0: hand, 3: ["4D"]}, [(3, "4D")])
    assert view["you"] == 0 and view["legal_moves"] == [
        {"type": "play", "card": c} for c in view["hand"]
    ]  # void: anything goes
    assert choice(view) == "KS"
