"""One local match: bots play a game on this machine exactly as they would on the server.

With the engines installed (``pip install ./server/games``: the distribution
``parlour-games``, the server's own rules), :func:`play_match` deals a game from a
seed, asks each bot for its moves through the very views the server sends (the same
function renders them: :func:`server.games.record.seat_view`), gives each move a
time limit, and returns the game's replay in the format of
``GET /v1/games/{id}/replay`` (:func:`server.games.record.replay`).

The way to the engines is here: imported inside functions (:func:`_engines`, which
the rotation matches and the replays call too), so the SDK installs and runs without
them and says how to install them when they are asked for (:class:`EnginesMissing`).
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from ..bot import Bot
from ..types import Move, View

if TYPE_CHECKING:
    from server.games import BaseState

log = logging.getLogger("client_sdk.local")

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
        import server.games.replayed  # noqa: F401
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
