"""The client's layout: one module per namespace, the old import paths, the reference.

``Client`` gathers namespaces (``client.games``, ``client.players``, ...), each a class
of its own module ``client_sdk.namespaces.<attribute>``. Bots, tutorials and tests
import ``Client``, ``Requestor`` and the namespace classes from ``client_sdk`` and
``client_sdk.client``: those paths stay. docs/sdk.md documents every namespace, so
one added to ``Client`` must be added to the reference too.
"""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

import client_sdk
import client_sdk.client
from client_sdk import Client

SDK_DOC = Path(__file__).resolve().parents[2] / "docs" / "sdk.md"


def _namespaces() -> dict[str, type]:
    """Each namespace attribute of a ``Client`` and its class."""
    client = Client("http://127.0.0.1:8000", token="t0k3n")
    return {
        name: type(value)
        for name, value in vars(client).items()
        if not name.startswith("_") and value is not client.requestor
    }


def test_the_client_has_the_namespaces_of_the_api() -> None:
    assert sorted(_namespaces()) == [
        "apps", "bots", "games", "invitations", "ladders", "matches", "my_bots", "players",
        "ratings", "tokens", "tournaments", "turns", "visitors",
    ]  # fmt: skip


@pytest.mark.parametrize("attribute", sorted(_namespaces()))
def test_each_namespace_is_a_module_of_its_own(attribute: str) -> None:
    cls = _namespaces()[attribute]
    module = importlib.import_module(f"client_sdk.namespaces.{attribute}")
    assert cls.__module__ == module.__name__
    own = [v for v in vars(module).values() if isinstance(v, type)]
    classes = [v for v in own if v.__module__ == module.__name__]
    assert classes == [cls]  # one namespace per module, nothing else defined there


def test_every_name_importable_before_the_split_still_is() -> None:
    from client_sdk.namespaces.base import Requestor

    assert client_sdk.Client is client_sdk.client.Client
    assert client_sdk.Requestor is client_sdk.client.Requestor is Requestor
    assert client_sdk.client.USER_AGENT == "parlour-client-sdk/0.1"
    for cls in _namespaces().values():
        assert getattr(client_sdk.client, cls.__name__) is cls
        assert getattr(client_sdk.namespaces, cls.__name__) is cls
    assert set(client_sdk.client.__all__) == {
        "Client", "Requestor", "USER_AGENT", *(c.__name__ for c in _namespaces().values())
    }  # fmt: skip


def test_the_reference_documents_every_namespace() -> None:
    documented = set(re.findall(r"^::: client_sdk\.namespaces\.(\w+)$", SDK_DOC.read_text(), re.M))
    assert documented == {cls.__name__ for cls in _namespaces().values()}
