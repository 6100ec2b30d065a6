"""One seat of one game played by a submitted bundle: a long-running sandboxed process.

A :class:`Seat` stages its copy of the bundle, makes its cgroup and starts its process
(:mod:`server.sandbox.jail`); each :meth:`Seat.turn` writes one line and reads one
reply line within the turn's deadline. A turn that times out, crashes, runs out of
memory, writes past the output cap or answers garbage comes back as a :class:`Failure`:
the seat's process tree is then killed and a new one started, whose first turn has the
cold-start allowance. :meth:`Seat.play` makes the default move of
:func:`server.games.record.default_move` in its place. :meth:`Seat.close` kills what is
left, reaps it and removes the cgroup and the copy.

The protocol (docs/sandbox.md): the server writes ``{"type": "turn", "view": ...}`` and
reads one line ``{"move": ...}``; ``{"error": "..."}`` says the bot raised (a failure
that keeps the process); ``{"type": "over", "view": ...}`` gets no answer.
"""

from __future__ import annotations

import contextlib
import json
import os
import selectors
import shlex
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from server.games.record import default_move

from . import jail
from .bundle import stage
from .cgroups import SeatCgroup
from .limits import Limits
from .probe import Capability, available
from .protocol import Failure, Pipes


@dataclass(frozen=True)
class Reply:
    """One turn's answer: the bot's move, or the failure; the wall time it took."""

    move: dict[str, Any] | None
    failure: Failure | None
    seconds: float
    cold: bool


@dataclass(frozen=True)
class Played:
    """The move a seat makes for a turn: the bot's, or the default one after ``failure``."""

    move: dict[str, Any]
    failure: Failure | None
    seconds: float


