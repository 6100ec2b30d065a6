"""A small server-sent events reader over ``requests`` (what a browser's EventSource does)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import requests


@dataclass(frozen=True)
class Message:
    id: str | None
    event: str
    data: str

    @property
    def json(self) -> Any:
        return json.loads(self.data)


class SseReader:
    """Messages of one ``text/event-stream`` response, as they arrive.

    Comments (``: heartbeat``) are counted in ``comments``; ``retry`` is kept.
    """

    def __init__(self, response: requests.Response) -> None:
        assert response.status_code == 200, response.text
        assert response.headers["Content-Type"].startswith("text/event-stream")
        self.response = response
        self._chunks = response.iter_content(chunk_size=None, decode_unicode=False)
        self._buffer = ""
        self.comments: list[str] = []
        self.retry: int | None = None

    def __iter__(self) -> Iterator[Message]:
        while True:
            message = self.next()
            if message is None:
                return
            yield message

    def next(self) -> Message | None:
        """The next message (skipping comments), or None once the server closed the stream."""
        while True:
            item = self.next_item()
            if item is None or isinstance(item, Message):
                return item

    def next_item(self) -> Message | str | None:
        """The next message or comment (a comment is returned as its text); None at the end."""
        while True:
            block, sep, rest = self._buffer.partition("\n\n")
            if not sep:
                try:
                    chunk = next(self._chunks)
                except StopIteration:
                    return None
                self._buffer += chunk.decode()
                continue
            self._buffer = rest
            comments = len(self.comments)
            message = self._parse(block)
            if message is not None:
                return message
            if len(self.comments) > comments:
                return self.comments[-1]

    def _parse(self, block: str) -> Message | None:
        fields: dict[str, list[str]] = {}
        for line in block.split("\n"):
            if line.startswith(":"):
                self.comments.append(line[1:].strip())
                continue
            name, _, value = line.partition(":")
            fields.setdefault(name, []).append(value[1:] if value.startswith(" ") else value)
        if "retry" in fields:
            self.retry = int(fields["retry"][-1])
        if "data" not in fields:
            return None
        return Message(
            fields.get("id", [None])[-1],
            fields.get("event", ["message"])[-1],
            "\n".join(fields["data"]),
        )

    def close(self) -> None:
        self.response.close()


def open_stream(
    base_url: str,
    game_id: str,
    *,
    token: str | None = None,
    header_token: str | None = None,
    last_event_id: int | None = None,
    **params: Any,
) -> requests.Response:
    """``GET /v1/games/{id}/stream`` with the token in the query or the header."""
    headers = {"Accept": "text/event-stream"}
    if header_token is not None:
        headers["Authorization"] = f"Bearer {header_token}"
    if last_event_id is not None:
        headers["Last-Event-ID"] = str(last_event_id)
    if token is not None:
        params["token"] = token
    return requests.get(
        f"{base_url}/v1/games/{game_id}/stream",
        params=params,
        headers=headers,
        stream=True,
        timeout=(5, 10),
    )
