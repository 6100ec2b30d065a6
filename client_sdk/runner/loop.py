"""The runner's loop: for each turn, ``choose_move`` → ``POST /v1/games/{id}/moves
{"move", "version"}``; a 409 re-reads the view; games that did not ask are looked at
to notice those that finished, and each finished game is said in words.

The turns come from :mod:`.pages`, the ladder's part is :mod:`.ladder`'s and the
graceful stop :mod:`.signals`'; :mod:`client_sdk.runner` tells the whole.
"""

from __future__ import annotations

import threading
import time
from typing import Any

from ..accept import AcceptPolicy
from ..bot import Bot
from ..client import Client
from ..decider import Decider
from ..errors import (
    ConnectionError,
    GameOver,
    IllegalMove,
    NotFound,
    NotYourTurn,
    RateLimited,
    ServerError,
    StaleVersion,
)
from ..outcomes import held_seats, outcome_text
from ..types import Turn, View
from .base import FINISHED, RunStats, _Game, log, progress
from .ladder import LadderEntry
from .pages import TurnPages
from .signals import Signals, _Interrupted


class Runner(TurnPages, LadderEntry, Signals):
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
            self._join_ladder()
        try:
            self._loop()
        finally:
            if self.ladder is not None:
                self._end_on_ladder()
        return self.stats

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

    def _pause(self, exc: Exception) -> None:
        """Wait before trying again while the server is down or overloaded; a runner asked
        to stop says nothing and does not wait (a server going away as everything stops,
        Ctrl-C on ``parlour serve``, is no outage to report)."""
        delay = min(self.max_outage_pause, 0.2 * 2**self._outage_streak)
        if isinstance(exc, RateLimited) and exc.retry_after is not None:
            delay = max(delay, exc.retry_after)
        quiet = min(delay, 0.25)  # a stop arriving with the outage (Ctrl-C reaches both) ends it
        if self._stopping.wait(quiet):
            return
        self.stats.outages += 1
        self._outage_streak += 1
        log.warning("server unavailable (%s); trying again in %.1fs", exc, delay)
        self._stopping.wait(delay - quiet)


def run(bot: Bot, client: Client, **options: Any) -> RunStats:
    """Play every game ``client``'s player is seated in with ``bot``.

    Keyword options are those of :class:`Runner` (``wait``, ``max_games``,
    ``handle_signals``, ...).
    """
    return Runner(bot, client, **options).run()
