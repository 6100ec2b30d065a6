"""Bundles that break the protocol: silence, garbage, a huge line, a crash, a bug, an
illegal move; and bundles the sandbox refuses to start at all.

Each protocol failure has its kind; the turn gets the default move; the process is
restarted where it broke the protocol (not where the bot merely raised or chose an
illegal move) and the next turn is answered.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from server.sandbox import BundleError, Capability, SandboxUnavailable, Seat
from server.sandbox.bundle import stage

from .support import ATTACK, DEFAULT, LEGAL, LIMITS, VIEW, python_bot, write_bundle

PASS = '{"move":{"type":"play","card":"QS"}}'


def shell_bundle(where: Path, on_attack: str) -> Path:
    """A ``language: command`` bundle in sh: answers every turn, but does ``on_attack``
    on a turn marked so."""
    script = (
        "while read -r line; do\n"
        '  case "$line" in\n'
        f"    *'\"attack\":true'*) {on_attack} ;;\n"
        f"    *) echo '{PASS}' ;;\n"
        "  esac\n"
        "done\n"
    )
    return write_bundle(
        where, manifest={"language": "command", "argv": ["sh", "bot.sh"]}, files={"bot.sh": script}
    )


def broken_then_answered(seat: Seat, kind: str, view: dict = ATTACK) -> None:
    assert seat.play(VIEW).move == LEGAL[0]
    starts = seat.starts
    played = seat.play(view)
    assert played.failure is not None and played.failure.kind == kind, played
    assert played.move == DEFAULT
    assert seat.starts == starts + 1
    after = seat.play(VIEW)
    assert after.failure is None and after.move == LEGAL[0], after


@pytest.mark.parametrize(
    ("name", "on_attack", "kind"),
    [
        ("garbage", "echo 'hello, server'", "garbage"),
        ("wrong_shape", """echo '{"move":"QS"}'""", "garbage"),
        ("silent", "sleep 1000", "timeout"),
        ("huge_line", "head -c 5000000 /dev/zero", "output"),
        ("exit", "exit 3", "crash"),
    ],
)
def test_a_command_bundle_that_breaks_the_protocol(
    tmp_path: Path, seat_of, bystander, name: str, on_attack: str, kind: str
) -> None:
    seat = seat_of(shell_bundle(tmp_path / name, on_attack), name=name)
    broken_then_answered(seat, kind)


def test_a_crash_says_its_exit_status_and_last_words(seat_of, bystander) -> None:
    seat = seat_of(python_bot("print('giving up'); sys.stderr.flush(); os._exit(7)"))
    assert seat.play(VIEW).failure is None
    failure = seat.play(ATTACK).failure
    assert failure is not None and failure.kind == "crash", failure
    assert "exit status 7" in failure.detail and "giving up" in failure.detail, failure


def test_a_seat_that_never_reads_a_huge_view_times_out(tmp_path: Path, seat_of) -> None:
    """A 4 MiB view to a process that reads nothing fills the pipe: the write waits on the
    selector, not in the kernel, and the turn ends at its deadline."""
    bundle = write_bundle(
        tmp_path / "deaf",
        manifest={"language": "command", "argv": ["sh", "bot.sh"]},
        files={"bot.sh": f"read -r line; echo '{PASS}'; sleep 1000\n"},
    )
    seat = seat_of(bundle)
    assert seat.play(VIEW).failure is None
    played = seat.play({**VIEW, "padding": "x" * (4 << 20)})
    assert played.failure is not None and played.failure.kind == "timeout", played
    assert "read its turn" in played.failure.detail


def test_a_bot_that_raises_keeps_its_process(seat_of, bystander) -> None:
    seat = seat_of(python_bot("raise RuntimeError('a bug in the bot')"))
    assert seat.play(VIEW).failure is None
    starts = seat.starts
    played = seat.play(ATTACK)
    assert played.failure is not None and played.failure.kind == "error", played
    assert "RuntimeError: a bug in the bot" in played.failure.detail
    assert played.move == DEFAULT and seat.starts == starts
    assert seat.play(VIEW).move == LEGAL[0]


def test_an_illegal_move_gets_the_default_move(seat_of) -> None:
    seat = seat_of(python_bot('return {"type": "play", "card": "AS"}'))
    played = seat.play(ATTACK)
    assert played.failure is not None and played.failure.kind == "illegal", played
    assert played.move == DEFAULT
    reply = seat.turn(ATTACK)  # turn() hands the bot's move back, legal or not
    assert reply.failure is None and reply.move == {"type": "play", "card": "AS"}


def test_prints_go_to_stderr_and_hooks_are_called(tmp_path: Path, seat_of) -> None:
    """The bot's print cannot corrupt the protocol; ``make_bot`` and a module of the
    bundle are found; ``on_game_start`` runs before the first turn."""
    bundle = write_bundle(
        tmp_path / "chatty",
        """
        from client_sdk import Bot
        from helper import pick

        class Chatty(Bot):
            started = 0

            def on_game_start(self, view):
                self.started += 1

            def choose_move(self, view):
                print("thinking out loud")
                return {**pick(view), "started": self.started}

        def make_bot():
            return Chatty()
        """,
        files={"helper.py": "def pick(view):\n    return dict(view['legal_moves'][1])\n"},
    )
    seat = seat_of(bundle)
    for _ in range(3):
        reply = seat.turn(VIEW)
        assert reply.failure is None and reply.move == {**LEGAL[1], "started": 1}, reply
    seat.game_over(VIEW)
    assert "thinking out loud" in seat.stderr_tail


def test_a_bundle_without_a_bot_crashes_on_its_first_turn(seat_of) -> None:
    seat = seat_of("x = 1\n")
    played = seat.play(VIEW)
    assert played.failure is not None and played.failure.kind == "crash", played
    assert "Bot subclass" in played.failure.detail, played.failure


@pytest.mark.parametrize(
    ("manifest", "message"),
    [
        ({"language": "rust"}, "language must be one of"),
        ({"language": "python", "entry": "/etc/passwd.py"}, "inside the bundle"),
        ({"language": "python", "entry": "absent.py"}, "is not a file"),
        ({"language": "command", "argv": []}, "non-empty list"),
        ({"language": "command", "argv": ["../escape"]}, "argv[0]"),
    ],
)
def test_a_bad_manifest_is_refused(tmp_path: Path, manifest: dict, message: str) -> None:
    bundle = write_bundle(tmp_path / "bad", manifest=manifest)
    with pytest.raises(BundleError, match=message.replace("[", r"\[")):
        Seat(bundle, LIMITS)


def test_a_fifo_in_the_bundle_is_refused(tmp_path: Path) -> None:
    """Copying a FIFO would wait for a writer for ever."""
    bundle = write_bundle(tmp_path / "fifo", "x = 1\n")
    os.mkfifo(bundle / "pipe")
    with pytest.raises(BundleError, match="neither a file"):
        stage(bundle, tmp_path / "copy")


def test_no_sandbox_no_run(tmp_path: Path) -> None:
    """Where the host cannot sandbox, a seat is refused before anything of the bundle
    runs: there is no unsandboxed fallback."""
    marker = tmp_path / "ran"
    bundle = write_bundle(tmp_path / "b", f"open({str(marker)!r}, 'w').write('ran')\n")
    with pytest.raises(SandboxUnavailable, match="bubblewrap"):
        Seat(bundle, LIMITS, capability=Capability(False, "bubblewrap (bwrap) is not installed"))
    assert not marker.exists()
