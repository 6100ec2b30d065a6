"""``parlour bot ...`` argument handling and bot loading (no server needed)."""

from __future__ import annotations

import argparse
import random
from pathlib import Path

import pytest

from bots.concerto_signals import SignalsBot
from client_sdk.cli import add_bot_commands, cmd_bot_register, cmd_bot_run, load_bot


def parse(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="parlour")
    add_bot_commands(parser.add_subparsers(dest="command", required=True))
    return parser.parse_args(argv)


def test_the_commands_parse() -> None:
    args = parse("bot", "run", "concerto_signals", "--server", "http://h:1", "--token", "t",
                 "--games", "2")  # fmt: skip
    assert (args.func, args.bot, args.server, args.token, args.games) == (
        cmd_bot_run,
        "concerto_signals",
        "http://h:1",
        "t",
        2,
    )
    args = parse("bot", "register", "--server", "http://h:1", "--name", "me")
    assert (args.func, args.name) == (cmd_bot_register, "me")


def test_load_bot_by_name_and_by_module_and_class(tmp_path: Path, monkeypatch) -> None:
    rng = random.Random(1)
    bot = load_bot("concerto_signals", rng)
    assert isinstance(bot, SignalsBot) and bot.rng is rng
    (tmp_path / "mybot.py").write_text(
        "from client_sdk import Bot\n"
        "class FirstMove(Bot):\n"
        "    def choose_move(self, view):\n"
        "        return view['legal_moves'][0]\n"
    )
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("sys.path", list(__import__("sys").path))
    mine = load_bot("mybot:FirstMove")
    assert mine.choose_move({"legal_moves": [{"type": "pass"}]}) == {"type": "pass"}
    with pytest.raises(ValueError, match="no bot"):
        load_bot("no_such_bot")


def test_run_without_a_token_explains(capsys, monkeypatch) -> None:
    monkeypatch.delenv("PARLOUR_TOKEN", raising=False)
    args = parse("bot", "run", "random", "--server", "http://127.0.0.1:9")
    assert args.func(args) == 2
    assert "token" in capsys.readouterr().err


def test_installed_bots_are_found_by_entry_point_and_named_as_before() -> None:
    from bots.uniform import RandomBot
    from client_sdk.cli import bot_names

    assert {"random", "concerto_signals", "concerto_search", "seconds"} <= set(bot_names())
    assert "arena" not in bot_names() and "par_arena" not in bot_names()  # tools, not bots
    assert type(load_bot("random")) is RandomBot


def test_parlour_bot_takes_the_commands_with_or_without_a_leading_bot(capsys, monkeypatch) -> None:
    from client_sdk.cli import main

    monkeypatch.delenv("PARLOUR_TOKEN", raising=False)
    assert main(["run", "random", "--server", "http://127.0.0.1:9"]) == 2  # no token
    assert main(["bot", "run", "random", "--server", "http://127.0.0.1:9"]) == 2
    assert capsys.readouterr().err.count("a token is needed") == 2
    assert main(["run", "no_such_bot", "--token", "t"]) == 2
    assert "installed bots: " in capsys.readouterr().err
