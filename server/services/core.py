"""What every feature's use cases share: the Redis handle, its scripts, the secrets,
who is calling, reading a game with its caller, and the step after a commit.

Each feature (players, games, feeds, replays, lobby, tournaments, ladders, apps,
callbacks, ...) is a small class over one :class:`Core`; :class:`server.services.bundle.Services`
builds them all over the same core. Who is calling is resolved by the core's
:class:`~server.services.callers.Callers` (tokens, the admin's, guests'), whose
methods the core offers as its own (:meth:`Core.caller`, :meth:`Core.verify`, ...).

Clocked games (a tournament's, a ladder's, a visitor's; see
:mod:`server.tournaments.clock`) re-arm their deadlines after each commit
(:meth:`Core.arm`), a repeatable step like the wake-ups.

Two hooks tell other features about play, so that the play code (games, new games,
moves, feeds, turn streams) names none of them: after each commit, the app notifications
(:func:`server.services.notifications.after_commit`); and, for the features that
keep books on how players play, the :class:`PlayHook` subscribers
(:meth:`Core.subscribe`): a move accepted or refused, a player seen waiting for
a turn. The ladders subscribe (:class:`server.services.ladder_play.LadderPlay`).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
from dataclasses import dataclass, replace
from typing import Any, Protocol

from redis import Redis

from server.games import BaseState
from server.services import notifications, par, views
from server.services.callers import Caller, Callers, split_token
from server.services.errors import Forbidden, NotFound, Unauthorized
from server.store import bots as bot_store
from server.store import callbacks as callback_store
from server.store import clocks as clock_store
from server.store import games as game_store
from server.store import lobby as lobby_store
from server.store import players as player_store
from server.store.clocks import Clock
from server.store.games import GameRecord
from server.store.players import PlayerRecord
from server.store.scripts import Scripts

HOUSE_BOTS_PLACES = ("visitors", "apps", "games", "ladders", "tournaments", "reference")
"""Where house bots may be seated: visitors' games, apps' and players' (unrated) games,
ladders and tournaments (both rated), and ``reference``: as a reference entry a
tournament's creator (or the admin) enters, whose games are not rated."""
HOUSE_BOTS_DEFAULT = frozenset({"visitors", "apps", "games", "ladders", "reference"})
"""Where they may by default: everywhere but as rated tournament entries."""
CALLBACKS_FRESH = 1.0
"""Seconds a process keeps its list of the players with a callback before reading it
again (:meth:`Core.queue_callbacks`)."""


def house_bot_places(spec: str) -> frozenset[str]:
    """The operator's ``PARLOUR_HOUSE_BOTS``: a comma list of :data:`HOUSE_BOTS_PLACES`.

    >>> sorted(house_bot_places("visitors, games"))
    ['games', 'visitors']

    Raises:
        ValueError: a place that is not one of :data:`HOUSE_BOTS_PLACES`.
    """
    places = frozenset(p.strip() for p in spec.split(",") if p.strip())
    unknown = places - set(HOUSE_BOTS_PLACES)
    if unknown:
        raise ValueError(f"PARLOUR_HOUSE_BOTS: {sorted(unknown)} not in {HOUSE_BOTS_PLACES}")
    return places


@dataclass(frozen=True, slots=True)
class Read:
    """A game read together with its caller (and the accepted move, if asked for)."""

    caller: Caller | None
    game: GameRecord
    accepted: dict[str, Any] | None


class PlayHook(Protocol):
    """A feature told about play by the play code (:meth:`Core.subscribe`).

    Each call comes after the fact it reports (a refused move is refused all the
    same), from the request that saw it.
    """

    def waiting(self, player_id: str, until: float) -> None:
        """The player is waiting for a turn (a long-poll of its turns or of a seat's
        events, an open turn stream), and counts as waiting until ``until`` (epoch)."""

    def moved(self, record: GameRecord, player_id: str, seconds: float) -> None:
        """A clocked game's move of the player was accepted ``seconds`` after its
        seat's turn began."""

    def refused(self, record: GameRecord, player_id: str) -> None:
        """The engine refused a move of the player (illegal, malformed, not its turn)."""


