"""The ladder's pure matchmaking and scoring (server/tournaments/ladder.py), by hand."""

from __future__ import annotations

from server.tournaments.ladder import (
    Candidate,
    contest_ranks,
    form_sides,
    make_matches,
    make_pair_matches,
    percentile,
    tables,
    timed_out_streak,
)


def c(player: str, mu: float, sigma: float = 1.0) -> Candidate:
    return Candidate(player, mu, sigma)


def test_most_uncertain_first_and_closest_rating_as_opponent():
    cands = [c("a", 30), c("b", 10), c("new", 25, 8), c("d", 24), c("e", 11)]
    # "new" (sigma 8) is placed first, against d (|25-24| = 1); then b and e, close
    assert make_matches(cands, sides=2, seats_per_side=1) == [(("new",), ("d",)), (("a",), ("e",))]


def test_leftover_entries_wait():
    assert make_matches([c("a", 1), c("b", 2), c("c", 3)], sides=4, seats_per_side=1) == []


def test_immediate_rematch_avoided_unless_nobody_else_is_near():
    cands = [c("a", 25, 5), c("b", 25), c("z", 30)]
    recent = {"a": frozenset({"b"})}
    # b is 0 away plus the rematch penalty (10); z is 5 away: z is preferred
    assert make_matches(cands, sides=2, seats_per_side=1, recent=recent) == [(("a",), ("z",))]
    far = [c("a", 25, 5), c("b", 25), c("z", 40)]
    # z is 15 away: the rematch (cost 10) is the better of the two
    assert make_matches(far, sides=2, seats_per_side=1, recent=recent) == [(("a",), ("b",))]


def test_partnerships_balance_the_sides_and_rotate():
    group = [c("a", 28), c("b", 26), c("c", 24), c("d", 22)]
    # a+d = 50 = b+c: the balanced split
    assert form_sides(group, 2, 2) == (("a", "d"), ("b", "c"))
    # a and d partnered last time: a+d costs 0 + 10 (penalty), a+c (52) v b+d (48)
    # costs 4, a+b v c+d costs 8
    partners = {"a": frozenset({"d"}), "d": frozenset({"a"})}
    assert form_sides(group, 2, 2, partners) == (("a", "c"), ("b", "d"))


def test_duplicate_board_seats_each_team_once_at_each_table():
    # team (a, b, c, d): a-b North-South at table 0, c-d East-West at table 1
    match = (("a", "b", "c", "d"), ("e", "f", "g", "h"))
    t0, t1 = tables(match, duplicate_board=True)
    assert (t0, t1) == (["a", "e", "b", "f"], ["g", "c", "h", "d"])
    assert not set(t0) & set(t1)  # nobody at both tables of the board
    assert tables((("a", "b"), ("c", "d")), duplicate_board=False) == [["a", "c", "b", "d"]]
    # sides of one player: a team is two players, one at each table
    assert tables((("a", "b"), ("c", "d")), duplicate_board=True) == [["a", "c"], ["d", "b"]]


def test_duplicate_board_is_won_on_the_difference_not_the_raw_scores():
    match = (("a", "b", "c", "d"), ("e", "f", "g", "h"))
    seats = tables(match, duplicate_board=True)
    # table 0: a-b (seats 0, 2) make 100 v 40; table 1: c-d (seats 1, 3) make 10 v 60
    t0 = {"scores": [100, 40, 100, 40], "winners": [0, 2], "forfeit": None}
    t1 = {"scores": [60, 10, 60, 10], "winners": [0, 2], "forfeit": None}
    assert contest_ranks(match, seats, [t0, t1]) == (0, 1)  # +60 - 50 = +10 for the team
    t1_big = {"scores": [130, 10, 130, 10], "winners": [0, 2], "forfeit": None}
    assert contest_ranks(match, seats, [t0, t1_big]) == (1, 0)  # +60 - 120 = -60


