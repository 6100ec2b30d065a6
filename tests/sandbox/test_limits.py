"""Bundles that hog what a host has: processes, memory, CPU; zombies and stray children.

Each is stopped by its seat's limits: the turn fails, the default move is made, the
seat's process tree is killed and restarted, the next turn is answered, and the
bystander seat playing meanwhile never noticed.
"""

from __future__ import annotations

import os
import time

from server.games.record import default_move
from server.sandbox import Seat

from .support import ATTACK, DEFAULT, LEGAL, LIMITS, VIEW, python_bot


def contained(seat: Seat, kinds: tuple[str, ...]) -> None:
    """Warm turn answered; the attack fails with one of ``kinds`` and the default move;
    the seat restarts and answers the next turn."""
    assert seat.play(VIEW).move == LEGAL[0]
    starts = seat.starts
    played = seat.play(ATTACK)
    assert played.failure is not None and played.failure.kind in kinds, played
    assert played.move == DEFAULT == default_move(LEGAL)
    assert seat.starts == starts + 1, "the seat's process was not restarted"
    after = seat.play(VIEW)
    assert after.failure is None and after.move == LEGAL[0], after


def gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    with open(f"/proc/{pid}/stat") as f:  # a zombie still has a pid: is it one?
        return f.read().rsplit(")", 1)[1].split()[0] == "Z"


def test_a_fork_bomb_stops_at_the_pids_limit(seat_of, bystander) -> None:
    seat = seat_of(
        python_bot(
            """
            while True:
                try:
                    os.fork()
                except OSError:
                    pass
            """
        )
    )
    assert seat.play(VIEW).failure is None
    assert seat.cgroup is not None
    pids = seat.cgroup.dirs["pids"] if "pids" in seat.cgroup.dirs else seat.cgroup.dirs[""]
    played = seat.play(ATTACK)
    assert played.failure is not None and played.failure.kind == "timeout", played
    assert played.move == DEFAULT
    if (pids / "pids.peak").exists():
        assert int((pids / "pids.peak").read_text()) <= LIMITS.pids
    events = (pids / "pids.events").read_text()
    assert int(events.split()[-1]) > 0, events  # forks were refused at the limit
    after = seat.play(VIEW)
    assert after.failure is None and after.move == LEGAL[0], after


def test_a_memory_hog_is_killed_by_the_memory_limit(seat_of, bystander) -> None:
    seat = seat_of(
        python_bot(
            """
            hoard = []
            while True:
                hoard.append(b"x" * (8 << 20))
            """
        )
    )
    contained(seat, ("memory",))


def test_a_cpu_spin_is_cut_at_the_turn_deadline(seat_of, bystander) -> None:
    seat = seat_of(
        python_bot(
            """
            while True:
                pass
            """
        )
    )
    started = time.monotonic()
    contained(seat, ("timeout",))
    assert time.monotonic() - started < LIMITS.turn_seconds + 15


def cpu_seconds(pids: list[int]) -> float:
    """User and system CPU seconds the processes ``pids`` used so far."""
    ticks = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        ticks += int(fields[11]) + int(fields[12])
    return ticks / os.sysconf("SC_CLK_TCK")


def test_a_background_spinner_is_held_to_its_cpu_share(seat_of, bystander) -> None:
    """Four processes spinning between turns get half a core between them, not two (on a
    busy host they get less yet: the bound is a ceiling)."""
    seat = seat_of(
        python_bot(
            """
            for _ in range(4):
                if os.fork() == 0:
                    while True:
                        pass
            """
        )
    )
    assert seat.play(ATTACK).failure is None
    assert seat.cgroup is not None and "cpu" in seat.cgroup.dirs
    quota = int((seat.cgroup.dirs["cpu"] / "cpu.cfs_quota_us").read_text())
    period = int((seat.cgroup.dirs["cpu"] / "cpu.cfs_period_us").read_text())
    assert quota / period == LIMITS.cpu_share
    pids = seat.cgroup.pids()
    started, used = time.monotonic(), cpu_seconds(pids)
    time.sleep(1.5)
    used, elapsed = cpu_seconds(pids) - used, time.monotonic() - started
    assert used <= LIMITS.cpu_share * elapsed * 1.2 + 0.1, (used, elapsed)
    assert seat.play(VIEW).failure is None  # throttled, not stopped: it still answers


def test_zombies_and_orphans_go_with_the_seat(seat_of, bystander) -> None:
    """Children never waited for, and a grandchild orphaned to the sandbox's init: the
    seat answers, and closing it leaves no process of it and no zombie of ours."""
    seat = seat_of(
        python_bot(
            """
            for _ in range(4):
                if os.fork() == 0:
                    os._exit(0)
            if os.fork() == 0:
                if os.fork() == 0:
                    time.sleep(1000)
                os._exit(0)
            time.sleep(0.1)
            """
        )
    )
    played = seat.play(ATTACK)
    assert played.failure is None and played.move == LEGAL[0], played
    assert seat.cgroup is not None
    tree = seat.cgroup.pids()
    assert len(tree) >= 4, tree  # bwrap, its init, the bot, the sleeper (zombies too)
    seat.close()
    assert all(gone(pid) for pid in tree), [p for p in tree if not gone(p)]
    ours = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if fields[0] == "Z" and int(fields[1]) == os.getpid():
                ours.append(entry)
    assert not ours, f"zombies of the test process: {ours}"
    assert not any(cg.exists() for cg in seat.cgroup.dirs.values())
