"""Property tests over random Pinochle games: 4, 6 and 8 players, every variant.

Random-play invariants (STYLE.md §I): games end; ``to_dict``/``from_dict``
round trip through JSON; clones equal the original and diverge alone;
``legal_moves`` is non-empty exactly for the seat to move and lists each
move once; the moves ``apply`` accepts are exactly ``legal_moves`` and a
refused move changes nothing; every deal's counters total 250 per pack (500
with the double pack); the scores are the sum of the deals' points.

Hidden information, after OpenSpiel's definition: for a seat ``x`` build a
twin by re-dealing every card ``x`` cannot see among the other hands (counts
kept; the cards the table knows a seat holds — the turned card, the
exchange, shown melds, less what has been played since — kept in place).
``x``'s view, legal moves and the answer to every probe move must be the
same in both, and so must the events ``x`` sees after the same next move, up
to the showing of melds (which reveals cards by rule). Identical cards make a
plain string scan useless (``x`` may hold the twin of a hidden card), so the
leak scan is structural: a card string may appear in a view or event only
where the rules make it public, or as ``x``'s own card; and the public proof
of holdings (``exposed``) must equal what the table can derive from the
public record, computed here independently.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Iterator
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from server.games.kit.base import Event, GameError, IllegalMove, NotYourTurn, visible
from server.games.kit.cards import PINOCHLE, sort_hand
from server.games.pinochle import State, new_state

SETTINGS = settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
MAX_MOVES = 5_000

CONFIGS: list[dict[str, Any]] = [
    {"variant": "partnership"},
    {"variant": "partnership", "head_rule": "strict", "count": "simple"},
    {"variant": "firehouse", "head_rule": "trump-only"},
    {"variant": "check"},
    {"variant": "check", "check_table": "bicycle", "head_rule": "strict"},
    {"variant": "double-deck", "players": 6},
    {"variant": "double-deck", "players": 8, "head_rule": "trump-only"},
]
DISTINCT = PINOCHLE.cards()[::2]  # the 24 distinct cards
BIDS = [190, 195, 200, 205, 210, 250, 300, 1500, 1510]
CANDIDATES: list[dict[str, Any]] = (
    [{"type": "play", "card": c} for c in DISTINCT]
    + [{"type": "pass"}, {"type": "keep"}, {"type": "exchange_dix"}]
    + [{"type": "trump", "suit": s} for s in "SHDC"]
    + [{"type": "bid", "amount": a} for a in BIDS]
)
PROBES: list[Any] = [*CANDIDATES, {"type": "play", "card": "2S"}, {"type": "meld"}, None]
# Where a card string may appear in a view (besides the seat's own hand and moves).
PUBLIC_VIEW_PATHS = {"turn_up", "exchange", "melds", "exposed", "current_trick", "tricks"}
CARD_EVENTS = {"deal", "hand", "exchange", "melds", "play", "trick"}

Step = tuple[State, int, Any, list[Event], State]


def choose(state: State, seat: int, rng: random.Random) -> dict[str, Any]:
    """A random legal move, bidding low: uniform over 130 bids sets nearly every
    contract, and a game to the target would then never end."""
    moves = state.legal_moves(seat)
    if state.phase == "auction":
        passes = [m for m in moves if m["type"] == "pass"]
        bids = [m for m in moves if m["type"] == "bid"][:3]
        if passes and (not bids or rng.random() < 0.6):
            return passes[0]
        return rng.choice(bids)
    return rng.choice(moves)


def playout(options: dict[str, Any], seed: int) -> Iterator[Step]:
    """A random game: yields (a copy of the state before, seat, move, events, the live state)."""
    rng = random.Random(seed)
    state = new_state(options, f"prop-{seed}")
    for _ in range(MAX_MOVES):
        if state.is_over():
            return
        (seat,) = state.to_move()
        move = choose(state, seat, rng)
        before = state.clone()
        events = state.apply(seat, move)
        yield before, seat, move, events, state
    raise AssertionError("the game did not end")


# ---------------------------------------------------------------------------
# Invariants
# ---------------------------------------------------------------------------


def check_invariants(state: State, rng: random.Random) -> None:
    snapshot = state.to_dict()
    again = State.from_dict(json.loads(json.dumps(snapshot)))
    assert again == state and again.to_dict() == snapshot
    to_move = state.to_move()
    assert (state.outcome() is None) == bool(to_move)
    exposed = state.view(None)["state"]["exposed"]
    for seat in range(state.num_seats):
        assert bool(state.legal_moves(seat)) == (seat in to_move)
        assert Counter(exposed[seat]) <= Counter(state.hands[seat])  # proofs are true
    assert state.legal_moves(None) == []
    for seat in to_move:
        legal = state.legal_moves(seat)
        assert len({json.dumps(m, sort_keys=True) for m in legal}) == len(legal)
        for move in CANDIDATES:
            if move not in legal:
                try:
                    state.apply(seat, move)
                except IllegalMove as err:
                    assert err.legal_moves == legal
                else:  # pragma: no cover - the failure being tested for
                    raise AssertionError(f"{move} accepted for seat {seat} but not legal")
        sample = legal if len(legal) <= 8 else [*legal[:3], *legal[-2:], *rng.sample(legal, 3)]
        for move in sample:
            clone = state.clone()
            assert clone == state
            clone.apply(seat, move)
            assert clone != state
        assert state.to_dict() == snapshot, "a refused move or a clone changed the state"
    for seat in range(state.num_seats):
        if seat not in to_move:
            try:
                state.apply(seat, CANDIDATES[0])
            except NotYourTurn:
                pass
            except GameError as err:
                assert state.is_over(), err
            else:  # pragma: no cover
                raise AssertionError("a move out of turn was accepted")
    assert state.to_dict() == snapshot


@SETTINGS
@given(config=st.sampled_from(CONFIGS), seed=st.integers(0, 2**32 - 1))
def test_random_play_invariants(config: dict[str, Any], seed: int) -> None:
    rng = random.Random(seed)
    options = {**config, "target": rng.choice([150, 300, 600]), "max_deals": 3}
    packs = 2 if config["variant"] == "double-deck" else 1
    last = None
    for before, _seat, _move, events, last in playout(options, seed):  # noqa: B007
        check_invariants(before, rng)
        for event in events:
            if event.kind == "deal_end":
                # Counters total 250 per pack per deal, the last trick included.
                assert sum(event.data["counters"]) == 250 * packs
                assert sum(event.data["tricks"]) == before.tricks_per_deal
    assert last is not None
    check_invariants(last, rng)
    outcome = last.outcome()
    assert outcome is not None and len(outcome.scores) == last.num_seats
    for side in (0, 1):
        assert last.scores[side] == sum(r["points"][side] for r in last.deal_results)
    assert last.deal_number <= 3


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(config=st.sampled_from(CONFIGS), seed=st.integers(0, 2**32 - 1))
def test_games_to_the_target_end(config: dict[str, Any], seed: int) -> None:
    """No deal cap: a game to 500 ends with a winning side over it."""
    state = None
    for *_, state in playout({**config, "target": 500}, seed):  # noqa: B007
        pass
    assert state is not None
    outcome = state.outcome()
    assert outcome is not None and outcome.winners
    assert state.scores[outcome.winners[0] % 2] >= 500


def test_counters_total_in_every_deal_of_many_games() -> None:
    """250 per pack in every deal, with traditional and simple counting alike."""
    for i, config in enumerate(CONFIGS * 2):
        packs = 2 if config["variant"] == "double-deck" else 1
        deals, in_tricks = 0, 0
        for _, _, _, events, _ in playout({**config, "target": 100000, "max_deals": 4}, i):
            for event in events:
                if event.kind == "trick":
                    in_tricks += event.data["counters"]
                if event.kind == "deal_end":
                    deals += 1
                    assert sum(event.data["counters"]) == in_tricks == 250 * packs
                    in_tricks = 0
        assert deals == 4


# ---------------------------------------------------------------------------
# Hidden information
# ---------------------------------------------------------------------------


def public_holdings(view_state: dict[str, Any], players: int) -> list[Counter[str]]:
    """What the table knows each seat holds, from RULES.md §4's information rules alone.

    Before melds: the dealer holds the turned card. Once shown: each seat's
    melds (a card may serve once per class, so the most of each card any one
    class uses), the exchange (the taker holds the turned card and one dix
    fewer than shown; the dealer the received dix besides its own), or the
    turned card still with the dealer. Every card played since is one fewer.
    """
    known = [Counter[str]() for _ in range(players)]
    dealer, turn_up = view_state["dealer"], view_state["turn_up"]
    exchange = view_state["exchange"]
    if view_state["melds"] is None:
        if turn_up is not None:
            known[dealer][turn_up] += 1
        return known
    for seat, melds in enumerate(view_state["melds"]):
        classes: dict[str, Counter[str]] = {}
        for meld in melds:
            classes.setdefault(meld["class"], Counter()).update(meld["cards"])
        for counts in classes.values():
            known[seat] |= counts
    if exchange is not None:
        taker = exchange["seat"]
        known[taker][exchange["gave"]] -= 1
        known[taker][exchange["took"]] = max(known[taker][exchange["took"]], 1)
        known[dealer][exchange["gave"]] += 1
    elif turn_up is not None:
        known[dealer][turn_up] = max(known[dealer][turn_up], 1)
    plays = [p for t in view_state["tricks"] for p in t["cards"]] + view_state["current_trick"]
    for p in plays:
        if known[p["seat"]][p["card"]] > 0:
            known[p["seat"]][p["card"]] -= 1
    return [+k for k in known]


def redeal(state: State, observer: int | None, rng: random.Random,
           pins: list[Counter[str]], reseed: bool) -> State:  # fmt: skip
    """Shuffle the unseen cards among the other seats, pins kept, counts kept."""
    d = json.loads(json.dumps(state.to_dict()))
    others = [s for s in range(state.num_seats) if s != observer]
    kept = {s: pins[s] & Counter(d["hands"][s]) for s in others}
    pool = [c for s in others for c in (Counter(d["hands"][s]) - kept[s]).elements()]
    rng.shuffle(pool)
    for s in others:
        need = len(d["hands"][s]) - sum(kept[s].values())
        d["hands"][s] = sort_hand([*kept[s].elements(), *pool[:need]], state.rules.pack)
        pool = pool[need:]
    if d["melds"] is None and d["trump"] is not None:  # dix counts are secret until shown
        d["dixes"] = [h.count("9" + d["trump"]) for h in d["hands"]]
    if reseed:
        d["seed"] = f"other-{rng.getrandbits(32)}"
    return State.from_dict(d)


def attempt(state: State, seat: int | None, move: Any) -> tuple[Any, ...]:
    try:
        state.clone().apply(seat, move)
    except GameError as err:
        return type(err).__name__, str(err), getattr(err, "legal_moves", None)
    return ("accepted",)


def seen_until_reveal(events: list[Event], observer: int | None) -> tuple[list[Any], bool]:
    """The events the observer sees, up to the melds of the current deal (a reveal)."""
    out: list[Any] = []
    new_deal = False
    for event in events:
        new_deal |= event.kind == "deal"  # a new deal is dealt alike in both: keep comparing
        if event.kind == "melds" and not new_deal:
            return out, True
        if visible(event, observer):
            out.append(event.to_dict())
    return out, False


def card_paths(obj: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], str]]:
    if isinstance(obj, str):
        if PINOCHLE.is_card(obj):
            yield path, obj
    elif isinstance(obj, dict):
        for key, value in obj.items():
            yield from card_paths(value, (*path, key))
    elif isinstance(obj, list | tuple):
        for i, value in enumerate(obj):
            yield from card_paths(value, (*path, i))


def check_view_leaks(state: State) -> None:
    n = state.num_seats
    public = public_holdings(state.view(None)["state"], n)
    for observer in (*range(n), None):
        view = json.loads(json.dumps(state.view(observer)))
        assert [Counter(e) for e in view["state"]["exposed"]] == public
        own = Counter(state.hands[observer]) if observer is not None else Counter()
        for path, card in card_paths(view):
            if path[:1] in (("hand",), ("legal_moves",)):
                assert observer is not None and own[card] > 0, (observer, path)
            else:
                assert path[0] == "state" and path[1] in PUBLIC_VIEW_PATHS, (observer, path)


def check_event_leaks(events: list[Event], players: int) -> None:
    for observer in (*range(players), None):
        for event in events:
            if not visible(event, observer):
                continue
            cards = list(card_paths(event.data))
            if event.kind == "hand":
                assert event.data["seat"] == observer and event.visible_to == {observer}
            elif cards:
                assert event.kind in CARD_EVENTS, event.kind
            if event.kind == "deal":
                assert [p for p, _ in cards] in ([], [("turn_up",)])


def check_indistinguishable(state: State, rng: random.Random) -> bool:
    """Same view, legal moves and probe answers after re-dealing the unseen cards."""
    n = state.num_seats
    pins = public_holdings(state.view(None)["state"], n)
    changed = False
    for observer in (*range(n), None):
        twin = redeal(state, observer, rng, pins, reseed=True)
        changed |= twin.hands != state.hands
        assert twin.view(observer) == state.view(observer), observer
        for move in PROBES:
            mine, theirs = attempt(state, observer, move), attempt(twin, observer, move)
            assert mine == theirs, (observer, move)
    return changed


def check_next_move(state: State, seat: int, move: dict[str, Any], rng: random.Random) -> None:
    """The same next move on a twin: every other observer sees the same, up to a reveal.

    The move itself tells the table something (a card not followed shows a
    void), so only twins in which the move is legal count: a few re-deals are
    drawn until one is.
    """
    n = state.num_seats
    after = state.clone()
    events = after.apply(seat, move)
    pins = public_holdings(state.view(None)["state"], n)
    shown = {"play": move.get("card"), "exchange_dix": f"9{state.trump}"}.get(move["type"])
    if shown is not None:
        pins[seat][shown] = max(pins[seat][shown], 1)
    for observer in (*range(n), None):
        if observer == seat:
            continue
        for _ in range(30):
            twin = redeal(state, observer, rng, pins, reseed=False)
            if move in twin.legal_moves(seat):
                break
        else:
            continue
        mine, revealed = seen_until_reveal(events, observer)
        theirs, _ = seen_until_reveal(twin.apply(seat, move), observer)
        assert mine == theirs, (observer, move)
        if not revealed:
            assert twin.view(observer) == after.view(observer), (observer, move)


HIDDEN_CONFIGS = [*CONFIGS, {"variant": "partnership", "head_rule": "trump-only"}]


@settings(max_examples=16, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(config=st.sampled_from(HIDDEN_CONFIGS), seed=st.integers(0, 2**32 - 1))
def test_hidden_information(config: dict[str, Any], seed: int) -> None:
    rng = random.Random(seed)
    options = {**config, "target": 300, "max_deals": 2}
    state = new_state(options, f"prop-{seed}")
    check_event_leaks(state.opening_events(), state.num_seats)
    changed = False
    for before, seat, move, events, _ in playout(options, seed):
        if rng.random() < 0.3 or before.phase != "play":
            changed |= check_indistinguishable(before, rng)
        check_next_move(before, seat, move, rng)
        check_event_leaks(events, before.num_seats)
        check_view_leaks(before)
    assert changed, "no re-deal ever differed: the test would prove nothing"


def test_the_leak_checks_catch_leaks() -> None:
    """Guard the guards: a false proof, a public hand or a card in a bid is flagged."""
    state = new_state({"variant": "check", "first_dealer": 0}, "guard")
    check_view_leaks(state)
    bad = state.clone()
    bad.exposed[2] = [bad.hands[2][0]]  # claims a hidden card is known
    leaks = [
        lambda: check_view_leaks(bad),
        lambda: check_event_leaks([Event("hand", {"seat": 2, "cards": state.hands[2]})], 4),
        lambda: check_event_leaks([Event("bid", {"seat": 1, "card": state.hands[1][0]})], 4),
    ]
    for leak in leaks:
        try:
            leak()
        except AssertionError:
            continue
        raise AssertionError("a leak went unnoticed")  # pragma: no cover
