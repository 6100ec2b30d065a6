"""Every feature's use cases over one shared core: what the API and the processes hold.

``Services(r, ...)`` over a Redis client, or :meth:`Services.connect` from a URL
(so the API never builds a Redis client itself). One per process: it keeps no
state between calls besides the client and its scripts.
"""

from __future__ import annotations

from typing import Any

from redis import Redis

from server.services import notifications, targets
from server.services.apps import Apps
from server.services.archive import Archive
from server.services.callback_dispatch import Dispatch
from server.services.callbacks import Callbacks
from server.services.clocks import Clocks
from server.services.core import Core, house_bot_places
from server.services.events import Events
from server.services.feeds import Feeds
from server.services.games import Games
from server.services.health import Health
from server.services.hosted import HostedTurns
from server.services.invitations import (
    DEFAULT_PER_INVITEE,
    DEFAULT_PER_INVITER,
    DEFAULT_PER_PAIR,
    DEFAULT_TTL,
    Invitations,
)
from server.services.ladder_play import LadderPlay
from server.services.ladders import Ladders
from server.services.lobby import PER_CREATOR, Lobby
from server.services.matches import Matches
from server.services.metrics import Metrics
from server.services.player_bots import PlayerBots
from server.services.players import Players
from server.services.ratelimit import RateLimits
from server.services.ratings import Ratings
from server.services.replays import Replays
from server.services.rounds import Rounds
from server.services.slots import Slots
from server.services.tournaments import Tournaments
from server.services.turnstream import TurnStreams
from server.services.visitors import Visitors
from server.store import connect


class Services:
    """The use cases, one object per feature, sharing one :class:`Core`.

    Args:
        r: the Redis client (see :func:`server.store.connect`).
        admin_token: the admin's bearer token, or None for no admin.
        max_wait: the server's cap on long-poll waits, in seconds.
        open_registration: whether anyone may register (the admin always may).
        seed_secret: the secret deal seeds derive from; None keeps one in Redis.
        guest_ttl: seconds an app's invitation stays valid at most.
        guest_grace: seconds a guest token may still read its game once it ended.
        invitation_ttl: seconds an invitation to a seat or an entry stays open.
        webhook_allow: CIDR list of internal ranges webhooks may target all the same.
        invitations_per_inviter: open invitations one player or app may have sent.
        invitations_per_invitee: open invitations one player may hold.
        invitations_per_pair: of those, from any one inviter (0: no share).
        lobby_per_creator: live games (and tournaments) of one player the lobby's lists
            show at most.
        house_bots: where house bots may play, a comma list of
            :data:`server.services.core.HOUSE_BOTS_PLACES`.
        house_games_per_player: unfinished games seating only house bots one player
            may have made (0: no cap).
        house_games_max: such games unfinished at once in all (0: no cap).
        organisers: a comma list of the player ids that may make players in bulk for
            the tournaments they create (:mod:`server.services.events`).
    """

    def __init__(
        self,
        r: Redis,
        *,
        admin_token: str | None,
        max_wait: float = 30.0,
        open_registration: bool = True,
        seed_secret: str | None = None,
        guest_ttl: float = 86400.0,
        guest_grace: float = 3600.0,
        invitation_ttl: float = DEFAULT_TTL,
        webhook_allow: str = "",
        invitations_per_inviter: int = DEFAULT_PER_INVITER,
        invitations_per_invitee: int = DEFAULT_PER_INVITEE,
        invitations_per_pair: int = DEFAULT_PER_PAIR,
        lobby_per_creator: int = PER_CREATOR,
        house_bots: str | None = None,
        house_games_per_player: int = 2,
        house_games_max: int = 4,
        organisers: str = "",
    ) -> None:
        self.core = Core(
            r,
            admin_token=admin_token,
            max_wait=max_wait,
            open_registration=open_registration,
            seed_secret=seed_secret,
        )
        self.players = Players(self.core)
        self.core.organisers = frozenset(p.strip() for p in organisers.split(",") if p.strip())
        if house_bots is not None:
            self.core.house_bots_in = house_bot_places(house_bots)
        self.invitations = Invitations(
            self.core,
            ttl=invitation_ttl,
            per_inviter=invitations_per_inviter,
            per_invitee=invitations_per_invitee,
            per_pair=invitations_per_pair,
        )
        self.games = Games(self.core, self.invitations)
        self.games.house_games.per_player = house_games_per_player
        self.games.house_games.max_live = house_games_max
        self.clocks = Clocks(self.core)
        self.slots = Slots(self.core)
        self.feeds = Feeds(self.core, self.slots)
        self.turn_streams = TurnStreams(self.core, self.feeds)
        self.replays = Replays(self.core)
        self.archive = Archive(self.core, self.replays)
        self.lobby = Lobby(self.core, per_creator=lobby_per_creator)
        self.health = Health(self.core)
        self.tournaments = Tournaments(self.core, self.invitations, per_creator=lobby_per_creator)
        self.events = Events(self.core, self.tournaments)
        self.ratings = Ratings(self.core)
        self.ladders = Ladders(self.core)
        self.rounds = Rounds(self.core, self.games, self.clocks, self.ratings)
        self.matches = Matches(self.core, self.games, self.clocks)
        self.ladder_play = LadderPlay(
            self.core, self.games, self.clocks, self.ratings, self.ladders
        )
        self.core.subscribe(self.ladder_play)  # the ladders keep books on play
        self.apps = Apps(
            self.core,
            self.games,
            guest_ttl=guest_ttl,
            guest_grace=guest_grace,
            webhook_allow=targets.allowlist(webhook_allow),
        )
        self.callbacks = Callbacks(
            self.core, targets.allowlist(webhook_allow), changed=self.ladders.revalidate
        )
        self.dispatch = Dispatch(self.core, self.games, self.feeds)
        self.player_bots = PlayerBots(
            self.core, self.ladders, self.tournaments, targets.allowlist(webhook_allow)
        )
        self.hosted = HostedTurns(self.core, self.games)
        self.ratelimits = RateLimits(self.core)
        self.deliveries = notifications.Deliveries(r)
        self.metrics = Metrics(self.core)
        self.visitors = Visitors(
            self.core, self.games, self.clocks, guest_ttl=guest_ttl, guest_grace=guest_grace
        )

    @classmethod
    def connect(
        cls,
        redis_url: str,
        *,
        max_connections: int = 4000,
        block_timeout: float = 30.0,
        **settings: Any,
    ) -> Services:
        """The services over a new client for ``redis_url`` (a server or a cluster);
        ``settings`` are the keyword arguments of :class:`Services`."""
        r = connect(redis_url, max_connections=max_connections, block_timeout=block_timeout)
        return cls(r, **settings)
