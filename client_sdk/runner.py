"""The runner: plays every game a bot is seated in until told to stop.

The loop is: turns come in → for each turn, ``choose_move`` →
``POST /v1/games/{id}/moves {"move", "version"}``. The turns come pushed by
``GET /v1/me/turns/stream`` (one push per turn, the cheapest for the server),
or, from a server without turn streams or with ``push=False``, long-polled by
``GET /v1/me/turns?wait=...``. Three properties matter:

* **No lost turn.** Whose turn it is lives in the game on the server, not in
  the runner: after a dropped connection or a server restart the next poll
  lists the same turn again. A move whose answer was lost is resent with the
  same ``version`` (the SDK does it), and the server answers the current
  view instead of applying it twice.
* **409 means re-read.** ``StaleVersion`` / ``NotYourTurn``: the runner
  fetches the view again and, if it is still the bot's turn, asks the bot
  again with the fresh view. It never resends a stale decision.
* **Graceful stop.** The first Ctrl-C / SIGTERM lets the move in hand finish
  and then returns, taking no new game; a second one stops at once.

What it says: one line (logger ``client_sdk.progress``, INFO; ``parlour-bot run``
shows it) when it joins or leaves a ladder and per game finished, with the result
and, on a ladder, the rating change once the contest is rated (:meth:`Runner.report`).

Invitations (docs/api.md#consent-and-invitations): a seat or tournament entry
that another player names the bot in is held until the bot accepts. The
runner accepts per its :class:`AcceptPolicy` (``--accept-invitations``): ``none``
(the default: only the admin, e.g. the tournament scheduler, and the bot itself
seat it), ``anyone``, or ``from:alice,bob`` (inviters by player id or name).

The policy is :mod:`client_sdk.accept`'s, the bot is asked through
:mod:`client_sdk.decider`'s :class:`Decider` (as the callback endpoint asks it), and a
finished game is put in words by :mod:`client_sdk.outcomes`; all three are importable
from here as well.
"""

from __future__ import annotations

import logging
import signal
import threading
import time
from collections import deque
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from .accept import AcceptPolicy
from .bot import Bot
from .client import Client
from .decider import Decider
from .errors import (
    BadFrame,
    Conflict,
    ConnectionError,
    GameOver,
    IllegalMove,
    NotFound,
    NotYourTurn,
    ParlourError,
    RateLimited,
    ServerError,
    StaleVersion,
)
from .outcomes import held_seats, outcome_text, rating_change
from .types import Turn, View

log = logging.getLogger("client_sdk.runner")
progress = logging.getLogger("client_sdk.progress")
"""One line per ladder joined or left and per game finished (INFO): what a person
running a bot wants to see; the rest (conflicts, retries) is :data:`log`'s."""

RATING_WAIT = 0.8
"""Seconds the runner, done with its last game, waits for the ladder to rate it."""

FINISHED = ("finished", "aborted")


class _Interrupted(Exception):
    """Raised by the signal handler to leave a long-poll that holds no move."""


RECENT_GAMES = 100


@dataclass
class RunStats:
    """What a run did; returned by :func:`run`."""

    moves: int = 0
    games_started: int = 0
    games_finished: int = 0
    conflicts: int = 0
    """409s answered by re-reading the view."""
    illegal_moves: int = 0
    """Moves the server refused as illegal (a bug in the bot; logged)."""
    invitations_accepted: int = 0
    """Invitations accepted under the runner's :class:`AcceptPolicy`."""
    outages: int = 0
    """Times the server could not be reached after the SDK's own retries."""
    bad_frames: int = 0
    """Turn-stream messages the runner could not read (logged, then read by long-poll)."""
    finished_games: deque[str] = field(default_factory=lambda: deque(maxlen=RECENT_GAMES))
    """The ids of the last ``RECENT_GAMES`` games finished, oldest first (bounded: a bot
    pool runs for weeks)."""


@dataclass
class _Game:
    seat: int | None
    last_check: float = 0.0
    validation: bool = False
    """The ladder's validation game of the bot's entry: unrated, not one of ``max_games``."""


