"""The runner on a ladder (``ladder=``, docs/ladder.md): it joins on start and leaves on
the way out (or as its last game begins, with ``max_games``), tells the ladder's
validation game from the games asked for, and says each game's rating change once
the ladder rated its contest.
"""

from __future__ import annotations

import time

from ..errors import ConnectionError, ParlourError
from ..outcomes import rating_change
from .base import Parts, log, progress

RATING_WAIT = 0.8
"""Seconds the runner, done with its last game, waits for the ladder to rate it."""


class LadderEntry(Parts):
    """The bot's entry in the runner's ladder: joined, read, left."""

    def _join_ladder(self) -> None:
        """Join the ladder (``max_games``: one game at a time) and say so."""
        assert self.ladder is not None
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

    def _end_on_ladder(self) -> None:
        """On the way out: say the ratings not said yet (waiting for them up to
        :data:`RATING_WAIT` s unless stopped), then leave the ladder and say so."""
        assert self.ladder is not None
        self._report_ratings(wait=RATING_WAIT if not self.stopping else 0.0)
        if self._leave_ladder():
            progress.info(
                "left ladder %s after %d games finished",
                self.ladder,
                self.stats.games_finished,
            )

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
