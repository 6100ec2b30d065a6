"""The JSON-lines protocol between the server and a seat's process, one turn at a time.

The server writes one line, ``{"type": "turn", "view": ...}``, and reads one line back
before the turn's deadline: ``{"move": {...}}``, or ``{"error": "..."}`` when the bot
raised. ``{"type": "over", "view": ...}`` is written and gets no answer. All three pipes
are non-blocking and served by one selector: a process that does not read its turn,
writes a line past the cap, floods stderr or never answers costs the server no more
than the turn's deadline, the cap and :data:`STDERR_PER_TURN`.
"""

from __future__ import annotations

import contextlib
import json
import os
import selectors
import time
from dataclasses import dataclass
from typing import Any

KINDS = ("timeout", "crash", "memory", "output", "garbage", "error", "illegal")
"""A failure's kinds: no reply in time; the process ended; the kernel killed it for
memory; a reply line past ``Limits.output_bytes``; a line that is no ``{"move": {...}}``;
the bot raised (``{"error": ...}``); a move not among ``view["legal_moves"]``
(``Seat.play`` only). The first five restart the process."""

KEPT = ("error", "illegal")
STDERR_TAIL = 2048
STDERR_PER_TURN = 1024 * 1024
"""stderr read during one turn, at most: past it the seat's stderr is left unread (it
blocks on it), so that a flood costs the server no more than this."""


@dataclass(frozen=True)
class Failure:
    """Why a turn has no move from the bot: ``kind`` (one of :data:`KINDS`) and details."""

    kind: str
    detail: str = ""

    @property
    def restarts(self) -> bool:
        """Whether the seat's process was killed for it (the next turn cold-starts)."""
        return self.kind not in KEPT


Result = tuple[dict[str, Any] | None, Failure | None]
"""A turn's move, or why there is none."""


class Pipes:
    """The server's ends of one process's stdin, stdout and stderr, and its stderr's tail."""

    def __init__(self, stdin: int, stdout: int, stderr: int) -> None:
        for fd in (stdin, stdout, stderr):
            os.set_blocking(fd, False)
        self.stdin, self.stdout, self.stderr = stdin, stdout, stderr
        self.tail = b""

    def exchange(self, message: bytes, deadline: float, cap: int) -> Result:
        """Write ``message`` and read the reply line (at most ``cap`` bytes) by ``deadline``."""
        stray = self._drain_stray(cap)
        if stray is not None:
            return None, stray
        turn = _Turn(message, cap)
        with selectors.DefaultSelector() as sel:
            sel.register(self.stdout, selectors.EVENT_READ, "out")
            sel.register(self.stderr, selectors.EVENT_READ, "err")
            sel.register(self.stdin, selectors.EVENT_WRITE, "in")
            while True:
                left = deadline - time.monotonic()
                if left <= 0:
                    wanted = "read its turn" if turn.pending else "answer"
                    return None, Failure("timeout", f"did not {wanted} within the deadline")
                for key, _ in sel.select(left):
                    done = self._on(key, sel, turn)
                    if done is not None:
                        return done

    def send(self, message: bytes) -> None:
        """Write ``message`` if the pipe takes it now, whole or not at all (no answer)."""
        with contextlib.suppress(OSError):
            os.write(self.stdin, message)

    def _drain_stray(self, cap: int) -> Failure | None:
        """Discard what the process wrote to stdout between turns (bounded)."""
        stray = 0
        while True:
            try:
                chunk = os.read(self.stdout, 65536)
            except BlockingIOError:
                return None
            if not chunk:
                return None  # its end: the turn finds it
            stray += len(chunk)
            if stray > cap:
                return Failure("output", "wrote past the output cap between turns")

    def _on(
        self, key: selectors.SelectorKey, sel: selectors.BaseSelector, turn: _Turn
    ) -> Result | None:
        """One ready pipe: the turn's result once there is one."""
        try:
            if key.data == "out":
                done = turn.read(key.fd)
                if done is not None and done[1] is not None and done[1].kind == "crash":
                    return None, Failure("crash", self.last_words())
                return done
            finished = turn.feed(key.fd) if key.data == "in" else self._hear(key.fd, turn)
        except BlockingIOError:
            return None
        except BrokenPipeError:
            finished = True  # it closed its stdin: its end shows on stdout
        if finished:
            sel.unregister(key.fd)
        return None

    def _hear(self, fd: int, turn: _Turn) -> bool:
        """Read what the process wrote to stderr, keeping the tail; whether to stop."""
        chunk = os.read(fd, 65536)
        turn.heard += len(chunk)
        self.tail = (self.tail + chunk)[-STDERR_TAIL:]
        return not chunk or turn.heard >= STDERR_PER_TURN

    def last_words(self) -> str:
        """The tail of stderr after the process ended (what is left in the pipe)."""
        with contextlib.suppress(OSError):
            deadline = time.monotonic() + 0.2
            while time.monotonic() < deadline:
                try:
                    chunk = os.read(self.stderr, 65536)
                except BlockingIOError:
                    time.sleep(0.01)
                    continue
                if not chunk:
                    break
                self.tail = (self.tail + chunk)[-STDERR_TAIL:]
        lines = self.tail.decode(errors="replace").strip().splitlines()
        return "stderr: " + (lines[-1][:300] if lines else "(nothing)")


class _Turn:
    """One turn's bytes: the message still to write, the reply line read so far."""

    def __init__(self, message: bytes, cap: int) -> None:
        self.pending = memoryview(message)
        self.cap = cap
        self.line = bytearray()
        self.heard = 0

    def feed(self, fd: int) -> bool:
        """Write what the pipe takes of the message; whether it is all written."""
        self.pending = self.pending[os.write(fd, self.pending[:65536]) :]
        return not self.pending

    def read(self, fd: int) -> Result | None:
        """Read the reply line on; ``None`` while it is unfinished."""
        chunk = os.read(fd, 65536)
        if not chunk:
            return None, Failure("crash")
        newline = chunk.find(b"\n")
        self.line += chunk if newline < 0 else chunk[:newline]
        if len(self.line) > self.cap:
            return None, Failure("output", f"a reply line over {self.cap} bytes")
        return _parse(bytes(self.line)) if newline >= 0 else None


def _parse(line: bytes) -> Result:
    """A reply line's move, or why it is none."""
    try:
        data = json.loads(line)
    except ValueError:
        return None, Failure("garbage", f"not JSON: {line[:80]!r}")
    if isinstance(data, dict) and isinstance(data.get("move"), dict):
        return data["move"], None
    if isinstance(data, dict) and isinstance(data.get("error"), str):
        return None, Failure("error", data["error"][:500])
    return None, Failure("garbage", f'not {{"move": {{...}}}}: {line[:80]!r}')
