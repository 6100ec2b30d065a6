"""Local matches: bots play a game on this machine exactly as they would on the server.

With the engines installed (``pip install ./server/games``: the distribution
``parlour-games``, the server's own rules), :func:`play_match` deals a game from a
seed, asks each bot for its moves through the very views the server sends (the same
function renders them: :func:`server.games.record.seat_view`), gives each move a
time limit, and returns the game's replay in the format of
``GET /v1/games/{id}/replay`` (:func:`server.games.record.replay`). ``parlour-bot
play`` is its command line (docs/local.md).

Only this module of the SDK touches the engines, and only inside its functions: the
SDK installs and runs without them, and says how to install them when they are asked
for (:class:`EnginesMissing`).

>>> lineup(["a", "b"], 4), rotations(("a", "b", "a"))
(('a', 'b', 'a', 'b'), [('a', 'b', 'a'), ('a', 'a', 'b'), ('b', 'a', 'a')])
>>> parse_option("hands=3"), parse_option("rules=penguin")
(('hands', 3), ('rules', 'penguin'))
"""

from __future__ import annotations

import json
import logging
import math
import random
import statistics
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from .bot import Bot
from .types import Move, View

if TYPE_CHECKING:
    from server.games import BaseState

log = logging.getLogger(__name__)

INSTALL_HINT = (
    "the game engines are not installed: pip install ./server/games "
    "(from a checkout of Parlour; the distribution parlour-games)"
)


class EnginesMissing(RuntimeError):
    """The engines (``server.games``, distribution ``parlour-games``) are not installed."""

    def __init__(self) -> None:
        super().__init__(INSTALL_HINT)


def engines_installed() -> bool:
    """Whether ``server.games`` can be imported here."""
    try:
        import server.games  # noqa: F401
    except ImportError:
        return False
    return True


def parse_option(text: str) -> tuple[str, Any]:
    """``name=value``, the value read as JSON (``hands=3``, ``flag=true``) or else a string.

    Raises:
        ValueError: no ``=`` or no name.
    """
    name, sep, raw = text.partition("=")
    if not sep or not name:
        raise ValueError(f"expected name=value, not {text!r}")
    try:
        return name, json.loads(raw)
    except ValueError:
        return name, raw


def lineup(names: Sequence[str], seats: int) -> tuple[str, ...]:
    """The bot in each seat of the first rotation: the names in turn around the table.

    >>> lineup(["a", "b"], 4), lineup(["a", "b"], 3), lineup(["a", "b", "b", "b"], 4)
    (('a', 'b', 'a', 'b'), ('a', 'b', 'a'), ('a', 'b', 'b', 'b'))

    Raises:
        ValueError: no names, or more names than seats.
    """
    if not 1 <= len(names) <= seats:
        raise ValueError(f"give 1 to {seats} names of bots for {seats} seats")
    return tuple(names[s % len(names)] for s in range(seats))


def rotations(first: Sequence[str]) -> list[tuple[str, ...]]:
    """Every distinct seating when the bots of ``first`` move one seat left at a time.

    >>> rotations(("a", "b", "a", "b"))      # duplicate: the sides swap once
    [('a', 'b', 'a', 'b'), ('b', 'a', 'b', 'a')]
    >>> rotations(("a", "b", "a"))
    [('a', 'b', 'a'), ('a', 'a', 'b'), ('b', 'a', 'a')]
    """
    n = len(first)
    out: list[tuple[str, ...]] = []
    for r in range(n):
        seating = tuple(first[(s - r) % n] for s in range(n))
        if seating not in out:
            out.append(seating)
    return out


@dataclass(frozen=True)
class Play:
    """One game of a match: which seeded game, which seating, and the result."""

    game: int
    rotation: int
    seats: tuple[str, ...]
    scores: tuple[int, ...]
    deals: int

    def score_of(self, name: str) -> float:
        """The bot's mean score per deal over the seats it held."""
        mine = [self.scores[s] for s, n in enumerate(self.seats) if n == name]
        return statistics.fmean(mine) / self.deals


