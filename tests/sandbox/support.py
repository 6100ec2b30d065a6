"""What the sandbox tests share: small limits, views, hostile bundles written to disk."""

from __future__ import annotations

import json
import textwrap
import threading
import time
from pathlib import Path

from server.sandbox import Limits, Seat

MIB = 1024 * 1024

LIMITS = Limits(
    memory_bytes=96 * MIB,
    pids=16,
    cpu_share=0.5,
    cpu_seconds=20,
    output_bytes=4096,
    turn_seconds=1.0,
    cold_start_seconds=20.0,
    tmp_bytes=1 * MIB,
)
"""Small and short, so that every hostile bundle reaches its limit at once."""

LEGAL = [{"type": "play", "card": "QS"}, {"type": "play", "card": "9H"}]
VIEW = {"legal_moves": LEGAL}
ATTACK = {"legal_moves": LEGAL, "attack": True}
DEFAULT = {"type": "play", "card": "9H"}
"""``default_move(LEGAL)``: the lowest card."""

PLAIN_BOT = """
from client_sdk import Bot


class First(Bot):
    def choose_move(self, view):
        return view["legal_moves"][0]
"""


def write_bundle(
    where: Path, source: str = "", *, manifest: dict | None = None, files: dict | None = None
) -> Path:
    """A bundle directory: ``main.py`` of ``source`` (dedented) and a manifest."""
    where.mkdir(parents=True, exist_ok=True)
    manifest = manifest or {"language": "python", "entry": "main.py"}
    (where / "manifest.json").write_text(json.dumps(manifest))
    if source:
        (where / "main.py").write_text(textwrap.dedent(source))
    for name, text in (files or {}).items():
        (where / name).write_text(textwrap.dedent(text))
    return where


def python_bot(attack: str) -> str:
    """A bot that plays the first legal move, but runs ``attack`` on a turn marked so."""
    body = textwrap.indent(textwrap.dedent(attack), " " * 12)
    return (
        "import json, os, signal, socket, sys, time\n"
        "from client_sdk import Bot\n\n\n"
        "class Hostile(Bot):\n"
        "    def choose_move(self, view):\n"
        '        if view.get("attack"):\n'
        f"{body}\n"
        '        return view["legal_moves"][0]\n'
    )


class Bystander:
    """A good seat playing turns in a thread: its moves, failures and slowest turn."""

    def __init__(self, seat: Seat) -> None:
        self.seat = seat
        self.turns = 0
        self.wrong: list[object] = []
        self.slowest = 0.0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        n = 0
        while not self._stop.is_set():
            n += 1
            legal = [{"type": "play", "card": f"{n % 9 + 1}S"}, {"type": "pass"}]
            played = self.seat.play({"legal_moves": legal})
            if played.failure is not None or played.move != legal[0]:
                self.wrong.append(played)
            self.slowest = max(self.slowest, played.seconds)
            self.turns += 1
            time.sleep(0.01)

    def __enter__(self) -> Bystander:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join(30)
