"""The client's namespaces, one module per group of the API.

``base`` holds what they share: the :class:`Requestor` that sends every request
(auth, timeout, retries, errors, server-sent events). Each other module is one
namespace of :class:`client_sdk.Client`, named as its attribute: ``games.py`` is
``client.games``. A new endpoint goes into its namespace's module; a new namespace
gets a module here, an entry below and an attribute on ``Client``.
"""

from .apps import Apps
from .base import USER_AGENT, Requestor
from .bots import Bots
from .games import Games
from .invitations import Invitations
from .ladders import Ladders
from .matches import Matches
from .my_bots import MyBots
from .players import Players
from .ratings import Ratings
from .tokens import Tokens
from .tournaments import Tournaments
from .turns import Turns
from .visitors import Visitors

__all__ = [
    "USER_AGENT", "Requestor", "Players", "Games", "Turns", "Tournaments", "Ratings", "Apps",
    "Bots", "Invitations", "Tokens", "Ladders", "Visitors", "MyBots", "Matches",
]  # fmt: skip