@dataclass
class MatchReport:
    """A seat-rotation match: every play, and per seeded game each bot's score per deal."""

    game: str
    options: dict[str, Any]
    names: tuple[str, ...]
    """The distinct bots, in ``--bots`` order."""
    plays: list[Play] = field(default_factory=list)

    @property
    def games(self) -> int:
        return len({p.game for p in self.plays})

    @property
    def seatings(self) -> int:
        return len({p.rotation for p in self.plays})

    def per_game(self, name: str) -> list[float]:
        """The bot's score per deal in each seeded game: its mean over every seat it held."""
        by_game: dict[int, list[float]] = {}
        for p in self.plays:
            if name in p.seats:
                by_game.setdefault(p.game, []).append(p.score_of(name))
        return [statistics.fmean(v) for _, v in sorted(by_game.items())]

    def score(self, name: str) -> Interval:
        return Interval.of(self.per_game(name))

    def differences(self, a: str, b: str) -> list[float]:
        """Per seeded game, bot ``a``'s score per deal minus ``b``'s (same cards, all seats)."""
        return [x - y for x, y in zip(self.per_game(a), self.per_game(b), strict=True)]

    def difference(self, a: str, b: str) -> Interval:
        return Interval.of(self.differences(a, b))

    def summary(self) -> str:
        plays = self.plays
        deals = plays[0].deals if plays and all(p.deals == plays[0].deals for p in plays) else None
        plural = "" if self.games == 1 else "s"
        unit = (
            f"{self.games} deal{plural}"
            if deals == 1
            else (f"{self.games} game{plural}" + (f" of {deals} deals" if deals else ""))
        )
        times = {1: "once", 2: "twice"}.get(self.seatings, f"{self.seatings} times")
        seats = " ".join(plays[0].seats) if plays else ""
        width = max(map(len, self.names))
        lines = [f"{unit}, each played {times} with the seats rotated (first seating: {seats})"]
        for name in self.names:
            sc = self.score(name)
            lines.append(f"  {name:<{width}}  {sc.mean:7.3f} ± {sc.half_width:.3f} "
                         f"points per deal (95% CI)")  # fmt: skip
        first = self.names[0]
        for other in self.names[1:]:
            diffs = self.differences(first, other)
            ahead, behind = sum(d > 0 for d in diffs), sum(d < 0 for d in diffs)
            lines.append(
                f"  {first} − {other} per deal: {Interval.of(diffs)} (95% CI); ahead in "
                f"{ahead}, behind in {behind}, level in {len(diffs) - ahead - behind}"
            )
        return "\n".join(lines)


@dataclass
class Interval:
    """A mean with the half-width of its 95% confidence interval."""

    mean: float
    half_width: float

    @classmethod
    def of(cls, values: Sequence[float]) -> Interval:
        mean = statistics.fmean(values)
        if len(values) < 2:
            return cls(mean, math.inf)
        return cls(mean, 1.96 * statistics.stdev(values) / math.sqrt(len(values)))

    @property
    def low(self) -> float:
        return self.mean - self.half_width

    @property
    def high(self) -> float:
        return self.mean + self.half_width

    def __str__(self) -> str:
        return f"{self.mean:+.2f} ± {self.half_width:.2f}"


def deals_played(state: BaseState) -> int:
    """How many deals a finished game had: the length of its public ``deal_results``
    (every card game here records one per deal), else 1."""
    results = state.view(None).get("state", {}).get("deal_results")
    return len(results) if results else 1


@dataclass
class LocalMatch:
    """A finished local game: its replay, the moves made, what went wrong per seat."""

    replay: dict[str, Any]
    """As ``GET /v1/games/{id}/replay`` shows the same game once finished."""
    moves: list[dict[str, Any]] = field(default_factory=list)
    """Every move in order, ``{"seat", "move"}`` as the server stores it (``"timeout":
    true`` for a move the time limit made)."""
    timeouts: dict[int, int] = field(default_factory=dict)
    illegal: dict[int, int] = field(default_factory=dict)
    deals: int = 1
    """How many deals the game had (:func:`deals_played`)."""

    @property
    def scores(self) -> list[int]:
        """The final score of each seat."""
        return list(self.replay["result"]["scores"])


def _engines() -> Any:
    """``server.games`` (imported here: the SDK runs without it)."""
    try:
        import server.games as games
        import server.games.record  # noqa: F401
    except ImportError as exc:
        raise EnginesMissing() from exc
    return games


def _iso(epoch: float) -> str:
    """As the server writes a deadline: ISO-8601 UTC with milliseconds."""
    return datetime.fromtimestamp(epoch, UTC).isoformat(timespec="milliseconds")


