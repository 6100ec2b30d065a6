"""The Python entry adapter: runs a ``language: python`` bundle's bot inside the sandbox.

Run there as ``python -S -B /sandbox/adapter.py`` in ``/bot`` (the bundle), with
``client_sdk`` on ``PYTHONPATH``; it is never imported by the server. It loads the
manifest's ``entry`` as a module (``/bot`` first on ``sys.path``, so the bundle's other
modules import too) and makes the bot: ``make_bot()`` if the entry defines one, else
its one subclass of ``client_sdk.Bot``, made with no arguments. Then it speaks the
JSON-lines protocol (docs/sandbox.md) on stdin and stdout:

* ``{"type": "turn", "view": ...}`` -> one line, ``{"move": ...}``, or
  ``{"error": "..."}`` when the bot raised (``Bot.on_game_start`` is called before the
  first turn of the process);
* ``{"type": "over", "view": ...}`` -> ``Bot.on_game_over``, no answer.

The protocol keeps the process's first stdout to itself: the bot's ``print`` goes to
stderr, which the server keeps the tail of.
"""

from __future__ import annotations

import importlib.util
import json
import os
import sys
from typing import Any


def load_bot(entry: str) -> Any:
    """The bot of the bundle's ``entry`` module."""
    sys.path.insert(0, "/bot")
    spec = importlib.util.spec_from_file_location("bundle_main", os.path.join("/bot", entry))
    if spec is None or spec.loader is None:
        raise SystemExit(f"cannot load {entry}")
    module = importlib.util.module_from_spec(spec)
    sys.modules["bundle_main"] = module
    spec.loader.exec_module(module)
    make = getattr(module, "make_bot", None)
    if callable(make):
        return make()
    from client_sdk import Bot

    found = [
        value
        for value in vars(module).values()
        if isinstance(value, type)
        and issubclass(value, Bot)
        and value is not Bot
        and value.__module__ == module.__name__
    ]
    if len(found) != 1:
        names = ", ".join(c.__name__ for c in found) or "none"
        raise SystemExit(f"{entry} must define make_bot() or one client_sdk.Bot subclass: {names}")
    return found[0]()


def answer(bot: Any, view: Any, started: bool) -> dict[str, Any]:
    """The reply line to one turn."""
    try:
        if not started:
            bot.on_game_start(view)
        move = bot.choose_move(view)
        json.dumps(move)
    except Exception as e:  # the bot's bug: the server makes the default move
        return {"error": f"{type(e).__name__}: {e}"[:500]}
    return {"move": move}


def main() -> None:
    protocol = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    with open("/bot/manifest.json", encoding="utf-8") as f:
        bot = load_bot(json.load(f).get("entry", "main.py"))
    started = False
    for line in sys.stdin:
        message = json.loads(line)
        view = message.get("view")
        if message.get("type") == "over":
            try:
                bot.on_game_over(view)
            except Exception as e:
                print(f"on_game_over: {type(e).__name__}: {e}", file=sys.stderr)
            continue
        protocol.write(json.dumps(answer(bot, view, started), separators=(",", ":")) + "\n")
        protocol.flush()
        started = True


if __name__ == "__main__":
    main()
