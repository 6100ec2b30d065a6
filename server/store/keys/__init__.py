"""Every Redis key name Parlour uses, built in this package and nowhere else
(docs/architecture.md): here, and in :mod:`server.store.keys.bots` for the bots played
elsewhere (a callback URL, hosted code).

tests/store/test_keys.py reads the prefixes of the functions below and fails on a
string of another module of ``server/`` that starts with one (or carries a hash tag).

The keys of one game share the hash tag ``{<game_id>}`` and the keys of one
player share ``{<player_id>}``, so every multi-key operation (a Lua script, a
MULTI/EXEC) stays inside one cluster slot and the code runs unchanged against
a Redis Cluster. Lua scripts receive these names in ``KEYS``; they never build
one themselves.

>>> game_state("abc")
'g:{abc}:game'
>>> player_wake("p1")
'p:{p1}:wake'
"""

from __future__ import annotations

# The keys of bots played elsewhere (callbacks and hosted code), looked up here too.
from .bots import *  # noqa: F403 (its __all__)


def game_state(game_id: str) -> str:
    """Hash: ``version``, ``state`` (engine JSON), ``meta`` (JSON), ``status``, ``seq``."""
    return f"g:{{{game_id}}}:game"


def game_seats(game_id: str) -> str:
    """Hash: seat number -> JSON ``{"player_id", "name"}``; open seats are absent."""
    return f"g:{{{game_id}}}:seats"


def game_events(game_id: str) -> str:
    """Stream of the game's events; entry ``0-<n>`` is event number ``n`` (1-based)."""
    return f"g:{{{game_id}}}:events"


def game_moves(game_id: str) -> str:
    """Hash: version a move was accepted at -> JSON ``{"seat", "move"}`` (safe retries)."""
    return f"g:{{{game_id}}}:moves"


def player(player_id: str) -> str:
    """Hash: ``name``, ``token_sha256``, ``created``."""
    return f"p:{{{player_id}}}"


def player_games(player_id: str) -> str:
    """Set of the ids of games the player is seated in and that are not finished."""
    return f"p:{{{player_id}}}:games"


def player_wake(player_id: str) -> str:
    """Stream of wake-ups for the player's ``/me/turns`` long-poll (a hint, never the truth)."""
    return f"p:{{{player_id}}}:wake"


def player_sent_invitations(player_id: str) -> str:
    """Sorted set of the invitations a player (or an app) sent that are still open:
    ``"<invited player id>|<invitation id>"`` -> expiry (epoch seconds). Counts the
    inviter's open invitations against its cap (:mod:`server.store.invitations`)."""
    return f"p:{{{player_id}}}:sent"


def player_blocks(player_id: str) -> str:
    """Sorted set: the ids of players whose invitations this player refuses -> when
    blocked. Beside the player's invitations, in its slot, so one script checks both."""
    return f"p:{{{player_id}}}:blocks"


def lobby_creators() -> str:
    """Hash: live game id -> who created it (a player id, an app id, ``admin``,
    ``scheduler``), for the lobby's cap of rows per creator."""
    return "lobby:games:creators"


def server_secret() -> str:
    """String: the secret deal seeds are derived from (with the game id)."""
    return "parlour:secret"


# -- move clocks ------------------------------------------------------------------------
def game_clock(game_id: str) -> str:
    """Hash of a clocked game: ``move_seconds``, ``bank_ms``, ``policy`` (JSON), ``version``
    (the game version the deadlines were set for), ``d:<seat>`` (deadline, epoch seconds,
    of each seat to move), ``s:<seat>`` (when its turn began), ``b:<seat>`` (its time bank
    left, ms), ``l:<seat>`` (its last latency, ms), ``t:<seat>`` (timeouts so far) and
    ``forfeit`` (JSON, once aborted)."""
    return f"g:{{{game_id}}}:clock"


def deadlines() -> str:
    """Sorted set: game id -> its earliest deadline (epoch seconds). The one index of
    move clocks the scheduler scans; the truth stays in each game's :func:`game_clock`."""
    return "sched:deadlines"


# -- tournaments ----------------------------------------------------------------------
def tournament(tournament_id: str) -> str:
    """Hash: ``meta`` (JSON), ``status`` (open|running|finished|aborted), ``created``,
    ``started``, ``finished``, ``seats_per_entry``, ``next_entry`` (counter),
    ``games_planned``, ``error``."""
    return f"t:{{{tournament_id}}}"


def tournament_entries(tournament_id: str) -> str:
    """Hash: entry id (``e1``, ``e2``… in seed order) -> JSON ``{"players": [...]}``."""
    return f"t:{{{tournament_id}}}:entries"


