"""Whether this host can sandbox a seat, and why not: :func:`available`.

It can when bubblewrap is installed and really starts a sandbox here (user and mount
namespaces allowed, the interpreter reachable inside), ``setpriv`` is there to drop
root, and the ``memory`` and ``pids`` cgroup controllers take a seat's cgroup. Where it
cannot, :class:`~server.sandbox.seat.Seat` raises :class:`SandboxUnavailable` with the
reason: a bundle's code is never run outside a sandbox.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import threading
from dataclasses import dataclass, replace
from pathlib import Path

from . import cgroups, jail
from .limits import Limits

INSTALL_HINT = "install bubblewrap (Debian: apt-get install bubblewrap; `make sandbox` as root)"


class SandboxUnavailable(RuntimeError):
    """This host cannot sandbox a seat (the message says why); nothing was run."""


@dataclass(frozen=True)
class Capability:
    """What :func:`available` found.

    Attributes:
        ok: a seat can be sandboxed here.
        reason: why not, when not ``ok`` (else ``""``).
        bwrap: bubblewrap's path, when found.
        version: ``bwrap --version``'s answer.
        privileged: the server is root: seats run as ``nobody`` through ``setpriv``.
        setpriv: its path, when found.
        controllers: where seat cgroups go (cgroup v1 or v2), when found.
        notes: what works, but less than it might (no ``cpu`` controller).
    """

    ok: bool
    reason: str = ""
    bwrap: str | None = None
    version: str = ""
    privileged: bool = False
    setpriv: str | None = None
    controllers: cgroups.Controllers | None = None
    notes: tuple[str, ...] = ()

    def require(self) -> None:
        """Raise :class:`SandboxUnavailable` unless ``ok``."""
        if not self.ok:
            raise SandboxUnavailable(f"this host cannot sandbox bot code: {self.reason}")

    def describe(self) -> str:
        """One line for an operator."""
        if not self.ok:
            return f"sandbox: unavailable: {self.reason}"
        assert self.controllers is not None
        user = f"uid {jail.SANDBOX_UID} via setpriv" if self.privileged else "this user"
        ctl = ", ".join(self.controllers.names)
        notes = "".join(f"; {n}" for n in self.notes)
        return (
            f"sandbox: {self.version or 'bubblewrap'} at {self.bwrap}, seats as {user}, "
            f"cgroup v{self.controllers.version} ({ctl}){notes}"
        )


def _which(name: str) -> str | None:
    return shutil.which(name) or shutil.which(name, path="/usr/bin:/bin:/usr/sbin:/sbin")


def _warm_bytecode(layout: jail.Layout) -> None:
    """Compile the SDK's modules where they live, outside the sandbox: inside, they are
    read-only, and every cold start would compile them again (seconds, not tenths)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    subprocess.run(
        [sys.executable, "-c", "import client_sdk"],
        env=env, capture_output=True, timeout=120, check=False,
    )  # fmt: skip


def _trial(bwrap: str, setpriv: str | None, privileged: bool, layout: jail.Layout) -> str:
    """Start a real sandbox running the interpreter; ``""`` when it ran, else why not."""
    with tempfile.TemporaryDirectory(prefix="parlour-probe-") as tmp:
        bot = Path(tmp) / "bot"
        bot.mkdir()
        os.chmod(bot, 0o755)
        argv = jail.bwrap_argv(
            bwrap, layout=layout, bot=bot, limits=Limits(), privileged=privileged,
            setpriv=setpriv, program=[layout.python, "-S", "-B", "-c", "import os; os.getuid()"],
        )  # fmt: skip
        try:
            done = subprocess.run(argv, env={}, capture_output=True, timeout=30, check=False)
        except (OSError, subprocess.TimeoutExpired) as e:
            return f"bubblewrap did not run: {e}"
    if done.returncode != 0:
        err = done.stderr.decode(errors="replace").strip()[-300:]
        return f"bubblewrap could not start a sandbox here (exit {done.returncode}): {err}"
    return ""


def _probe() -> Capability:
    if sys.platform != "linux":
        return Capability(False, f"the sandbox needs Linux, not {sys.platform}")
    bwrap = _which("bwrap")
    if bwrap is None:
        return Capability(False, f"bubblewrap (bwrap) is not installed: {INSTALL_HINT}")
    version = subprocess.run(
        [bwrap, "--version"], capture_output=True, text=True, timeout=10, check=False
    ).stdout.strip()
    privileged = os.geteuid() == 0
    setpriv = _which("setpriv") if privileged else None
    found = Capability(False, bwrap=bwrap, version=version, privileged=privileged, setpriv=setpriv)
    if privileged and (setpriv is None or not jail._under(setpriv, jail.SYSTEM)):
        why = "setpriv (util-linux) is not installed under /usr or /bin: root cannot drop to "
        return replace(found, reason=why + f"uid {jail.SANDBOX_UID} inside the sandbox")
    controllers, why = cgroups.find()
    if controllers is None:
        return replace(found, reason=why)
    try:
        cgroups.SeatCgroup(controllers, "probe", Limits()).remove()
    except OSError as e:
        where = ", ".join(str(p) for p in controllers.bases.values())
        return replace(found, reason=f"cannot make a seat's cgroup under {where}: {e}")
    try:
        layout = jail.python_layout()
    except RuntimeError as e:
        return replace(found, reason=str(e))
    failed = _trial(bwrap, setpriv, privileged, layout)
    if failed:
        return replace(found, reason=failed, controllers=controllers)
    _warm_bytecode(layout)
    notes = () if controllers.cpu else ("no cpu controller: a seat's CPU is not capped",)
    return replace(found, ok=True, controllers=controllers, notes=notes)


_cached: Capability | None = None
_lock = threading.Lock()


def available(refresh: bool = False) -> Capability:
    """Whether this host can sandbox a seat, probed once per process (``refresh`` probes
    again). The first probe starts one sandbox and, where it may, compiles the SDK's
    modules to bytecode for the seats' cold starts."""
    global _cached
    with _lock:
        if _cached is None or refresh:
            _cached = _probe()
        return _cached