class Core:
    """The shared state of the use cases over one Redis client.

    Args:
        r: the Redis client (see :func:`server.store.connect`).
        admin_token: the admin's bearer token, or None for no admin.
        max_wait: the server's cap on long-poll waits, in seconds.
        open_registration: whether anyone may register (the admin always may).
        seed_secret: the secret deal seeds derive from; None keeps one in Redis.
    """

    def __init__(
        self,
        r: Redis,
        *,
        admin_token: str | None,
        max_wait: float = 30.0,
        open_registration: bool = True,
        seed_secret: str | None = None,
    ) -> None:
        self.r = r
        self.scripts = Scripts.register(r)
        self.callers = Callers(r, admin_token)
        self.max_wait = max_wait
        self.open_registration = open_registration
        self._seed_secret = seed_secret
        self.house_bots_in = HOUSE_BOTS_DEFAULT
        self.organisers: frozenset[str] = frozenset()
        """Player ids the operator lets make players in bulk for their tournaments
        (``PARLOUR_ORGANISERS``; :mod:`server.services.events`); the admin always may."""
        self.hooks: list[PlayHook] = []
        self._callbacks: frozenset[str] = frozenset()
        self._callbacks_read = -CALLBACKS_FRESH

    # -- house bots ---------------------------------------------------------------------
    def admit_house_bots(self, where: str, player_ids: Any) -> None:
        """Refuse (403) house bots where the operator does not let them play.

        ``where`` is one of :data:`HOUSE_BOTS_PLACES`; the operator's setting
        (``PARLOUR_HOUSE_BOTS``, :attr:`house_bots_in`) lists where they may.
        By default not in tournaments: a tournament's games are rated, and a
        player entering the server's bots would farm rating off them.

        Raises:
            Forbidden: ``player_ids`` names a house bot and ``where`` is not allowed.
        """
        if where in self.house_bots_in:
            return
        bots = [p for p in player_ids if p is not None and views.is_house(p)]
        if bots:
            raise Forbidden(
                f"the server's house bots do not play in {where} here",
                {"players": bots, "house_bots_play_in": sorted(self.house_bots_in)},
            )

    # -- callers (:class:`~server.services.callers.Callers`) ---------------------------
    def is_admin(self, token: str) -> bool:
        """Whether ``token`` is the admin's (:meth:`Callers.is_admin`)."""
        return self.callers.is_admin(token)

    def verify(self, token: str, record: PlayerRecord | None, game_id: str | None = None) -> Caller:
        """Check a player token against the record read for its id (:meth:`Callers.verify`)."""
        return self.callers.verify(token, record, game_id)

    def caller(self, token: str | None) -> Caller:
        """Resolve a required bearer token (:meth:`Callers.caller`)."""
        return self.callers.caller(token)

    def claimed_player(self, token: str | None) -> str:
        """The player id a token claims, not yet checked (:meth:`Callers.claimed_player`)."""
        return self.callers.claimed_player(token)

    def player(self, token: str | None) -> PlayerRecord:
        """The calling player, not the admin (:meth:`Callers.player`)."""
        return self.callers.player(token)

    # -- reading a game with its caller -----------------------------------------------
    def read(
        self,
        token: str | None,
        game_id: str,
        *,
        required: bool,
        accepted_at: int | None = None,
        with_clock: bool = False,
    ) -> Read:
        """The caller and the game in one round trip (the token read is pipelined, and so
        is the clock's with ``with_clock``: :meth:`clock` then needs no read of its own).

        Raises:
            Unauthorized (a bad token, or none while ``required``), NotFound.
        """
        pid = None
        if token is not None and not self.is_admin(token):
            parts = split_token(token)
            if parts is None:
                raise Unauthorized("unknown token")
            pid = parts[0]
        got = game_store.read(
            self.r, game_id, player_id=pid, accepted_at=accepted_at, with_clock=with_clock
        )
        caller: Caller | None
        if token is None:
            if required:
                raise Unauthorized("missing bearer token")
            caller = None
        elif pid is None:
            caller = Caller(None, is_admin=True)
        else:
            caller = self.verify(token, got.player, game_id)
        if got.game is None:
            raise NotFound("no such game", {"game_id": game_id})
        return Read(caller, got.game, got.accepted)

    def read_as(self, player_id: str, game_id: str, *, accepted_at: int | None = None) -> Read:
        """The game read for ``player_id`` without a token, with its clock: the
        dispatcher's, which plays a callback player's seats for it.

        Raises:
            Unauthorized: no such player (removed since), or its token is revoked (a
                callback set by whoever held it plays none of its seats); NotFound.
        """
        got = game_store.read(
            self.r, game_id, player_id=player_id, accepted_at=accepted_at, with_clock=True
        )
        if got.player is None or got.player.token_sha256 == player_store.REVOKED:
            raise Unauthorized("unknown player")
        if got.game is None:
            raise NotFound("no such game", {"game_id": game_id})
        return Read(Caller(got.player), got.game, got.accepted)

    def game(self, game_id: str) -> GameRecord | None:
        """The game's record as stored, or None (no caller involved)."""
        return game_store.read(self.r, game_id).game

    # -- seeds ------------------------------------------------------------------------
    def seed_for(self, name: str) -> str:
        """The deal seed of a game (or board) ``name``: an HMAC of it under the server
        secret, so seeds are secret, fixed, and the same on every API process."""
        if self._seed_secret is None:
            self._seed_secret = game_store.server_secret(self.r, secrets.token_hex(32))
        return hmac.new(self._seed_secret.encode(), name.encode(), hashlib.sha256).hexdigest()

    def board_seed(self, tournament_id: str, board: int) -> str:
        """The deal seed of a duplicate board: every one of its tables is dealt from it.

        Derived like a game's seed, from a name no game id can take (game ids
        are hex), so it is as secret and as fixed.
        """
        return self.seed_for(f"{tournament_id}:board:{board}")

    # -- clocks -------------------------------------------------------------------------
    def clock(self, record: GameRecord) -> Clock | None:
        """The game's clock (only for clocked games): as read with the game, or one read."""
        if not record.meta.get("clock"):
            return None
        if record.clock is not None:
            return clock_store.parse(record.clock)
        return clock_store.read(self.r, record.id)

    def arm(
        self,
        record: GameRecord,
        state: BaseState,
        clock: Clock,
        *,
        mover: int | None,
        restart: bool = False,
        now: float | None = None,
    ) -> Clock:
        """After a commit (a move or a timeout): the deadlines of the new version, then
        the index. Repeatable; ``now`` is when the fresh turns start (each gets the
        per-move time plus its seat's time bank left). ``clock`` must already carry
        the commit's bank and latency of the mover (what the turns rendered show)."""
        to_move = state.to_move() if record.status == "active" else []
        now = time.time() if now is None else now
        armed = clock_store.arm(
            self.r,
            self.scripts,
            record.id,
            version=record.version,
            to_move=to_move,
            mover=mover,
            now=now,
            restart=restart,
        )
        if armed is None:  # a later version armed it already: read what is there
            clock = clock_store.read(self.r, record.id) or clock
        else:
            clock = replace(clock, version=record.version, deadlines=armed[0], starts=armed[1])
        clock_store.index(self.r, record.id, clock.earliest() if to_move else None)
        return clock

    # -- after a commit ---------------------------------------------------------------
    def wake_to_move(
        self, record: GameRecord, state: BaseState, clock: Clock | None = None
    ) -> None:
        """Wake the players to move (a repeatable hint, after the commit), with their
        turns rendered for their turn streams when the view is complete: a clocked
        game's needs its armed ``clock``, else the stream reads the game itself."""
        if record.status != "active":
            return
        pids = to_wake(record, state)
        if pids:
            complete = clock is not None or not record.meta.get("clock")
            turns = views.rendered_turns(record, state, clock) if complete else None
            player_store.wake(self.r, pids, record.id, turns, record.version)
            self.queue_callbacks(record, state)

    def queue_callbacks(self, record: GameRecord, state: BaseState) -> int:
        """Queue the turns of the seats to move whose player has a callback, for the
        dispatchers (:mod:`server.services.callbacks`): a repeatable step after a commit,
        which queues a turn once however often it runs.

        Who has a callback is read at most every :data:`CALLBACKS_FRESH` seconds (a
        commit of players without one costs no round trip); a turn of a callback set
        since is found by the dispatchers' sweep (:meth:`Dispatch.sweep`) instead.
        """
        if record.status != "active":
            return 0
        called = self.callback_players()
        movers = [(s, p) for s in state.to_move() if (p := views.holder(record, s)) is not None]
        hosted = [
            (s, p) for s, p in movers if p.startswith(bot_store.IDENTITY_PREFIX)
        ]  # a player's bot
        queued = bot_store.queue(self.r, self.scripts, record.id, record.version, hosted)
        movers = [(s, p) for s, p in movers if p in called]
        if not movers:
            return queued
        return queued + callback_store.queue(
            self.r, self.scripts, record.id, record.version, movers
        )

    def callback_players(self, now: float | None = None) -> frozenset[str]:
        """The players with a callback, as read at most :data:`CALLBACKS_FRESH` s ago."""
        now = time.monotonic() if now is None else now
        if now - self._callbacks_read >= CALLBACKS_FRESH:
            self._callbacks = frozenset(callback_store.players(self.r))
            self._callbacks_read = now
        return self._callbacks

    def after_commit(self, record: GameRecord, state: BaseState, woken: bool = False) -> None:
        """Persisting came first; now the separate, repeatable step: a finished game's
        par (:mod:`server.services.par`), wake-ups and cleanup.

        ``woken``: the players to move were woken with the commit already
        (``game_store.commit(wake=...)``)."""
        if record.status == "finished":  # once, where it ends: replays read it back
            par.settle(self.r, record)
        if record.status in ("finished", "aborted"):
            lobby_store.settle(self.r, [(record.id, time.time())])
            pids = [v["player_id"] for v in record.seats.values()]
            player_store.remove_game(self.r, pids, record.id)
            player_store.wake(self.r, pids, record.id)
        elif not woken:
            self.wake_to_move(record, state)
        elif not record.meta.get("clock"):  # woken by the commit; a clocked game's turns
            self.queue_callbacks(record, state)  # are queued once its clock is armed
        notifications.after_commit(self.r, record, state)  # an app's game: webhooks, guests

    # -- the play hook ------------------------------------------------------------------
    def subscribe(self, hook: PlayHook) -> None:
        """Tell ``hook`` about play from now on (see :class:`PlayHook`)."""
        self.hooks.append(hook)

    def waiting(self, player_id: str, until: float) -> None:
        """The player waits for a turn until ``until``: told to every subscriber."""
        for hook in self.hooks:
            hook.waiting(player_id, until)

    def moved(self, record: GameRecord, player_id: str, seconds: float) -> None:
        """A clocked move accepted ``seconds`` into its turn: told to every subscriber."""
        for hook in self.hooks:
            hook.moved(record, player_id, seconds)

    def refused(self, record: GameRecord, player_id: str) -> None:
        """A move of the player refused by the engine: told to every subscriber."""
        for hook in self.hooks:
            hook.refused(record, player_id)


def to_wake(record: GameRecord, state: BaseState) -> list[str]:
    """The players of the seats to move."""
    return [record.seats[s]["player_id"] for s in state.to_move() if s in record.seats]