def _turns_of(data: Any) -> list[Turn]:
    """A ``turns`` message's data, checked: a list of turns, each naming its game and view.

    Raises:
        BadFrame: another shape.
    """
    if isinstance(data, list) and all(
        isinstance(t, dict)
        and isinstance(t.get("game_id"), str)
        and isinstance(t.get("view"), dict)
        for t in data
    ):
        return data
    raise BadFrame(f"a turns message of another shape: {str(data)[:200]!r}", code="bad_frame")


def _over_of(data: Any) -> str:
    """An ``over`` message's game id.

    Raises:
        BadFrame: no game id in it.
    """
    game_id = data.get("game_id") if isinstance(data, dict) else None
    if isinstance(game_id, str):
        return game_id
    raise BadFrame(f"an over message of another shape: {str(data)[:200]!r}", code="bad_frame")


class Runner:
    """Drives one bot for one player. Use :func:`run` unless you need :meth:`stop`.

    Args:
        bot: the bot.
        client: a client holding the player's token.
        wait: long-poll seconds per ``GET /v1/me/turns``.
        max_games: return once this many of the bot's games have finished
            (``None``: run until stopped).
        handle_signals: install SIGINT/SIGTERM handlers (main thread only).
        recheck_every: seconds between checks of a game that is not waiting
            for the bot, to notice that it finished (the turn list only shows
            games where the bot is to act). Defaults to ``wait``.
        max_outage_pause: longest pause between attempts while the server is
            unreachable.
        accept_invitations: which invitations to accept (:class:`AcceptPolicy`
            or its text); checked when the turns start coming and at each quiet moment.
        push: take turns from the turn stream (falling back to the long-poll if the
            server has none); ``False``: always long-poll.
        ladder: a ladder id to join on start and leave on the way out, Ctrl-C
            included (docs/ladder.md); the ladder then matches the bot while it runs.
            With ``max_games`` it joins with a cap of one game at a time and leaves as
            its last game begins, so it is never seated in a game it would not play.
    """

    def __init__(
        self,
        bot: Bot,
        client: Client,
        *,
        wait: float = 20.0,
        max_games: int | None = None,
        handle_signals: bool = True,
        recheck_every: float | None = None,
        max_outage_pause: float = 5.0,
        accept_invitations: AcceptPolicy | str = "none",
        push: bool = True,
        ladder: str | None = None,
    ) -> None:
        self.bot = bot
        self.decider = Decider(bot)
        self.client = client
        self.wait = wait
        self.max_games = max_games
        self.handle_signals = handle_signals
        self.recheck_every = wait if recheck_every is None else recheck_every
        self.max_outage_pause = max_outage_pause
        self.accept = (
            AcceptPolicy.parse(accept_invitations)
            if isinstance(accept_invitations, str)
            else accept_invitations
        )
        self.ladder = ladder
        self.stats = RunStats()
        self._games: dict[str, _Game] = {}
        self._stopping = threading.Event()
        self._busy = False  # True while a move is being chosen or sent
        self._outage_streak = 0
        self.push = push
        self._seen: dict[tuple[str, int | None], int] = {}  # (game, seat) -> newest version
        self._unrated: dict[str, str] = {}  # ladder game finished -> its result, in words
        self._me: str | None = None  # the player's id, once asked (to read its ladder entry)
        self._left = False  # out of the ladder (the last game needed began, or at the end)

    # -- control ---------------------------------------------------------------
    def stop(self) -> None:
        """Ask the runner to return after the move in hand (thread-safe)."""
        self._stopping.set()

    @property
    def stopping(self) -> bool:
        """Whether :meth:`stop` was called (or a signal asked the runner to stop)."""
        return self._stopping.is_set()

    def _done(self) -> bool:
        return self.stopping or (
            self.max_games is not None and self.stats.games_finished >= self.max_games
        )

    # -- the loop --------------------------------------------------------------
    def run(self) -> RunStats:
        """Play until stopped or ``max_games`` finished; return the statistics.

        Raises:
            Unauthorized: the token is wrong (nothing a retry could fix).
            Forbidden, NotFound, InvalidRequest: likewise, bugs or bad setup.
        """
        if self.ladder is not None:
            # --games N: one game at a time, so it never holds a game it will not play
            entry = self.client.ladders.join(
                self.ladder, max_games=1 if self.max_games is not None else None
            )
            self._me = entry.get("player_id")
            status = entry.get("status")  # "away" until it first asks for turns: not said
            progress.info(
                "joined ladder %s as %s%s",
                self.ladder,
                entry.get("name") or self._me,
                f" (status {status})" if status not in ("available", "away", None) else "",
            )
        try:
            self._loop()
        finally:
            if self.ladder is not None:
                self._report_ratings(wait=RATING_WAIT if not self.stopping else 0.0)
                if self._leave_ladder():
                    progress.info(
                        "left ladder %s after %d games finished",
                        self.ladder,
                        self.stats.games_finished,
                    )
        return self.stats

    def _leave_ladder(self) -> bool:
        """Leave the ladder, once (games in progress go on; the server seats us in no
        new one); whether the runner is out of it."""
        assert self.ladder is not None
        if not self._left:
            try:
                self.client.ladders.leave(self.ladder)
                self._left = True
            except (ConnectionError, ParlourError) as exc:
                log.warning("could not leave ladder %s: %s", self.ladder, exc)
        return self._left

    def _last_game_began(self) -> None:
        """With ``max_games``, leave the ladder as soon as the last game it needs starts:
        that game goes on, and the ladder cannot seat the bot in one it would not play
        (its result is read from the entry's history all the same)."""
        if (
            self.ladder is not None
            and self.max_games is not None
            and self.stats.games_started >= self.max_games
        ):
            self._leave_ladder()

    def _loop(self) -> None:
        with self._signals():
            try:
                while not self._done():
                    try:
                        self._answer_invitations()
                        for turns in self._pages():
                            self._play_page(turns)
                            self._outage_streak = 0
                            if not turns:  # a quiet moment
                                self._answer_invitations()
                            if self._done():
                                break
                    except (ConnectionError, ServerError, RateLimited) as exc:
                        self._pause(exc)
            except _Interrupted:
                pass

    def _answer_invitations(self) -> None:
        """Accept the open invitations the policy allows (others are left to expire)."""
        if self.accept.mode == "none":
            return
        for invitation in self.client.invitations.mine():
            if not self.accept.accepts(invitation):
                continue
            try:
                self.client.invitations.accept(invitation["id"])
            except (NotFound, Conflict) as exc:  # withdrawn or expired meanwhile
                log.info("invitation %s: %s", invitation["id"], exc.code)
                continue
            self.stats.invitations_accepted += 1
            log.info("accepted invitation %s from %s", invitation["id"], invitation.get("from"))

    def _pages(self) -> Iterator[list[Turn]]:
        """Pages of turns until the source ends: pushed by the turn stream, else one
        long-poll. An empty page means a quiet moment (time for idle checks)."""
        if self.push:
            try:
                # a heartbeat at least every `wait` s: the loop notices a stop that soon
                for event in self.client.turns.stream(heartbeat=max(0.5, self.wait)):
                    if event["event"] == "turns":
                        yield _turns_of(event["data"])
                    elif event["event"] == "over":
                        self._check_game(_over_of(event["data"]))
                        if self._done():
                            return  # the last game: out at once, not at the next heartbeat
                    elif event["event"] == "invitation":
                        self._answer_invitations()
                    elif event["event"] == "heartbeat":
                        self._report_ratings()
                        yield []
                    elif event["event"] == "error":
                        data = event["data"]
                        log.warning(
                            "turn stream: %s",
                            data.get("message", data) if isinstance(data, dict) else data,
                        )
                        return
                return  # the server ended the stream (it bounds each one): reconnect
            except BadFrame as exc:
                # Never the end of the bot: the same turns, read as one JSON answer, then
                # the stream again (a frame that fails once may well fail on reconnecting).
                self.stats.bad_frames += 1
                log.warning("turn stream: %s; long-polling once, then reconnecting", exc)
                yield self.client.turns.wait(0).get("turns", [])
                return
            except NotFound:
                log.info("the server has no turn streams; long-polling instead")
                self.push = False
        yield self.client.turns.wait(self.wait).get("turns", [])

    def _play_page(self, turns: list[Turn]) -> None:
        """Play each turn not seen before, then look at the games that did not ask."""
        for turn in turns:
            if self._done():
                return
            key = (turn["game_id"], turn.get("seat"))
            version = turn.get("version", turn["view"].get("version"))
            if version is not None and self._seen.get(key, -1) >= version:
                continue  # pushed and read both: one turn, played once
            self._play_turn(turn)  # a turn whose move did not get through comes again
            if version is not None and turn["game_id"] in self._games:  # not finished
                self._seen[key] = version
        if not self._done():
            self._check_waiting_games({t["game_id"] for t in turns}, not turns)

    def _play_turn(self, turn: Turn) -> None:
        self._busy = True
        try:
            self._play(turn)
        finally:
            self._busy = False

    def _play(self, turn: Turn) -> None:
        game_id = turn["game_id"]
        view: View = turn["view"]
        seat = turn.get("seat")
        version = turn.get("version", view.get("version"))
        if game_id not in self._games:
            validation = self._validating(game_id)
            self._games[game_id] = _Game(seat, validation=validation)
            if not validation:
                self.stats.games_started += 1
            self.decider.start(game_id, view)
            if not validation:
                self._last_game_began()
        self._games[game_id].last_check = time.monotonic()
        # A few rounds at most: each 409 means someone else moved, and the
        # fresh view either still awaits us (ask the bot again) or not.
        for _ in range(4):
            if view.get("status") in FINISHED or not view.get("legal_moves"):
                break
            move = self.decider.move(game_id, view)
            try:
                view = self._send(game_id, seat, move, version, view)
                break
            except (StaleVersion, NotYourTurn) as exc:
                self.stats.conflicts += 1  # normal racing (seats of one pool, a retry): quiet
                log.debug("game %s: %s; re-reading the view", game_id, exc.code)
                view = self.client.games.view(game_id, seat=seat)
                version = view.get("version")
            except GameOver:
                view = self.client.games.view(game_id, seat=seat)
                break
        if view.get("status") in FINISHED:
            self._finish(game_id, view)

    def _send(
        self, game_id: str, seat: int | None, move: Any, version: int | None, view: View
    ) -> View:
        """POST the move; an illegal one is logged and replaced by a random legal one.

        Why replace it: a bug in ``choose_move`` must not forfeit a tournament
        game on the clock, nor spin the loop on the same refusal forever. The
        error is logged with the server's reason and counted in
        ``RunStats.illegal_moves`` so the bug is not silent.
        """
        try:
            new_view = self.client.games.move(game_id, move, version=version, seat=seat)
        except IllegalMove as exc:
            self.stats.illegal_moves += 1
            log.error("game %s: illegal move %r refused: %s", game_id, move, exc.message)
            legal = exc.legal_moves or view.get("legal_moves") or []
            if not legal:
                raise
            fallback = self.bot.rng.choice(legal)
            new_view = self.client.games.move(game_id, fallback, version=version, seat=seat)
        self.stats.moves += 1
        return new_view

    def _check_waiting_games(self, listed: set[str], idle: bool) -> None:
        """Look at games that did not ask for a move, to notice those that finished.

        ``/v1/me/turns`` lists only games where we are to act, and a game
        usually ends on somebody else's move, so without this the bot would
        never hear that a game it played is over. An empty poll (timed out, or
        woken by a game's end) checks every such game; otherwise each is
        checked at most every ``recheck_every`` seconds.
        """
        now = time.monotonic()
        for game_id, game in list(self._games.items()):
            if game_id in listed or (not idle and now - game.last_check < self.recheck_every):
                continue
            self._check_game(game_id)

    def _check_game(self, game_id: str) -> None:
        """Read one of the bot's games; finish it if it is over."""
        game = self._games.get(game_id)
        if game is None:
            return
        game.last_check = time.monotonic()
        try:
            view = self.client.games.view(game_id, seat=game.seat)
        except NotFound:
            log.warning("game %s no longer exists; forgetting it", game_id)
            self._games.pop(game_id, None)
            return
        if view.get("status") in FINISHED:
            self._busy = True
            try:
                self._finish(game_id, view)
            finally:
                self._busy = False

    def _validating(self, game_id: str) -> bool:
        """Whether a new game is the ladder's validation game of the bot's entry: the
        entry says so (an entry is matched only once validated, so any game of one still
        validating is that game)."""
        if self.ladder is None or self._me is None:
            return False
        try:
            got = self.client.ladders.entry(self.ladder, self._me).get("validation")
        except (ConnectionError, ParlourError) as exc:
            log.info("ladder %s: entry not read: %s", self.ladder, exc)
            return False
        if not got:
            return False
        return bool(got["game_id"] == game_id or got["status"] in ("pending", "playing"))

    def _finish(self, game_id: str, view: View) -> None:
        game = self._games.pop(game_id, None)
        if game is None:
            return
        for key in [k for k in self._seen if k[0] == game_id]:
            del self._seen[key]
        if game.validation:  # unrated, and not one of the games asked for
            table = len(view.get("seats") or []) or None
            said = outcome_text(view.get("result"), held_seats(view, game.seat), table)
            progress.info("validation game %s finished: %s", game_id, said)
            self.decider.finish(game_id, view)
            return
        self.stats.games_finished += 1
        self.stats.finished_games.append(game_id)
        table = len(view.get("seats") or []) or None
        said = outcome_text(view.get("result"), held_seats(view, game.seat), table)
        if self.ladder is not None:
            self._unrated[game_id] = said  # said once the ladder rated it (_report_ratings)
        else:
            progress.info("game %s finished: %s", game_id, said)
        self.decider.finish(game_id, view)

    def _report_ratings(self, wait: float = 0.0) -> None:
        """Say how each ladder game finished, with its rating change once the ladder
        rated its contest (asked at quiet moments; on the way out for up to ``wait`` s,
        then said without it)."""
        if not self._unrated or self.ladder is None or self._me is None:
            return
        deadline = time.monotonic() + wait
        while True:
            try:
                history = self.client.ladders.entry(self.ladder, self._me).get("history", [])
            except (ConnectionError, ParlourError) as exc:
                log.info("ladder %s: entry not read: %s", self.ladder, exc)
                history = []
            for game_id, said in list(self._unrated.items()):
                change = rating_change(history, game_id) if history else None
                if change is not None:
                    progress.info("game %s finished: %s%s", game_id, said, change and "; " + change)
                    del self._unrated[game_id]
            if not self._unrated or time.monotonic() >= deadline:
                break
            time.sleep(0.1)
        if wait:
            for game_id, said in self._unrated.items():
                progress.info("game %s finished: %s; not rated yet", game_id, said)
            self._unrated.clear()

    def _pause(self, exc: Exception) -> None:
        """Wait before trying again while the server is down or overloaded."""
        self.stats.outages += 1
        self._outage_streak += 1
        delay = min(self.max_outage_pause, 0.2 * 2 ** (self._outage_streak - 1))
        if isinstance(exc, RateLimited) and exc.retry_after is not None:
            delay = max(delay, exc.retry_after)
        log.warning("server unavailable (%s); trying again in %.1fs", exc, delay)
        self._stopping.wait(delay)

    # -- signals -----------------------------------------------------------------
    @contextmanager
    def _signals(self) -> Iterator[None]:
        """SIGINT/SIGTERM: the first asks for a graceful stop, the second is immediate.

        While a move is in hand the handler only sets the flag, so the move is
        sent. Otherwise (waiting in a long-poll) it raises to leave the wait
        at once instead of after up to ``wait`` seconds.
        """
        if not self.handle_signals or threading.current_thread() is not threading.main_thread():
            yield
            return

        def handler(signum: int, frame: object) -> None:
            if self.stopping:
                raise KeyboardInterrupt
            log.warning("stopping after the current move (again to stop now)")
            self.stop()
            if not self._busy:
                raise _Interrupted

        previous = {sig: signal.signal(sig, handler) for sig in (signal.SIGINT, signal.SIGTERM)}
        try:
            yield
        finally:
            for sig, old in previous.items():
                signal.signal(sig, old)


def run(bot: Bot, client: Client, **options: Any) -> RunStats:
    """Play every game ``client``'s player is seated in with ``bot``.

    Keyword options are those of :class:`Runner` (``wait``, ``max_games``,
    ``handle_signals``, ...).
    """
    return Runner(bot, client, **options).run()
