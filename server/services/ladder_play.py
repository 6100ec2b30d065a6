"""A ladder's part in play: its matches driven to their ratings (the scheduler's use
case), and the books it keeps on how its entries play (a play hook subscriber).

**Driving** (:meth:`LadderPlay.advance`, called by the scheduler,
:mod:`server.processes.scheduler`, for every ladder on each pass): create the
games of its open matches, give the turns of the players who left and are gone the
clock's timeout policy at once (:meth:`LadderPlay._play_gone`), record the results,
rate the matches whose tables are all over, drive the new entries' validation games
(:meth:`LadderPlay.validate`), then match the entries available now
(:meth:`server.services.ladders.Ladders.plan`, :mod:`server.services.ladder_plan`).

Exactly once without a lock: a ladder's matches are numbered; new ones are
written in a MULTI/EXEC that WATCHes the ladder's matches, so of two schedulers
pairing at once one writes and the other, having read a stale ladder, writes
nothing (:func:`server.store.ladders.put_matches`); each match's games and
rating then follow the tournaments' rules (:mod:`server.services.rounds`:
derived game ids, HSETNX results, keyed rating events); the ratings a match's
rating wrote are kept as the match's by the same write, so no other rating of
its players can come in between. ``checkpoint`` marks the step boundaries.

**Books** (the :class:`~server.services.core.PlayHook` methods; the play code
tells :class:`~server.services.core.Core`, which tells its subscribers): when
each entry was last seen waiting for a turn (who is available to be matched),
and, in the ladder's own games, each entry's response times and refused moves
(its health, docs/ladder.md). Which games are a ladder's is decided here, from
the game's ``meta.tournament.ladder``.
"""

from __future__ import annotations

import time
from typing import Any

from server.games import REGISTRY
from server.services.clocks import Clocks
from server.services.core import Core
from server.services.games import Games
from server.services.ladder_entries import VALIDATING, house_entries, pool
from server.services.ladders import Ladders
from server.services.ratings import Ratings
from server.services.rounds import Checkpoint, no_checkpoint, table_game_id
from server.store import bots as bot_store
from server.store import ladders as store
from server.store.games import GameRecord
from server.store.ladders import LadderRecord
from server.tournaments.ladder import contest_ranks

MAX_GIVEN_UP = 16
"""Turns of gone players given up in one game per pass (more are the next pass's)."""


def ladder_of(record: GameRecord) -> str | None:
    """The id of the ladder whose game this is, or None (any other game)."""
    return (record.meta.get("tournament") or {}).get("ladder")


