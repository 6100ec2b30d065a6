"""A server-sent events parser that follows the spec (WHATWG HTML, "server-sent events").

Feed it the response's bytes as they come, in chunks of any size; it hands back
each message once the blank line that ends it has arrived. What the spec says,
and what this does:

* A line ends at CR LF, a lone CR or a lone LF, and nowhere else: not at
  U+0085, U+2028, U+2029 or the other characters ``str.splitlines`` breaks on
  (reading a stream with ``requests.iter_lines`` did, and a player's name cut
  a frame in two). A CR that ends one chunk and an LF that starts the
  next are one line end.
* ``field: value``: the field's name runs to the first colon, then one space is
  dropped if there is one; a line with no colon is a field with an empty value.
  A line that starts with a colon is a comment.
* ``data`` lines are joined with LF; ``event`` names the message (``message``
  when none); ``id`` sets the last event id (kept for the messages after it,
  ignored if it holds NUL); ``retry`` (ASCII digits only) the reconnection time.
  Other fields are ignored.
* A blank line dispatches the message; one with no ``data`` line is dropped.
  What is left when the stream ends without a blank line is dropped too.
* The stream is UTF-8; one leading byte-order mark is skipped; bytes that are
  not UTF-8 become U+FFFD.

>>> parser = SseParser()
>>> parser.feed(b'event: turns\\r\\ndata: {"name": "a\\xc2\\x85b"}\\r')
[]
>>> parser.feed(b'\\n\\r\\n')
[Message(event='turns', data='{"name": "a\\x85b"}', id='', retry=None)]
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_LINE_END = re.compile(rb"\r\n|\r|\n")
_BOM = b"\xef\xbb\xbf"


@dataclass(frozen=True)
class Message:
    """One dispatched message: its type, its data (lines joined with LF), the last event id
    (``""``: none yet) and the reconnection time the stream last asked for (ms, or None)."""

    event: str
    data: str
    id: str
    retry: int | None


class SseParser:
    """Bytes in, :class:`Message` out; also counts comments (``: heartbeat``) seen."""

    def __init__(self) -> None:
        self._line = bytearray()  # the line being read: no line end in it yet
        self._after_cr = False  # the last chunk ended with CR: an LF next is its CRLF
        self._started = False  # past the start (and a BOM there)
        self._data: list[str] = []
        self._event = ""
        self._id_buffer = ""
        self.last_event_id = ""
        self.retry: int | None = None
        self.comments = 0

    def feed(self, chunk: bytes) -> list[Message]:
        """The messages ``chunk`` completes, in order (none if it ends mid-message)."""
        if not chunk:
            return []
        if self._after_cr and chunk[:1] == b"\n":
            chunk = chunk[1:]
        self._after_cr = False
        if not self._started:
            buffered = bytes(self._line) + chunk
            if len(buffered) < len(_BOM) and _BOM.startswith(buffered):
                self._line[:] = buffered  # maybe a BOM, maybe not: wait for more
                return []
            self._started = True
            self._line.clear()
            chunk = buffered.removeprefix(_BOM)
        out: list[Message] = []
        start = 0
        for end in _LINE_END.finditer(chunk):
            self._line += chunk[start : end.start()]
            start = end.end()
            message = self._take(bytes(self._line))
            self._line.clear()
            if message is not None:
                out.append(message)
        self._line += chunk[start:]
        self._after_cr = chunk.endswith(b"\r")
        return out

    def _take(self, raw: bytes) -> Message | None:
        """Process one line; a blank one dispatches the message read so far."""
        if not raw:
            return self._dispatch()
        line = raw.decode("utf-8", errors="replace")
        if line.startswith(":"):
            self.comments += 1
            return None
        name, colon, value = line.partition(":")
        if colon and value.startswith(" "):
            value = value[1:]
        if name == "data":
            self._data.append(value)
        elif name == "event":
            self._event = value
        elif name == "id" and "\0" not in value:
            self._id_buffer = value
        elif name == "retry" and value.isascii() and value.isdigit():
            self.retry = int(value)
        return None

    def _dispatch(self) -> Message | None:
        self.last_event_id = self._id_buffer
        data, event = self._data, self._event
        self._data, self._event = [], ""
        if not data:
            return None
        return Message(event or "message", "\n".join(data), self.last_event_id, self.retry)


def parse(stream: bytes, chunk_size: int | None = None) -> list[Message]:
    """Every message of a whole stream (``chunk_size``: feed it in pieces of that size).

    >>> parse(b"data: one\\ndata: two\\n\\n: heartbeat\\n\\nid: 7\\ndata:three\\n\\n")
    [Message(event='message', data='one\\ntwo', id='', retry=None), \
Message(event='message', data='three', id='7', retry=None)]
    """
    parser = SseParser()
    size = chunk_size or max(1, len(stream))
    out: list[Message] = []
    for at in range(0, len(stream), size):
        out += parser.feed(stream[at : at + size])
    return out