def tournament_players(tournament_id: str) -> str:
    """Set of the player ids entered (a player is in at most one entry)."""
    return f"t:{{{tournament_id}}}:players"


def tournament_rounds(tournament_id: str) -> str:
    """Hash: round index -> the round's pairing as JSON. Written with HSETNX: once."""
    return f"t:{{{tournament_id}}}:rounds"


def tournament_games(tournament_id: str) -> str:
    """Hash: ``<round>:<table>`` -> game id (the id is derived, so rewriting is harmless)."""
    return f"t:{{{tournament_id}}}:games"


def tournament_results(tournament_id: str) -> str:
    """Hash: ``<round>:<table>`` -> the table's result as JSON. Written with HSETNX: once."""
    return f"t:{{{tournament_id}}}:results"


def tournament_voids(tournament_id: str) -> str:
    """Hash: ``<round>:<table>`` -> JSON list of the table's voided game ids, oldest first
    (its replay is game number ``len(list)``)."""
    return f"t:{{{tournament_id}}}:voids"


def tournaments_active() -> str:
    """Set of the ids of tournaments the scheduler drives (added before a start flips
    the status; removed once finished)."""
    return "sched:tournaments"


# -- ratings --------------------------------------------------------------------------
def ratings(game: str) -> str:
    """Hash: player id -> JSON ``{"mu", "sigma", "games"}``, one pool per game."""
    return f"r:{{{game}}}:ratings"


def ratings_applied(game: str) -> str:
    """Set of the rating events already applied (``<tournament>:<event key>``): each once."""
    return f"r:{{{game}}}:applied"


# -- the lobby (listings: hints, never the truth) ----------------------------------------
def lobby_live_games() -> str:
    """Sorted set: ids of games waiting or being played -> creation time (epoch seconds)."""
    return "lobby:games:live"


def lobby_finished_games() -> str:
    """Sorted set: ids of finished or aborted games -> the time they ended."""
    return "lobby:games:finished"


def lobby_tournaments() -> str:
    """Sorted set: every tournament id -> its creation time."""
    return "lobby:tournaments"


# -- apps, guests, the server's bot pool --------------------------------------
def app(app_id: str) -> str:
    """Hash of an app (an embedding backend): ``name``, ``token_sha256``, ``invite_url``,
    ``created``. App ids start with ``app``, so they never collide with a player id (hex)."""
    return f"a:{{{app_id}}}"


def app_webhooks(app_id: str) -> str:
    """Hash: webhook id -> JSON ``{"id", "url", "events", "secret", "created"}``."""
    return f"a:{{{app_id}}}:webhooks"


def app_deliveries(app_id: str) -> str:
    """List of the app's latest webhook delivery outcomes (JSON, newest first, capped)."""
    return f"a:{{{app_id}}}:deliveries"


def guest(guest_id: str) -> str:
    """Hash binding a guest player to one seat: ``game``, ``seat``, ``app``, ``expires``.

    Beside the guest's player hash (same hash tag); both expire at ``expires``."""
    return f"p:{{{guest_id}}}:guest"


def bot_pool() -> str:
    """Hash: bot name -> JSON ``{"games": [...] | null, "players": [player ids]}``: the
    identities the server's bot pool plays ``"bot:<name>"`` seats with."""
    return "bots:pool"


def webhook_due() -> str:
    """Sorted set: delivery id -> when it is due (epoch seconds); a claimed delivery is
    pushed a lease ahead, so a deliverer that dies mid-send loses nothing."""
    return "wh:{q}:due"


def webhook_pending() -> str:
    """Hash: delivery id -> JSON of the delivery still to make (same slot as the due set)."""
    return "wh:{q}:pending"


# -- metrics -------------------------------------------------------------------
def metrics_counters() -> str:
    """Hash: series (``family|suffix|labels``) -> count or sum, added to by every API
    worker (deltas, about once a second), so any worker can report the whole fleet."""
    return "metrics:{m}:counters"


def metrics_waiting() -> str:
    """Hash: API worker (``host:pid``) -> ``"<long-polls waiting> <epoch seconds>"``, the
    worker's gauge as of its last report (a worker silent for long is counted out)."""
    return "metrics:{m}:waiting"


def rate_window(subject: str, window: int) -> str:
    """Requests of one caller (a hash of its token) in one fixed window of time."""
    return f"rl:{{{subject}}}:{window}"


# -- open streams and long-polls (server/services/slots.py) ------------------------------
def slots(subject: str) -> str:
    """Sorted set: the leases of one caller's open streams and long-polls (a player id or
    a client address), each a random id scored by when it lapses (epoch milliseconds)."""
    return f"slots:{{{subject}}}"


