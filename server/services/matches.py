"""Matches: is NEW better than OLD? Duplicate boards until a sequential test decides.

``POST /v1/matches`` names two sides, ``new`` and ``old``, of one player per seat
each (a player id, or ``"bot:<name>"`` for a house bot: the pool gives distinct
identities): half of a side's players sit at each table. A board is one deal
(:meth:`Core.board_seed`) at two tables with the cards swapped: at table 0 NEW's
first half holds the even seats and OLD's the odd ones, at table 1 OLD's second half
the even and NEW's the odd, so nobody sits at both tables of a board (each game's
``twins`` keep its cards hidden until both are over, :mod:`server.services.boards`).
Consent: a named player other than the caller and the house bots must agree
(``POST /v1/matches/{id}/agree``) before any board is dealt.

The scheduler calls :meth:`Matches.advance` for every running match: it creates the
current board's two games once (ids derived from match, board and table), and once
both are over scores the board: NEW's mean seat score per deal minus OLD's, averaged
over the two tables (par-adjusted: each seat's par, :func:`server.games.analysis.seat_par`,
taken off first, decided when the match is made). After each board the sequential
test of :mod:`server.games.analysis.sprt` passes, fails, or deals the next board, up
to ``max_boards`` (``inconclusive``). An aborted table voids its board (not scored).
"""

from __future__ import annotations

import hashlib
import math
import secrets
import statistics
import time
from typing import Any

from server.games import REGISTRY
from server.games.analysis import PAR, seat_par, sprt
from server.services import par as par_service
from server.services import views
from server.services.bots import BOT_SEAT, resolve_bots
from server.services.clocks import Clocks
from server.services.core import Core
from server.services.errors import Forbidden, InvalidRequest, NotFound
from server.services.games import Games
from server.store import game_events as event_store
from server.store import matches as store
from server.store import players as player_store
from server.store.matches import MatchRecord

SIDES = ("new", "old")
REGRESSION_FORMAT = "parlour-regression-set/1"
"""The SDK's regression sets' format (``client_sdk.local.REGRESSION_FORMAT``)."""
OVER = ("finished", "aborted")
CLOCK = {"bank_ms": 0, "timeout_policy": {"kind": "default_move"}}
LIVE = ("waiting", "running")
UNSCORED = {"new_points": None, "old_points": None}
"""A board's sides' points before they are known (void, or stored before boards kept them)."""
MAX_LIVE = 3
"""Undecided matches a player may have at once (each deals at most one board at a time:
two games; more would let one player fill the server, house bots included)."""


def table_game_id(match_id: str, board: int, table: int) -> str:
    """The id of a board's table: derived, so that it is created once.

    >>> table_game_id("m1", 0, 0) != table_game_id("m1", 0, 1)
    True
    """
    return hashlib.sha256(f"match:{match_id}:{board}:{table}".encode()).hexdigest()[:16]


