"""marshmallow schemas: the shape of every request body and query, and of responses.

Schemas check shape only (types, required fields, ranges, the card pattern);
the engine decides legality. Instances are built once at module level. Response
schemas use ``Raw`` for game-specific parts: they are the engine's own output,
already filtered per seat, and are never re-validated (docs/operations.md).

One module per area (``schemas.games`` ...); this package has every public name of
each, so a view says ``schemas.GameCreate`` whichever module it lives in.
"""

from marshmallow import Schema as Schema

from .apps import *  # noqa: F403
from .bots import *  # noqa: F403
from .callbacks import *  # noqa: F403
from .errors import *  # noqa: F403
from .fields import *  # noqa: F403
from .games import *  # noqa: F403
from .invitations import *  # noqa: F403
from .ladders import *  # noqa: F403
from .players import *  # noqa: F403
from .ratings import *  # noqa: F403
from .replay_files import *  # noqa: F403
from .replays import *  # noqa: F403
from .streams import *  # noqa: F403
from .tournaments import *  # noqa: F403
from .visitors import *  # noqa: F403
