"""Token rotation and revocation, exercised through ``tests/api/test_openapi.py``'s
checked client: every status the spec documents for them, validated against it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tests.conftest import ADMIN_TOKEN

Call = Callable[..., tuple[int, Any]]


def exercise_tokens(call: Call) -> None:
    """``/v1/players/me/token``, ``/v1/players/{id}/token`` and ``/v1/apps/{id}/token``."""
    _, ann = call("post", "/v1/players", {"name": "ann"})
    _, bob = call("post", "/v1/players", {"name": "bob"})
    status, new = call("post", "/v1/players/me/token", token=ann["token"])
    assert status == 200 and new["id"] == ann["id"]
    assert call("post", "/v1/players/me/token", token=ann["token"])[0] == 401
    assert call("post", "/v1/players/me/token", token=ADMIN_TOKEN)[0] == 403
    assert call("delete", "/v1/players/me/token", token=ADMIN_TOKEN)[0] == 403
    assert call("delete", "/v1/players/me/token")[0] == 401
    assert call("delete", "/v1/players/me/token", token=new["token"])[0] == 204

    mine = f"/v1/players/{ann['id']}/token"
    status, back = call("post", mine, token=ADMIN_TOKEN)
    assert status == 200 and back["id"] == ann["id"]
    assert call("post", mine, token=bob["token"])[0] == 403
    assert call("post", mine)[0] == 401
    assert call("post", "/v1/players/nobody1/token", token=ADMIN_TOKEN)[0] == 404
    assert call("delete", mine, token=bob["token"])[0] == 403
    assert call("delete", mine)[0] == 401
    assert call("delete", "/v1/players/nobody1/token", token=ADMIN_TOKEN)[0] == 404
    assert call("delete", mine, token=ADMIN_TOKEN)[0] == 204

    _, app = call("post", "/v1/apps", {"name": "rotating"}, ADMIN_TOKEN)
    path = f"/v1/apps/{app['id']}/token"
    assert call("post", path, {"keep_webhooks": "yes"}, app["token"])[0] == 400
    status, rotated = call("post", path, {"keep_webhooks": True}, app["token"])
    assert status == 200 and rotated["webhooks"] == {"count": 0, "kept": True}
    assert call("post", path, token=app["token"])[0] == 401
    assert call("post", path, token=bob["token"])[0] == 403
    assert call("post", "/v1/apps/appnope/token", token=ADMIN_TOKEN)[0] == 404
    assert call("delete", path, token=bob["token"])[0] == 403
    assert call("delete", path)[0] == 401
    assert call("delete", "/v1/apps/appnope/token", token=ADMIN_TOKEN)[0] == 404
    assert call("delete", path, token=rotated["token"])[0] == 204
