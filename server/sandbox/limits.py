"""What one seat's sandbox may use: memory, processes, CPU, output and time.

>>> Limits().turn_deadline(cold=True) > Limits().turn_deadline(cold=False)
True
>>> Limits(pids=2)
Traceback (most recent call last):
...
ValueError: pids must be at least 8 (bwrap, its init and the interpreter count): 2
"""

from __future__ import annotations

from dataclasses import dataclass

MIB = 1024 * 1024


@dataclass(frozen=True)
class Limits:
    """The bounds of one seat's process tree, enforced by the kernel where it can.

    Attributes:
        memory_bytes: the seat's memory cgroup limit (RAM, no swap; its ``/tmp`` files
            count too, being tmpfs). Past it the kernel kills a process of the seat.
        pids: the seat's pids cgroup limit: processes and threads of the whole tree,
            bubblewrap's two and the interpreter's included. A fork bomb stops here.
        cpu_share: the CPU the seat's tree may use, in cores (a CFS quota: 0.5 is half
            of one core), however many processes it forks.
        cpu_seconds: CPU seconds each process of the seat may use over its life
            (``RLIMIT_CPU``; the kernel kills it past them). A restart starts afresh.
        output_bytes: the longest reply line a turn may write (its newline excluded);
            a longer one fails the turn, unread.
        turn_seconds: the wall time from sending a turn to its whole reply line.
        cold_start_seconds: added to the first turn of each process (bubblewrap,
            the interpreter, the SDK and the bundle's own imports).
        tmp_bytes: the size of the seat's private ``/tmp``.
    """

    memory_bytes: int = 256 * MIB
    pids: int = 32
    cpu_share: float = 1.0
    cpu_seconds: int = 300
    output_bytes: int = 64 * 1024
    turn_seconds: float = 5.0
    cold_start_seconds: float = 10.0
    tmp_bytes: int = 16 * MIB

    def __post_init__(self) -> None:
        if self.memory_bytes < 16 * MIB:
            raise ValueError(f"memory_bytes must be at least 16 MiB: {self.memory_bytes}")
        if self.pids < 8:
            raise ValueError(
                f"pids must be at least 8 (bwrap, its init and the interpreter count): {self.pids}"
            )
        if not 0.01 <= self.cpu_share <= 64:
            raise ValueError(f"cpu_share must be between 0.01 and 64 cores: {self.cpu_share}")
        if self.cpu_seconds < 1:
            raise ValueError(f"cpu_seconds must be at least 1: {self.cpu_seconds}")
        if self.output_bytes < 64:
            raise ValueError(f"output_bytes must be at least 64: {self.output_bytes}")
        if self.turn_seconds <= 0 or self.cold_start_seconds < 0:
            raise ValueError("turn_seconds must be positive, cold_start_seconds not negative")
        if self.tmp_bytes < 64 * 1024:
            raise ValueError(f"tmp_bytes must be at least 64 KiB: {self.tmp_bytes}")

    def turn_deadline(self, *, cold: bool) -> float:
        """Seconds a turn may take: the first turn of a process gets the cold start too."""
        return self.turn_seconds + (self.cold_start_seconds if cold else 0.0)