def test_a_forfeit_loses_the_contest():
    match = (("a", "b", "c", "d"), ("e", "f", "g", "h"))
    seats = tables(match, duplicate_board=True)
    t0 = {"scores": [100, 0, 100, 0], "winners": [0, 2], "forfeit": None}
    t1 = {"scores": [0, 0, 0, 0], "winners": [], "forfeit": 1}  # seat 1 of table 1 is c
    assert contest_ranks(match, seats, [t0, t1]) == (1, 0)


def test_single_table_places():
    match = (("a",), ("b",), ("c",))
    seats = tables(match, duplicate_board=False)
    assert seats == [["a", "b", "c"]]
    final = {"scores": [5, 9, 7], "winners": [1], "forfeit": None}
    assert contest_ranks(match, seats, [final]) == (2, 0, 1)


def test_timeout_streak_counts_the_latest_games_in_a_row():
    assert timed_out_streak([]) == 0
    assert timed_out_streak([3, 3, 0]) == 0
    assert timed_out_streak([0, 1, 1, 2]) == 3


def test_percentile_by_nearest_rank():
    times = [0.1 * i for i in range(1, 101)]  # 0.1 .. 10.0
    assert percentile(times, 0.5) == times[49]  # the 50th of 100
    assert percentile(times, 0.99) == times[98]  # the 99th of 100
    assert percentile([7.0], 0.99) == 7.0
    assert percentile([], 0.5) is None


def test_a_whole_rematch_waits_for_others_to_come_free():
    cands = [c("a", 25, 3), c("b", 25), c("x", 26), c("y", 24)]
    last = {p: frozenset("abxy") - {p} for p in "abxy"}
    # the four just played each other, and a has been idle 1 s of the 3 it waits
    kwargs = {"sides": 2, "seats_per_side": 2, "recent": last, "rematch_wait": 3.0}
    assert make_matches(cands, **kwargs, idle={p: 1.0 for p in "abxy"}) == []
    # after 3 s idle, they play again rather than not at all
    assert len(make_matches(cands, **kwargs, idle={p: 3.0 for p in "abxy"})) == 1
    # with a fifth entry free, the group mixes instead
    more = [*cands, c("z", 25.5)]
    (match,) = make_matches(more, **kwargs, idle={p: 1.0 for p in "abxy"})
    assert "z" in {p for side in match for p in side}


def test_fixed_pairs_are_matched_whole_as_one_side():
    ab = (c("a", 30, 8), c("b", 20, 8))  # mean 25, sigma 8: placed first
    cd = (c("c", 24), c("d", 24))  # mean 24: the closest
    ef = (c("e", 40), c("f", 40))  # mean 40
    gh = (c("g", 10), c("h", 12))  # mean 11
    found = make_pair_matches([ab, cd, ef, gh], sides=2)
    # (a, b) against the closest mean (c, d), then the two left: never split
    assert found == [(("a", "b"), ("c", "d")), (("e", "f"), ("g", "h"))]


def test_fixed_pairs_avoid_the_pair_a_member_just_met():
    ab, cd, ef = (c("a", 25, 8), c("b", 25, 8)), (c("c", 25), c("d", 25)), (c("e", 27), c("f", 27))
    # b met d last time: (c, d) costs the rematch penalty (10) against (e, f)'s 2
    found = make_pair_matches([ab, cd, ef], sides=2, recent={"b": frozenset({"d", "x"})})
    assert found == [(("a", "b"), ("e", "f"))]


def test_fixed_pairs_make_teams_of_two_pairs_for_a_duplicate_board():
    mus = {"p": 30, "q": 29, "r": 21, "s": 20}
    pairs = [(c(f"{x}1", mu), c(f"{x}2", mu)) for x, mu in mus.items()]
    (match,) = make_pair_matches(pairs, sides=2, pairs_per_side=2)
    # two pairs a team, balanced: p+s (50) against q+r (50); each team's players pair by pair
    assert match == (("p1", "p2", "s1", "s2"), ("q1", "q2", "r1", "r2"))
    t0, t1 = tables(match, duplicate_board=True)
    assert (t0, t1) == (["p1", "q1", "p2", "q2"], ["r1", "s1", "r2", "s2"])
