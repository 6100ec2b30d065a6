"""The calls the server makes to its users' URLs, declared as the API's operations are
(:class:`.operations.Operation`): the spec's top-level ``webhooks`` beside the app
webhooks of ``openapi_base.yaml``.

* ``callback``: a callback bot's turn (docs/callbacks.md), POSTed by the dispatcher
  (server/processes/dispatch.py) with the body
  :meth:`server.services.callback_dispatch.Call.request` builds: ``schemas.CallbackCall``
  says its shape (the services import nothing of the API;
  tests/callbacks/test_call_matches_the_spec.py holds a real call to it).
"""

from __future__ import annotations

from . import schemas
from .operations import OPEN, Answer, Operation

WEBHOOKS: dict[str, Operation] = {
    "callback": Operation(
        "callbackTurn",
        tag="callbacks",
        summary="A turn of one of the player's seats, POSTed to its callback; answer the move.",
        description="""\
While a player has a callback (`PUT /v1/me/callback`), the server POSTs
each turn of the player's seats to its URL: the turn entry exactly as
`GET /v1/me/turns` lists it, plus a call `id` unique to this call (a
retry of the turn gets a new one). The call is signed with the
callback's secret (`Parlour-Signature`). The answer must be
`200 {"move": ...}`, at most 64 KiB, read as sent
(`Accept-Encoding: identity`), within the time left: one deadline for
the whole call (the seat's deadline less a moment to submit the move,
at most `PARLOUR_CALLBACK_TIMEOUT`, 10 s). Redirects are not followed.
Anything else (no answer in time, another status, a body that is not a
move, an illegal move) is a failure: the call is made once more while
time is left (a new `id`), then the clock plays its default move at the
deadline.
""",
        security=OPEN,
        parameters=[schemas.SIGNATURE],
        body=schemas.CallbackCall,
        responses={200: Answer("the move to play", schemas.CallbackAnswer)},
    ),
}
"""The webhooks the code declares, by name."""