def seating(new: list[str], old: list[str], seats: int, table: int) -> list[str]:
    """Table 0: NEW's players in the even seats, in order; table 1, the cards swapped:
    OLD's there. Each side's list holds its players at this table (``seats / 2``).

    >>> seating(["n1"], ["o1"], 2, 0), seating(["n3", "n4"], ["o3", "o4"], 4, 1)
    (['n1', 'o1'], ['o3', 'n3', 'o4', 'n4'])
    """
    even, odd = (new, old) if table == 0 else (old, new)
    return [(even if s % 2 == 0 else odd)[s // 2] for s in range(seats)]


class Matches:
    """The matches' use cases: create, agree, read, the regression set, and advance."""

    def __init__(self, core: Core, games: Games, clocks: Clocks) -> None:
        self.core = core
        self.games = games
        self.clocks = clocks

    # -- requests ----------------------------------------------------------------------
    def create(self, token: str | None, body: dict[str, Any]) -> dict[str, Any]:
        """Store a match (running at once when nobody else has to agree).

        Raises:
            Forbidden: the admin token (a match is a player's); InvalidRequest: an
            unknown game or options, a side not of two, a player twice, a game whose
            seats do not split into two sides, bounds out of order; UnknownBot.
        """
        caller = self.core.caller(token)
        if caller.player is None:
            raise Forbidden("a match is made by a player: use a player's token")
        mine = store.made_by(self.core.r, caller.player.id)
        live = sum(s in LIVE for s in store.statuses(self.core.r, mine))
        if live >= MAX_LIVE:
            raise Forbidden(
                f"you have {live} matches undecided; at most {MAX_LIVE} at once",
                {"limit": MAX_LIVE, "live": live},
            )
        game = body["game"]
        engine = REGISTRY.get(game)
        if engine is None:
            raise InvalidRequest("no such game", {"game": [f"one of {sorted(REGISTRY)}"]})
        if body["par_adjusted"] and game not in PAR:
            raise InvalidRequest(
                "this game has no par to adjust by",
                {"par_adjusted": [f"only for {sorted(PAR)}"]},
            )
        e0, e1 = body["bounds"]
        if not e0 < e1:
            raise InvalidRequest("bounds: e0 < e1", {"bounds": ["the first below the second"]})
        options = dict(body.get("options") or {})
        try:
            seats = engine.new_state(dict(options), "seats").num_seats
        except ValueError as exc:
            raise InvalidRequest(str(exc), {"options": [str(exc)]}) from exc
        if seats % 2:
            raise InvalidRequest(
                "a match needs a game of two sides", {"game": [f"{game} seats {seats} here"]}
            )
        for side in SIDES:
            if len(body[side]) != seats:
                raise InvalidRequest(
                    f"{side}: {seats} players, one per seat of the two tables",
                    {side: [f"{seats // 2} for each of the board's two tables"]},
                )
        named = [*body["new"], *body["old"]]
        people_named = [p for p in named if not p.startswith(BOT_SEAT)]
        if len(set(people_named)) != len(people_named):
            raise InvalidRequest(
                "a player is named twice: nobody sits at both tables of a board",
                {"players": ["each player once"]},
            )
        resolved = resolve_bots(self.core.r, game, list(named)) or []
        players = [p for p in resolved if p is not None]
        people = [p for p, given in zip(players, named, strict=True) if p == given]
        known = player_store.get_many(self.core.r, people) if people else {}
        missing = {str(i): "no such player" for i, p in enumerate(named)
                   if p in known and known[p] is None}  # fmt: skip
        if missing:
            raise NotFound("no such player", {"players": missing})
        agreed = {p for p in players if p == caller.player.id or views.is_house(p)}
        match_id = secrets.token_hex(8)
        meta = {
            "id": match_id, "game": game, "options": options, "seats": seats,
            "new": players[:seats], "old": players[seats:], "bounds": [e0, e1],
            "alpha": body["alpha"], "beta": body["beta"], "max_boards": body["max_boards"],
            "par_adjusted": body["par_adjusted"], "move_seconds": body["move_seconds"],
            "created_by": caller.player.id,
        }  # fmt: skip
        status = "running" if agreed >= set(players) else "waiting"
        store.create(self.core.r, match_id, meta, status, agreed)
        return self._shown(self._read(match_id))

    def agree(self, token: str | None, match_id: str) -> dict[str, Any]:
        """The caller agrees to play the match it is named in; the last one starts it.

        Raises:
            NotFound: no such match, or the caller is not named in it.
        """
        player = self.core.player(token)
        record = self._read(match_id)
        if player.id not in self._players(record):
            raise NotFound("no such match among yours")
        store.agree(self.core.r, match_id, player.id)
        record = self._read(match_id)
        if record.status == "waiting" and record.agreed >= set(self._players(record)):
            store.start(self.core.r, match_id)
        return self._shown(self._read(match_id))

    def get(self, match_id: str) -> dict[str, Any]:
        """The match as it stands: LLR, estimate, interval, every scored board."""
        return self._shown(self._read(match_id))

    def regression(self, match_id: str) -> dict[str, Any]:
        """The boards NEW lost, with their games and seeds, in the SDK's regression-set
        format (``parlour-bot play --deals FILE NEW OLD`` plays them again). A scored
        board is over at both tables, and a finished game's replay reveals its seed."""
        record = self._read(match_id)
        meta = record.meta
        lost = [
            UNSCORED | b | {"seed": self.core.board_seed(f"match-{record.id}", b["board"])}
            for _, b in sorted(record.boards.items())
            if b["difference"] is not None and b["difference"] < 0
        ]
        return {"format": REGRESSION_FORMAT, "match": match_id, "game": meta["game"],
                "options": meta["options"], "new": None, "old": None, "mode": "duplicate",
                "par_adjusted": meta["par_adjusted"], "seed": None, "boards": lost}  # fmt: skip

    # -- the scheduler -----------------------------------------------------------------
    def active(self) -> list[str]:
        return store.active(self.core.r)

    def advance(self, match_id: str) -> bool:
        """Create the current board's games, or score it once both are over and decide;
        True if anything changed."""
        record = store.read(self.core.r, match_id)
        if record is None or record.status != "running":
            return False
        board = len(record.boards)
        ids = [table_game_id(match_id, board, t) for t in (0, 1)]
        games = [self.core.game(g) for g in ids]
        if any(g is None for g in games):
            self._create_board(record, board, ids)
            return True
        if any(g.status not in OVER for g in games if g is not None):
            self.clocks.watch([g.id for g in games if g is not None], time.time())
            return False
        store.put_board(self.core.r, match_id, board, self._score(record, board, games))
        record = self._read(match_id)
        verdict = self._verdict(record)
        if verdict != sprt.CONTINUE:
            store.finish(self.core.r, match_id, verdict)
        return True

    def _create_board(self, record: MatchRecord, board: int, ids: list[str]) -> None:
        meta = record.meta
        seed = self.core.board_seed(f"match-{record.id}", board)
        half = meta["seats"] // 2
        for t in (0, 1):
            self.games.create_tournament_game(
                game_id=ids[t],
                game=meta["game"],
                options=dict(meta["options"]),
                seats=seating(
                    meta["new"][t * half : (t + 1) * half],
                    meta["old"][t * half : (t + 1) * half],
                    meta["seats"],
                    t,
                ),  # fmt: skip
                seed=seed,
                clock={"move_seconds": meta["move_seconds"], **CLOCK},
                # no "id": that names a tournament (the lobby links to one)
                tournament={
                    "match": record.id,
                    "round": board,
                    "table": t,
                    "board": board,
                    "twins": [ids[1 - t]],
                },  # fmt: skip
            )

    def _score(self, record: MatchRecord, board: int, games: list[Any]) -> dict[str, Any]:
        """The board's result: its games, each side's mean seat points per deal over the two
        tables, and NEW's minus OLD's (None: void)."""
        meta = record.meta
        out: dict[str, Any] = {"board": board, "games": [g.id for g in games]} | UNSCORED
        if any(g.status != "finished" for g in games):
            return out | {"difference": None, "void": True}
        sides: list[tuple[float, float]] = []
        for t, g in enumerate(games):
            outcome = views.state_of(g).outcome()
            if outcome is None:  # finished without an outcome: nothing to compare
                return out | {"difference": None, "void": True}
            scores = [float(s) for s in outcome.to_dict()["scores"]]
            if meta["par_adjusted"]:
                events = event_store.all_events(self.core.r, g.id)
                par = seat_par(meta["game"], par_service.of(self.core.r, g, events), len(scores))
                if par is not None:
                    scores = [s - p for s, p in zip(scores, par, strict=True)]
            results = views.state_of(g).view(None).get("state", {}).get("deal_results")
            deals = len(results) if results else 1  # points per deal, as the SDK counts
            scores = [x / deals for x in scores]
            new_even = t == 0
            new = [s for i, s in enumerate(scores) if (i % 2 == 0) == new_even]
            old = [s for i, s in enumerate(scores) if (i % 2 == 0) != new_even]
            sides.append((statistics.fmean(new), statistics.fmean(old)))
        return out | {
            "difference": statistics.fmean(n - o for n, o in sides),
            "void": False,
            "new_points": statistics.fmean(n for n, _ in sides),
            "old_points": statistics.fmean(o for _, o in sides),
        }

    # -- reading -----------------------------------------------------------------------
    def _read(self, match_id: str) -> MatchRecord:
        record = store.read(self.core.r, match_id) if len(match_id) <= 32 else None
        if record is None:
            raise NotFound("no such match")
        return record

    @staticmethod
    def _players(record: MatchRecord) -> list[str]:
        return [*record.meta["new"], *record.meta["old"]]

    @staticmethod
    def _differences(record: MatchRecord) -> list[float]:
        return [b["difference"] for _, b in sorted(record.boards.items())
                if b["difference"] is not None]  # fmt: skip

    def _state(self, record: MatchRecord) -> sprt.Sprt:
        meta = record.meta
        e0, e1 = meta["bounds"]
        return sprt.sprt(self._differences(record), e0, e1, meta["alpha"], meta["beta"])

    def _verdict(self, record: MatchRecord) -> str:
        decision = self._state(record).decision
        if decision == sprt.CONTINUE and len(record.boards) >= record.meta["max_boards"]:
            return "inconclusive"
        return decision

    def _shown(self, record: MatchRecord) -> dict[str, Any]:
        state = self._state(record)
        est = state.estimate
        meta = record.meta
        return {
            "id": record.id,
            "status": record.status,
            "game": meta["game"],
            "options": meta["options"],
            "new": meta["new"],
            "old": meta["old"],
            "waiting_for": sorted(set(self._players(record)) - record.agreed),
            "bounds": meta["bounds"],
            "alpha": meta["alpha"],
            "beta": meta["beta"],
            "max_boards": meta["max_boards"],
            "par_adjusted": meta["par_adjusted"],
            "llr": _finite(state.llr),
            "llr_bounds": [state.lower, state.upper],
            "boards_scored": est.boards,
            "estimate": {
                "mean": est.mean,
                "low": _finite(est.low),
                "high": _finite(est.high),
                "effect": _finite(est.effect),
                "spread": est.spread,
            },  # fmt: skip
            "boards": [UNSCORED | b for _, b in sorted(record.boards.items())],
            "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(record.created)),
        }


def _finite(x: float) -> float | None:
    """JSON has no infinity: None for an unbounded value."""
    return None if math.isinf(x) or math.isnan(x) else x
