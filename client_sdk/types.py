"""The API's JSON shapes as ``TypedDict`` s, keys exactly as on the wire.

Generated from ``openapi.yaml`` (the spec the server generates): every schema of its
components is a type of the same name here, written into ``client_sdk/_types_generated.py``
by ``python -m client_sdk.typegen`` (``make openapi`` runs it; ``tests/sdk/test_types.py``
fails while it is stale) and re-exported by this module, which adds the SDK's own names
(:data:`Move`, :data:`Status`, :data:`GameView`, :func:`game_view` and the older names
of a few components: ``SeatInfo`` is ``SeatEntry``, ``Player`` is ``Profile``, ...).
Two components give their name up to the SDK's: the spec's ``Move`` (a move of any
game) is ``MoveSchema`` and its ``Status`` (the health check's answer) ``StatusSchema``.

The SDK returns the decoded JSON untouched: these types only tell your editor
and type checker what is inside. Keys the API marks as optional are
``NotRequired``; unknown extra keys from a newer server are simply there.

Two levels of detail:

* :class:`View` and :data:`Move` are game-agnostic (``state`` and moves are
  plain dicts): what :class:`~client_sdk.Bot` hands you, fine for a bot of one
  game that knows its state's keys. (``View`` is the keys every game's view has, as
  :class:`Event` is those of every kind of event.)
* :data:`GameView` is the union of the per-game views (:class:`ConcertoView`,
  :class:`SecondsView`, :class:`CowpokeView`, :class:`PinochleView`), each with
  its typed ``state`` and ``legal_moves``; narrow on ``view["game"]``:

  ```python
  def choose_move(self, view: View) -> Move:
      typed = game_view(view)
      if typed["game"] == "pinochle":
          trump = typed["state"]["trump"] if typed["state"] else None
  ```

  An object the spec leaves unnamed inside another is typed too, named by where it
  is (``PinochleState``'s ``contract``: ``PinochleStateContract``).
"""

from typing import Any, Literal, cast

from . import _types_generated as _spec
from ._types_generated import *  # noqa: F403 (every component, by its name in the spec)

Move = dict[str, Any]
"""A game move, e.g. Concerto ``{"type": "play", "card": "QS"}`` or ``{"type": "pass"}``;
:data:`ConcertoMove` and the other per-game unions type it exactly."""

Status = Literal["waiting", "active", "finished", "aborted"]
"""A game's status, a view's ``status``."""

GameView = _spec.ViewVariant
"""A view typed per game: narrow on ``view["game"]``."""

# The SDK's names of the components it named before they were generated.
SeatInfo = _spec.SeatEntry
TurnsPage = _spec.Turns
EventsPage = _spec.Events
NewPlayer = _spec.PlayerCreated
Player = _spec.Profile
RotatedToken = _spec.TokenRotated


def game_view(view: _spec.View) -> GameView:
    """The same view, typed per game: after ``if typed["game"] == "cowpoke":`` the type
    checker knows the state's keys and the legal moves' shapes.

    >>> game_view({"game": "seconds", "legal_moves": []})["game"]
    'seconds'

    Nothing is checked or copied at run time: the server sends the keys the
    per-game schema names (the types are generated from it).
    """
    return cast(GameView, view)