# -- invitations ------------------------------------------------------------------------
def player_invitations(player_id: str) -> str:
    """Hash: invitation id -> JSON of the invitation (kind, target, inviter, expiry)."""
    return f"p:{{{player_id}}}:invitations"


# -- rating history -----------------------------------------------------------------------
def ratings_after(game: str) -> str:
    """Hash: rating event id -> JSON ``{player: {"mu", "sigma"}}``, the ratings the event
    wrote (same slot as :func:`ratings`, so one script writes both)."""
    return f"r:{{{game}}}:after"


def rating_history(game: str, player_id: str) -> str:
    """List, oldest first: JSON ``{"at", "mu", "sigma", "event", "game_ids"}``, the
    player's rating after each rated game of the pool, its latest
    ``store.ratings.HISTORY_LIMIT`` kept (same slot as :func:`ratings`)."""
    return f"r:{{{game}}}:history:{player_id}"


# -- ladders (server/store/ladders.py; a ladder's keys share the tag ``{L<id>}``) ---------
def ladder(ladder_id: str) -> str:
    """Hash: ``meta`` (JSON), ``created``.

    >>> ladder("x1")
    'L:{Lx1}'
    """
    return f"L:{{L{ladder_id}}}"


def ladder_entries(ladder_id: str) -> str:
    """Hash: player id -> JSON ``{"joined"[, "partner"]}``."""
    return f"L:{{L{ladder_id}}}:entries"


def ladder_matches(ladder_id: str) -> str:
    """Hash: match number -> JSON of the match; the key a pairing scheduler WATCHes."""
    return f"L:{{L{ladder_id}}}:matches"


def ladder_open(ladder_id: str) -> str:
    """Set of the match numbers not rated yet."""
    return f"L:{{L{ladder_id}}}:open"


def ladder_games(ladder_id: str) -> str:
    """Hash: ``<match>:<table>`` -> game id."""
    return f"L:{{L{ladder_id}}}:games"


def ladder_results(ladder_id: str) -> str:
    """Hash: ``<match>:<table>`` -> the table's result (HSETNX)."""
    return f"L:{{L{ladder_id}}}:results"


def ladder_after(ladder_id: str) -> str:
    """Hash: match number -> ratings after the match, as earlier schedulers kept them
    (read only)."""
    return f"L:{{L{ladder_id}}}:after"


def ladder_response_times(ladder_id: str, player_id: str) -> str:
    """List: the player's latest response times (seconds) in the ladder's games."""
    return f"L:{{L{ladder_id}}}:rt:{player_id}"


def ladder_refused(ladder_id: str) -> str:
    """Hash: player id -> how many of its moves the engine refused in the ladder's games."""
    return f"L:{{L{ladder_id}}}:refused"


def ladder_validation_refused(ladder_id: str) -> str:
    """Hash: validation game id -> how many moves the engine refused its entry there."""
    return f"L:{{L{ladder_id}}}:vrefused"


def ladder_left_validations(ladder_id: str) -> str:
    """Hash: validation game id -> the player that left the ladder during it (the
    scheduler plays its turns there until the game is over)."""
    return f"L:{{L{ladder_id}}}:vleft"


def ladders() -> str:
    """Sorted set: every ladder id -> its creation time."""
    return "ladders"


def ladder_waiting() -> str:
    """Sorted set: player id (of players on some ladder) -> when it was last seen waiting
    for a turn (epoch seconds; 0: not yet)."""
    return "ladder:waiting"


# -- visitors (server/services/visitors.py) ----------------------------------------------
def visitors_live() -> str:
    """Sorted set: visitor game id -> creation time, pruned as games end or expire."""
    return "visitors:live"


def house_games_live() -> str:
    """Sorted set: ``<creator id>:<game id>`` of the games a player made seating only
    house bots -> creation time, pruned as games end (server/services/bots.py)."""
    return "house:games:live"


# -- matches --------------------------------------------------------------------------
def match(match_id: str) -> str:
    """Hash: ``meta`` (JSON: the request, its sides' players), ``status``
    (waiting|running|pass|fail|inconclusive), ``created``, ``finished``."""
    return f"m:{{{match_id}}}"


def match_agreed(match_id: str) -> str:
    """Set of the players named in the match who agreed to play it."""
    return f"m:{{{match_id}}}:agreed"


def match_boards(match_id: str) -> str:
    """Hash: board number -> the board's scored result as JSON. Written with HSETNX: once."""
    return f"m:{{{match_id}}}:boards"


def matches_active() -> str:
    """Set of the ids of the matches the scheduler drives (removed once decided)."""
    return "sched:matches"


def player_matches(player_id: str) -> str:
    """Set of the ids of the matches a player made (its cap counts the undecided ones)."""
    return f"m:made:{{{player_id}}}"