class LadderPlay:
    """Ladders in play, over the shared :class:`Core` and the use cases they drive."""

    def __init__(
        self, core: Core, games: Games, clocks: Clocks, ratings: Ratings, ladders: Ladders
    ) -> None:
        self.core = core
        self.r = core.r
        self.games = games
        self.clocks = clocks
        self.ratings = ratings
        self.ladders = ladders

    # -- the play hook (Core.subscribe) -------------------------------------------------
    def waiting(self, player_id: str, until: float) -> None:
        """Seen waiting for a turn: kept only for a player on some ladder."""
        store.seen(self.r, player_id, until)

    def moved(self, record: GameRecord, player_id: str, seconds: float) -> None:
        """A response time, in a ladder's game only."""
        ladder_id = ladder_of(record)
        if ladder_id is not None:
            store.moved(self.r, ladder_id, player_id, seconds)

    def refused(self, record: GameRecord, player_id: str) -> None:
        """A refused move, in a ladder's game only; in a validation game, a refused move
        of the entry it validates is also counted against that game."""
        ladder_id = ladder_of(record)
        if ladder_id is not None:
            store.refused(self.r, ladder_id, player_id)
            if record.meta["tournament"].get("validation") == player_id:
                store.validation_refused(self.r, ladder_id, record.id)

    # -- driving (the scheduler's pass) ------------------------------------------------
    def ids(self) -> list[str]:
        """Every ladder id, oldest first."""
        return store.ids(self.r)

    def advance(
        self, ladder_id: str, now: float | None = None, checkpoint: Checkpoint = no_checkpoint
    ) -> int:
        """Drive the ladder's open matches, then start new ones; returns how many started."""
        record = store.read(self.r, ladder_id)
        if record is None:
            return 0
        self._drive(record, checkpoint)
        self.validate(record, time.time() if now is None else now)
        if len(record.entries) < record.meta["table_size"]:
            return 0  # too few entries to fill a table: spare the pairing transaction

        def plan(record: LadderRecord) -> list[dict[str, Any]]:
            at = time.time() if now is None else now  # after the read: what it saw is older
            planned = self.ladders.plan(record, at)
            if planned:
                checkpoint("match")
            return planned

        started = store.put_matches(self.r, ladder_id, plan)
        if not started:
            return 0  # nothing to pair, or another scheduler matched first: again next pass
        fresh = store.read(self.r, ladder_id)
        if fresh is not None:
            self._drive(fresh, checkpoint)
        return started

    def validate(self, record: LadderRecord, now: float) -> None:
        """Drive the entries' validation games (docs/ladder.md, *Validation game*).

        An entry whose validation is ``pending`` and that is seen waiting gets its game:
        its player at seat 0, the ladder's first house bots at the others, the ladder's
        clock, an id derived from (ladder, player, the validation's random key, attempt)
        so that two schedulers create one game and no other validation finds it; the
        entry's state becomes ``playing``. Once that game is over
        the entry has ``passed`` (no timeout, no move refused) or ``failed`` (the reason
        says which). Each state is written only over the one read
        (:func:`server.store.ladders.set_validation`), so a scheduler that read an
        older one writes nothing. The game is no match: never rated.
        """
        meta = record.meta
        self._left_validations(record)
        waiting = {
            p: got
            for p, entry in record.entries.items()
            if (got := entry.get("validation")) and got["state"] in VALIDATING
        }
        if not waiting:
            return
        seen = store.last_seen(self.r, list(waiting))
        house = house_entries(record)[: meta["table_size"] - 1]
        for player, got in sorted(waiting.items()):
            if got["state"] == "pending":
                if seen.get(player, 0) < now - meta["seen_seconds"]:
                    continue  # it plays its validation game when it is there to play it
                if len(house) < meta["table_size"] - 1:
                    continue  # the house bots left: it waits for them
                game_id = self._create_validation(record, player, got, house)
                store.set_validation(
                    self.r,
                    record.id,
                    player,
                    got | {"state": "playing", "game_id": game_id},
                    expected=got,
                )
                continue
            game_id = got["game_id"]
            if game_id not in self.clocks.final_results([game_id]):
                self.clocks.watch([game_id], now)
                continue
            timeouts = int(self.clocks.timeouts([game_id]).get(game_id, {}).get("0", 0))
            refused = store.validation_refusals(self.r, record.id, game_id)
            reasons = []
            if timeouts:
                reasons.append(f"ran out of time {timeouts} time(s)")
            if refused:
                reasons.append(f"made {refused} illegal move(s)")
            done = got | {"state": "failed" if reasons else "passed"}
            if reasons:
                done["reason"] = f"in its validation game {game_id} it " + " and ".join(reasons)
            store.set_validation(self.r, record.id, player, done, expected=got)

    def _left_validations(self, record: LadderRecord) -> None:
        """The validation games under way when their player left: its turns (seat 0)
        are played at once once it is gone (:meth:`_play_gone`); over, they are dropped."""
        left = store.left_validations(self.r, record.id)
        if not left:
            return
        over = list(self.clocks.final_results(list(left)))
        store.drop_left_validations(self.r, record.id, over)
        done = {left[g] for g in over} - set(record.entries)
        if done:
            store.forget(self.r, sorted(done))
        self._play_gone(
            record, {g: [p] for g, p in left.items() if g not in over and p not in record.entries}
        )

    def _create_validation(
        self, record: LadderRecord, player: str, got: dict[str, Any], house: list[str]
    ) -> str:
        """Create (once) the validation game of ``player``'s validation ``got``; its id,
        derived from the validation's random key (one stored before keys: from the
        attempt alone), so that two schedulers create one game and no new validation
        finds an old one."""
        base = f"ladder:{record.id}:validation:{player}"
        if got.get("key"):
            base += f":{got['key']}"
        game_id = table_game_id(base, got["attempt"], 0)
        placement = {"validation": player, "table": 0, "board": None, "twins": None}
        self._create_table(record, game_id, [player, *house], None, placement)
        return game_id

    def _drive(self, record: LadderRecord, checkpoint: Checkpoint) -> None:
        """Create the open matches' missing games, record results, rate finished matches."""
        created: dict[str, str] = {}
        for n, match in record.open.items():
            for t in range(len(match["tables"])):
                name = store.slot(n, t)
                if name not in record.games:
                    created[name] = self._create_game(record, n, t, match, checkpoint)
        if created:
            checkpoint("games")
            store.set_games(self.r, record.id, created)
        games = record.games | created
        pending = {
            name: games[name]
            for n, match in record.open.items()
            for t in range(len(match["tables"]))
            if (name := store.slot(n, t)) not in record.results
        }
        self._play_gone(
            record,
            {
                games[store.slot(n, t)]: seats
                for n, match in record.open.items()
                for t, seats in enumerate(match["tables"])
                if store.slot(n, t) in pending
            },
        )
        finals = self.clocks.final_results(list(pending.values()))
        timeouts = self.clocks.timeouts(list(finals))
        results = {
            name: finals[game_id]
            | {"game_id": game_id, "ended": time.time(), "timeouts": timeouts.get(game_id, {})}
            for name, game_id in pending.items()
            if game_id in finals
        }
        self.clocks.watch([g for g in pending.values() if g not in finals], time.time())
        if results:
            checkpoint("results")
            store.put_results(self.r, record.id, results)
            record = store.read(self.r, record.id) or record
        self._rate(record, checkpoint)

    def _play_gone(self, record: LadderRecord, tables: dict[str, list[str]]) -> None:
        """Give the turns of the players who are gone the clock's timeout policy at once,
        in the ladder's games under way (``tables``: game id -> its players by seat).

        Gone: left the ladder, and not seen waiting within its ``seen_seconds`` (a bot
        that leaves as its last game begins, ``parlour bot run --games N``, keeps
        playing it). Each such turn is a timeout of its seat, as its clock would have
        made it a full move clock later (a default move, or the policy's forfeit).

        A player bot's identities are gone too while its health sweep has it paused
        (:func:`server.store.bots.pause`: a hosted bot whose turns keep failing), seen
        or not, so nobody at its tables waits on it."""
        seated = sorted({p for seats in tables.values() for p in seats})
        left = {p for p in seated if p not in record.entries}
        paused = self._paused(seated)
        if not left and not paused:
            return
        now = time.time()
        seen = store.last_seen(self.r, sorted(left))
        gone = {p for p in left if seen.get(p, 0) < now - record.meta["seen_seconds"]} | paused
        for game_id, seats in tables.items():
            mine = {s for s, p in enumerate(seats) if p in gone}
            for _ in range(MAX_GIVEN_UP if mine else 0):
                if self.clocks.timeout(game_id, now, gone=mine) not in ("default_move", "rearmed"):
                    break

    def _paused(self, players: list[str]) -> set[str]:
        """Those of ``players`` that are identities of a bot its health sweep paused."""
        of = bot_store.bots_of(self.r, players)
        if not of:
            return set()
        health = bot_store.health_of(self.r, sorted(set(of.values())))
        return {p for p, b in of.items() if health[b][0] is not None}

    def _rate(self, record: LadderRecord, checkpoint: Checkpoint) -> None:
        """Rate each match whose tables are all over, once (a duplicate board is one contest)."""
        done: dict[int, tuple[int, ...]] = {}
        for n, match in record.open.items():
            names = [store.slot(n, t) for t in range(len(match["tables"]))]
            if all(name in record.results for name in names):
                sides = tuple(tuple(s) for s in match["sides"])
                finals = [record.results[name] for name in names]
                done[n] = contest_ranks(sides, match["tables"], finals)
        if not done:
            return
        rating_pool = pool(record.id)
        ids = [f"{record.id}:{n}" for n in done]
        for (n, ranks), event_id, applied in zip(
            done.items(), ids, self.ratings.applied(rating_pool, ids), strict=True
        ):
            teams = tuple(tuple(s) for s in record.open[n]["sides"])
            if not applied:
                checkpoint("rate")
                # every entry joined the ladder itself: consent (docs/ladder.md); the
                # ratings written are kept as the match's, in the same write
                tables = range(len(record.open[n]["tables"]))
                game_ids = tuple(table_game_id(f"ladder:{record.id}", n, t) for t in tables)
                self.ratings.rate(
                    rating_pool,
                    event_id,
                    teams,
                    ranks,
                    consented=True,
                    keep_after=True,
                    game_ids=game_ids,
                )
        checkpoint("close")
        store.close(self.r, record.id, list(done))
        still = {p for n, m in record.open.items() if n not in done for s in m["sides"] for p in s}
        left = {p for n in done for s in record.open[n]["sides"] for p in s}
        left -= still | set(record.entries)
        if left:  # their games here over: no longer kept as seen (store.forget)
            store.forget(self.r, sorted(left))

    def _create_game(
        self, record: LadderRecord, n: int, t: int, match: dict[str, Any], checkpoint: Checkpoint
    ) -> str:
        """Create (once) table ``t`` of match ``n``; both tables of a duplicate board (other
        players at each) are dealt from the match's board seed, each knowing its twin
        (its cards hidden until both are over). Every seat joined the ladder itself: that
        is its consent."""
        game_id = table_game_id(f"ladder:{record.id}", n, t)
        seed, twins = None, None
        if len(match["tables"]) == 2:
            seed = self.core.board_seed(f"ladder:{record.id}", n)
            twins = [table_game_id(f"ladder:{record.id}", n, 1 - t)]
        checkpoint("create")
        placement = {"match": n, "table": t, "board": n if seed else None, "twins": twins}
        self._create_table(record, game_id, list(match["tables"][t]), seed, placement)
        return game_id

    def _create_table(
        self,
        record: LadderRecord,
        game_id: str,
        seats: list[str],
        seed: str | None,
        placement: dict[str, Any],
    ) -> None:
        """Create (once) a game of the ladder at ``seats``: its options at the ladder's
        table size, on its clock; ``placement`` says where it stands (a match's table, or
        a validation game). Every seat joined the ladder itself: that is its consent."""
        meta = record.meta
        engine = REGISTRY[meta["game"]]
        options = dict(meta["options"])
        if engine.seat_option:
            options[engine.seat_option] = meta["table_size"]
        self.games.create_tournament_game(
            game_id=game_id,
            game=meta["game"],
            options=options,
            seats=seats,
            seed=seed,
            clock={
                "move_seconds": meta["clock"]["move_seconds"],
                "bank_ms": meta["clock"].get("bank_ms", 0),
                "timeout_policy": meta["timeout_policy"],
            },
            tournament={
                "id": None,
                "ladder": record.id,
                **placement,
                "consent": {"kind": "ladder_entry", "players": sorted(set(seats))},
            },
        )