def _ask(bot: Bot, view: View, move_time: float | None) -> Move | None:
    """The bot's move, or None when it took longer than ``move_time`` seconds.

    A bot that overruns is not stopped (a Python thread cannot be): its answer,
    when it comes, is dropped, as a server drops a move after the deadline.
    """
    if move_time is None:
        return bot.choose_move(view)
    box: dict[str, Any] = {}

    def think() -> None:
        try:
            box["move"] = bot.choose_move(view)
        except BaseException as exc:  # handed to the caller below
            box["error"] = exc

    thinker = threading.Thread(target=think, name=f"{bot.name}-move", daemon=True)
    thinker.start()
    thinker.join(move_time)
    if thinker.is_alive():
        return None
    if "error" in box:
        raise box["error"]
    move: Move = box["move"]
    return move


def _as_sent(data: dict[str, Any]) -> Any:
    """``data`` as a bot reads it off the wire: JSON types only (lists, not tuples)."""
    return json.loads(json.dumps(data))


def play_match(
    game: str,
    bots: Sequence[Bot],
    *,
    seed: str,
    options: Mapping[str, Any] | None = None,
    move_time: float | None = None,
    names: Sequence[str] | None = None,
    game_id: str | None = None,
) -> LocalMatch:
    """Play one game of ``game`` with ``bots[seat]`` in each seat, dealt from ``seed``.

    Each bot is asked for a move with the view the server would send for its
    seat (``GET /v1/me/turns``: the game's header, ``you``, ``deadline`` and the
    engine's view), gets ``on_game_start`` and ``on_game_over`` as the SDK's
    runner calls them, and has ``move_time`` seconds per move (None: no limit):
    past it, the move clock's default move is made for it (a ``timeout`` event,
    as in a ladder game). A move the engine refuses is replaced by a random legal
    one from the bot's ``rng``, as the runner does. When several seats are to
    move, the lowest is asked first.

    Args:
        game: a game id (``concerto``, ``seconds``, ``cowpoke``, ``pinochle``...).
        bots: one per seat.
        seed: the deal seed: the server deals the same cards from the same seed
            (``POST /v1/games`` with ``"seed"``, admin only).
        options: the game's options; a game whose table size is an option gets
            ``len(bots)`` seats unless they say otherwise, as on the server.
        names: each seat's name in the replay (default: the bots' ``name``).
        game_id: the replay's ``id`` (default ``local-<seed>``).

    Raises:
        EnginesMissing: the engines are not installed.
        ValueError: no such game, or not one bot per seat.
        server.games.GameError: options the game refuses.
    """
    games = _engines()
    record = games.record
    engine = games.REGISTRY.get(game)
    if engine is None:
        raise ValueError(f"no game {game!r} (one of {', '.join(sorted(games.REGISTRY))})")
    opts = dict(options or {})
    if engine.seat_option and engine.seat_option not in opts:
        opts[engine.seat_option] = len(bots)
    state: BaseState = engine.new_state(opts, seed)
    if len(bots) != state.num_seats:
        raise ValueError(f"{game} with these options seats {state.num_seats}: got {len(bots)} bots")
    shown = list(names) if names is not None else [b.name for b in bots]
    seats = [{"seat": s, "player_id": f"local-{s}", "name": shown[s]} for s in range(len(bots))]

    def head(status: str, version: int) -> dict[str, Any]:
        return dict(
            record.header(
                game_id=game_id or f"local-{seed}",
                game=engine.id,
                options=state.public_options(),
                status=status,
                version=version,
                seats=seats,
                deal_commitment=record.deal_commitment(seed),
            )
        )

    events = [record.stamped(e, 0) for e in engine.opening_events(state)]
    match = LocalMatch(replay={})
    started: set[int] = set()
    version = 0
    while not state.is_over():
        seat = state.to_move()[0]
        deadline = None if move_time is None else _iso(time.time() + move_time)
        view = _as_sent(
            record.seat_view(head("active", version), state, seat, result=None, deadline=deadline)
        )
        bot = bots[seat]
        if seat not in started:
            started.add(seat)
            bot.on_game_start(view)
        move = _ask(bot, view, move_time)
        version += 1
        if move is None:
            match.timeouts[seat] = match.timeouts.get(seat, 0) + 1
            move = record.default_move(state.legal_moves(seat))
            data = {"seat": seat, "timeouts": match.timeouts[seat], "action": "default_move"}
            events.append(record.stamped(games.Event("timeout", data), version))
            events += [record.stamped(e, version) for e in state.apply(seat, move)]
            match.moves.append({"seat": seat, "move": state.normalize_move(move), "timeout": True})
            continue
        try:
            made = state.apply(seat, move)
        except games.GameError as exc:
            match.illegal[seat] = match.illegal.get(seat, 0) + 1
            log.error("seat %s (%s): move %r refused: %s", seat, bot.name, move, exc)
            move = bot.rng.choice(view["legal_moves"])
            made = state.apply(seat, move)
        events += [record.stamped(e, version) for e in made]
        match.moves.append({"seat": seat, "move": state.normalize_move(move)})
    outcome = state.outcome()
    result = None if outcome is None else outcome.to_dict()
    final = head("finished", version)
    for seat in sorted(started):
        bots[seat].on_game_over(_as_sent(record.seat_view(final, state, seat, result=result)))
    numbered = list(enumerate(events, 1))  # the server numbers a game's events from 1
    match.replay = _as_sent(record.replay(final, state, numbered, result=result))
    match.deals = deals_played(state)
    return match