class Seat:
    """A bundle's bot, sandboxed, for one seat of one game (see the module's docstring).

    Args:
        bundle: the bundle directory (``manifest.json`` and its files); copied.
        limits: what the seat may use.
        name: a label for its cgroup (letters, digits, ``_.-``).
        capability: :func:`~server.sandbox.probe.available`'s answer (probed if not given).

    Raises:
        SandboxUnavailable: this host cannot sandbox (nothing is run).
        BundleError: the bundle is not one the sandbox runs.
    """

    def __init__(
        self,
        bundle: str | os.PathLike[str],
        limits: Limits | None = None,
        *,
        name: str = "seat",
        capability: Capability | None = None,
    ) -> None:
        self.capability = capability or available()
        self.capability.require()
        assert self.capability.bwrap and self.capability.controllers
        self.limits = limits or Limits()
        self.layout = jail.python_layout()
        self._lock = threading.Lock()
        self._proc: subprocess.Popen[bytes] | None = None
        self._tmp = Path(tempfile.mkdtemp(prefix="parlour-seat-"))
        self.cgroup: SeatCgroup | None = None
        try:
            self.manifest = stage(Path(bundle), self._tmp / "bot")
            self.cgroup = SeatCgroup(self.capability.controllers, name, self.limits)
        except BaseException:
            shutil.rmtree(self._tmp, ignore_errors=True)
            raise
        self.starts = 0
        self._closed = False
        self._cold = True
        self._info = -1
        self._pipes: Pipes | None = None

    # -- the process -------------------------------------------------------------------

    def _argv(self, info_fd: int) -> list[str]:
        assert self.cgroup is not None and self.capability.bwrap
        inner = jail.bwrap_argv(
            self.capability.bwrap, layout=self.layout, bot=self._tmp / "bot",
            program=jail.command(self.manifest, self.layout), limits=self.limits,
            privileged=self.capability.privileged, setpriv=self.capability.setpriv,
            info_fd=info_fd,
        )  # fmt: skip
        # the shell joins the seat's cgroups before it becomes bubblewrap, so that no
        # process of the seat ever runs outside them; no core dumps, a CPU-time bound
        joins = "".join(
            f"echo $$ > {shlex.quote(str(f))} || exit 125\n" for f in self.cgroup.procs_files
        )
        script = f'{joins}ulimit -c 0\nulimit -t {self.limits.cpu_seconds}\nexec "$@"\n'
        return ["/bin/sh", "-c", script, "sh", *inner]

    def start(self) -> None:
        """Start the seat's process now, if it has none (a turn starts one anyway)."""
        with self._lock:
            self._start()

    def _start(self) -> None:
        if self._closed:
            raise RuntimeError("the seat is closed")
        if self._proc is not None:
            return
        read, write = os.pipe()
        try:
            self._proc = subprocess.Popen(
                self._argv(write), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=subprocess.PIPE, env={}, cwd="/", start_new_session=True,
                pass_fds=(write,), bufsize=0,
            )  # fmt: skip
        except BaseException:
            os.close(read)
            raise
        finally:
            os.close(write)
        self._info = read
        stdin, stdout, stderr = self._proc.stdin, self._proc.stdout, self._proc.stderr
        assert stdin is not None and stdout is not None and stderr is not None
        self._pipes = Pipes(stdin.fileno(), stdout.fileno(), stderr.fileno())
        self.starts += 1
        self._cold = True

    def _sandbox_init(self) -> int | None:
        """The host pid of the sandbox's PID-namespace init (bwrap's ``--info-fd``)."""
        data, deadline = b"", time.monotonic() + 1.0
        while self._info >= 0 and time.monotonic() < deadline:
            ready = selectors.DefaultSelector()
            ready.register(self._info, selectors.EVENT_READ)
            if not ready.select(deadline - time.monotonic()):
                break
            chunk = os.read(self._info, 4096)
            if not chunk:
                break
            data += chunk
        with contextlib.suppress(ValueError, AttributeError):
            pid = json.loads(data).get("child-pid")
            return pid if isinstance(pid, int) else None
        return None

    def _stop(self) -> int | None:
        """Kill the seat's process tree and reap it; its exit status, if it had one."""
        proc, self._proc = self._proc, None
        if proc is None:
            return None
        if proc.poll() is None:
            # the namespace's init first: the kernel kills its whole namespace, and
            # bubblewrap, seeing its child gone, exits and is reaped here
            init = self._sandbox_init()
            if init is not None:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(init, signal.SIGKILL)
            try:
                proc.wait(timeout=2)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
        if self.cgroup is not None:
            self.cgroup.kill()
        for pipe in (proc.stdin, proc.stdout, proc.stderr):
            if pipe is not None:
                with contextlib.suppress(OSError):
                    pipe.close()
        if self._info >= 0:
            os.close(self._info)
            self._info = -1
        return proc.returncode

    def close(self) -> None:
        """Kill the seat's processes, remove its cgroup and its copy of the bundle."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            self._stop()
            if self.cgroup is not None:
                self.cgroup.remove()
            shutil.rmtree(self._tmp, ignore_errors=True)

    def __enter__(self) -> Seat:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def pid(self) -> int | None:
        """bubblewrap's pid on the host, while the seat has a process."""
        return self._proc.pid if self._proc is not None else None

    @property
    def stderr_tail(self) -> str:
        """The last bytes the current process wrote to stderr, read during turns."""
        return self._pipes.tail.decode(errors="replace") if self._pipes else ""

    # -- turns -------------------------------------------------------------------------

    def turn(self, view: Any) -> Reply:
        """Send ``view`` as a turn and read the bot's move, or why there is none."""
        with self._lock:
            self._start()
            assert self.cgroup is not None
            cold, self._cold = self._cold, False
            started = time.monotonic()
            deadline = started + self.limits.turn_deadline(cold=cold)
            self.cgroup.oom_kills()
            line = json.dumps({"type": "turn", "view": view}, separators=(",", ":")) + "\n"
            assert self._pipes is not None
            move, failure = self._pipes.exchange(line.encode(), deadline, self.limits.output_bytes)
            if failure is not None and failure.restarts:
                failure = self._restart(failure)
            return Reply(move, failure, time.monotonic() - started, cold)

    def play(self, view: Any) -> Played:
        """The move for ``view``: the bot's if it gave a legal one in time, else the
        default move of ``view["legal_moves"]`` (``default_move``), with the failure."""
        reply = self.turn(view)
        legal = view.get("legal_moves") or []
        failure = reply.failure
        if failure is None and legal and reply.move not in legal:
            failure = Failure("illegal", json.dumps(reply.move)[:200])
        if failure is None and reply.move is not None:
            return Played(reply.move, None, reply.seconds)
        return Played(default_move(legal), failure, reply.seconds)

    def game_over(self, view: Any) -> None:
        """Tell the bot the game is over (no answer is awaited; a full pipe skips it)."""
        with self._lock:
            if self._proc is None or self._pipes is None or self._proc.poll() is not None:
                return
            line = json.dumps({"type": "over", "view": view}, separators=(",", ":")) + "\n"
            self._pipes.send(line.encode())

    def _restart(self, failure: Failure) -> Failure:
        """Kill the process that failed (saying what the kernel did to it) and start the
        next, which boots while the game goes on."""
        assert self.cgroup is not None
        code = self._stop()
        if self.cgroup.oom_kills():
            failure = Failure("memory", f"over {self.limits.memory_bytes} bytes; {failure.detail}")
        elif failure.kind == "crash" and code is not None:
            failure = Failure("crash", f"exit status {code}; {failure.detail}")
        self._start()
        return failure
