"""``/v1/me/callback``, exercised through ``tests/api/test_openapi.py``'s checked client:
every status the spec documents for it, validated against it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tests.conftest import ADMIN_TOKEN

Call = Callable[..., tuple[int, Any]]


def exercise_callbacks(call: Call) -> None:
    """Set, show, replace, rotate, remove; and the refusals."""
    _, cat = call("post", "/v1/players", {"name": "cat"})
    path = "/v1/me/callback"
    assert call("get", path, token=cat["token"])[0] == 404
    assert call("post", f"{path}/secret", token=cat["token"])[0] == 404
    assert call("delete", path, token=cat["token"])[0] == 404
    status, made = call("put", path, {"url": "https://93.184.216.34/bot"}, cat["token"])
    assert status == 200 and made["secret"].startswith("cbs_")
    status, shown = call("get", path, token=cat["token"])
    assert status == 200 and shown["secret_hint"] == made["secret"][-4:]
    assert call("put", path, {"url": "http://10.0.0.1/"}, cat["token"])[0] == 400
    assert call("put", path, {"url": "https://93.184.216.34/bot"}, ADMIN_TOKEN)[0] == 403
    assert call("put", path, {"url": "https://93.184.216.34/bot"})[0] == 401
    assert call("get", path)[0] == 401
    assert call("get", path, token=ADMIN_TOKEN)[0] == 403
    status, rotated = call("post", f"{path}/secret", token=cat["token"])
    assert status == 200 and rotated["secret"] != made["secret"]
    assert call("post", f"{path}/secret")[0] == 401
    assert call("post", f"{path}/secret", token=ADMIN_TOKEN)[0] == 403
    assert call("delete", path)[0] == 401
    assert call("delete", path, token=ADMIN_TOKEN)[0] == 403
    assert call("delete", path, token=cat["token"])[0] == 204