def seating(
    game: str, names: Sequence[str], options: Mapping[str, Any] | None = None
) -> tuple[tuple[str, ...], dict[str, Any]]:
    """The bot in each seat (:func:`lineup`) and the options that seat that many.

    A game whose table size is an option (Cowpoke's ``players``) gets one seat
    per name unless ``options`` say otherwise, as the server counts the seats
    given to ``POST /v1/games``; any other game's names go round its table.

    Raises:
        EnginesMissing, ValueError (no such game, more names than seats),
        server.games.GameError (options the game refuses).
    """
    games = _engines()
    engine = games.REGISTRY.get(game)
    if engine is None:
        raise ValueError(f"no game {game!r} (one of {', '.join(sorted(games.REGISTRY))})")
    opts = dict(options or {})
    if engine.seat_option and engine.seat_option not in opts:
        opts[engine.seat_option] = len(names)
    seats: int = engine.new_state(dict(opts), "seats").num_seats
    return lineup(names, seats), opts


BotFactory = Callable[[random.Random], Bot]
"""What builds a bot for a seat, from the seat's own random source."""


def rotation_match(
    game: str,
    bots: Mapping[str, BotFactory],
    names: Sequence[str],
    games: int,
    *,
    seed: str,
    options: Mapping[str, Any] | None = None,
    move_time: float | None = None,
    rotate: bool = True,
    on_play: Callable[[LocalMatch], None] | None = None,
) -> MatchReport:
    """The arena's seat rotation, played through :func:`play_match`.

    ``games`` seeded games (seeds ``SEED/0``, ``SEED/1``...; just ``SEED`` for
    one game), each played once per distinct rotation of ``lineup(names,
    seats)``, each seat's bot built afresh and seeded from the game, the seating
    and the seat (``rotate=False``: the first seating only). In a partnership
    game two bots make the duplicate: each deal played twice, the sides
    swapped. ``on_play`` gets every finished play.

    Raises:
        EnginesMissing: the engines are not installed beside the SDK.
        ValueError: no game, more names than seats, or a name with no factory.
        server.games.GameError: options the game refuses.
    """
    if games < 1:
        raise ValueError("play at least one game")
    missing = set(names) - set(bots)
    if missing:
        raise ValueError(f"no factory for {sorted(missing)}")
    first, opts = seating(game, names, options)
    seatings = rotations(first) if rotate else [first]
    report = MatchReport(game, opts, tuple(dict.fromkeys(names)))
    for number in range(games):
        game_seed = seed if games == 1 else f"{seed}/{number}"
        for r, seated in enumerate(seatings):
            table = [bots[name](random.Random(f"{game_seed}/{r}/{seat}"))
                     for seat, name in enumerate(seated)]  # fmt: skip
            played = play_match(game, table, seed=game_seed, options=opts, move_time=move_time,
                                names=seated, game_id=f"local-{game_seed}-{r}")  # fmt: skip
            report.plays.append(Play(number, r, seated, tuple(played.scores), played.deals))
            if on_play is not None:
                on_play(played)
    return report


SEARCH = 200_000
"""At most this many trial moves to find a replay's moves (:func:`moves_of`)."""


def moves_of(replay: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The moves of a finished game's replay (``GET /v1/games/{id}/replay``, a line of
    ``parlour-bot archive``, or :func:`play_match`'s), in the order they were made.

    A replay records what each move did (its events), not the move: the engine
    deals again from the revealed seed and, version by version, tries the legal
    moves of the seats to move for one whose events are the replay's (a move the
    move clock made for a seat, after its ``timeout`` event, counts as that
    seat's). A move whose events hide it (a card put out face down) is known only
    when a later event shows it, so the search goes back when a later version
    has no move (at most :data:`SEARCH` trial moves), and the game must be over
    after the last version.

    Raises:
        EnginesMissing, ValueError: not a finished replay, or events no legal
            moves explain (a game ended by a forfeit, a replay edited).
    """
    games = _engines()
    if replay.get("status") != "finished" or not replay.get("revealed"):
        raise ValueError("only a finished game's replay holds its deal")
    engine = games.REGISTRY[replay["game"]]
    state: BaseState = engine.new_state(dict(replay["options"]), replay["revealed"]["seed"])
    made: dict[int, list[Any]] = {}
    for event in replay["events"]:
        if event["kind"] != "timeout":  # the server's, not the engine's
            made.setdefault(event["version"], []).append(_event_key(event))
    last: int = replay["version"]
    budget = [SEARCH]
    path: list[dict[str, Any]] = []
    states = [state]
    levels = [_moves_making(state, made.get(1, []), 1, budget)]
    while True:
        if len(path) == last:
            if states[-1].is_over():
                return path
            path.pop()  # all versions explained, yet the game goes on: go back
            states.pop()
            continue
        try:
            move, after = next(levels[-1])
        except StopIteration:
            levels.pop()
            if not path:
                raise ValueError("no legal moves make this replay's events") from None
            path.pop()
            states.pop()
            continue
        path.append(move)
        states.append(after)
        if len(path) < last:
            version = len(path) + 1
            levels.append(_moves_making(after, made.get(version, []), version, budget))


def _event_key(event: Mapping[str, Any]) -> Any:
    return _as_sent({k: event[k] for k in ("version", "kind", "data", "visible_to")})


def _moves_making(
    state: BaseState, wanted: list[Any], version: int, budget: list[int]
) -> Iterator[tuple[dict[str, Any], BaseState]]:
    """Each ``{"seat", "move"}`` whose events at ``version`` are ``wanted``, with the
    state after it; ``budget[0]`` counts the trials left.

    Raises:
        ValueError: the budget is spent.
    """
    record = _engines().record
    for seat in state.to_move():
        for move in state.legal_moves(seat):
            budget[0] -= 1
            if budget[0] < 0:
                raise ValueError(f"more than {SEARCH} trial moves: give up")
            after = state.clone()
            events = after.apply(seat, move)
            if [_event_key(record.stamped(e, version)) for e in events] == wanted:
                yield {"seat": seat, "move": state.normalize_move(move)}, after


class _Scripted(Bot):
    """Makes its seat's moves of a replay, in order."""

    def __init__(self, moves: list[Move]) -> None:
        super().__init__(random.Random(0))
        self.moves = moves

    def choose_move(self, view: View) -> Move:
        return self.moves.pop(0)


def replay_match(replay: Mapping[str, Any]) -> LocalMatch:
    """Play a finished game's replay again locally: the same game, seed, options and
    moves (:func:`moves_of`) through :func:`play_match`, each seat named as in the
    replay. Its ``replay`` is the given one but for the ``id`` and the seats' players
    (and a ``timeout`` event where the server's move clock moved for a seat).

    Raises:
        EnginesMissing, ValueError: as :func:`moves_of`.
    """
    moves = moves_of(replay)
    seats = replay["seats"]
    bots: list[Bot] = [
        _Scripted([m["move"] for m in moves if m["seat"] == s]) for s in range(len(seats))
    ]
    return play_match(
        replay["game"],
        bots,
        seed=replay["revealed"]["seed"],
        options=replay["options"],
        names=[str(seat.get("name") or seat["seat"]) for seat in seats],
        game_id=replay["id"],
    )
