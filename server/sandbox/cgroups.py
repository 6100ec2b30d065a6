"""A cgroup per seat: memory, pids and CPU limits on the seat's whole process tree.

The host's controllers are found from ``/proc/self/mountinfo`` and ``/proc/self/cgroup``:
cgroup v2 where its hierarchy offers ``memory`` and ``pids`` to this process's cgroup,
else the v1 hierarchies of those names. A seat's cgroup is made under the cgroup this
process is in (v1: one per hierarchy, ``<ours>/parlour-sandbox/<seat>``), so the limits a
supervisor put on the server hold over its seats too. On v2 the cgroup they go under may
be named by ``PARLOUR_SANDBOX_CGROUP`` (a directory delegated to the server, such as a
systemd unit's with ``Delegate=yes``): v2 gives no controllers to the children of a
cgroup that has processes of its own, as the server's cgroup has.
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import time
from dataclasses import dataclass
from pathlib import Path

from .limits import Limits

NEEDED = ("memory", "pids")
"""The controllers a sandbox cannot do without: ``cpu`` only slows a spinning seat, which
its turn deadline stops anyway, so a host without it still sandboxes (and says so)."""

PARENT = "parlour-sandbox"
CFS_PERIOD_US = 100_000
ENV_V2_BASE = "PARLOUR_SANDBOX_CGROUP"


@dataclass(frozen=True)
class Controllers:
    """Where this host's seat cgroups go.

    Attributes:
        version: 1 or 2.
        bases: v1: controller name to the directory seat cgroups are made in, one per
            hierarchy; v2: ``{"": directory}``.
        cpu: whether the ``cpu`` controller is there too.
    """

    version: int
    bases: dict[str, Path]
    cpu: bool

    @property
    def names(self) -> tuple[str, ...]:
        return NEEDED + (("cpu",) if self.cpu else ())


def _mounts() -> list[tuple[str, str, str, set[str]]]:
    """(root, mount point, fstype, super options) of every cgroup mount."""
    found = []
    with open("/proc/self/mountinfo") as f:
        for line in f:
            left, _, right = line.partition(" - ")
            fields, after = left.split(), right.split()
            if len(fields) >= 5 and len(after) >= 3 and after[0] in ("cgroup", "cgroup2"):
                found.append((fields[3], fields[4], after[0], set(after[2].split(","))))
    return found


def _own_paths() -> dict[str, str]:
    """This process's cgroup per v1 controller, and ``""`` for the v2 hierarchy."""
    paths: dict[str, str] = {}
    with open("/proc/self/cgroup") as f:
        for line in f:
            _, names, path = line.rstrip("\n").split(":", 2)
            for name in names.split(",") if names else [""]:
                paths[name] = path
    return paths


def _under(mount_point: str, root: str, path: str) -> Path:
    rel = path[len(root) :] if path.startswith(root) else path
    return Path(mount_point) / rel.lstrip("/")


def find() -> tuple[Controllers | None, str]:
    """This host's controllers for seats, or ``None`` and why not."""
    try:
        mounts, own = _mounts(), _own_paths()
    except OSError as e:
        return None, f"cannot read this process's cgroups: {e}"
    for root, point, fstype, _ in mounts:
        if fstype != "cgroup2":
            continue
        base = Path(os.environ[ENV_V2_BASE]) if os.environ.get(ENV_V2_BASE) else None
        base = base or _under(point, root, own.get("", "/"))
        try:
            offered = set((base / "cgroup.controllers").read_text().split())
        except OSError:
            continue
        if set(NEEDED) <= offered:
            return Controllers(2, {"": base / PARENT}, "cpu" in offered), ""
    bases: dict[str, Path] = {}
    for root, point, fstype, options in mounts:
        for name in ("memory", "pids", "cpu"):
            if fstype == "cgroup" and name in options and name not in bases:
                bases[name] = _under(point, root, own.get(name, "/")) / PARENT
    missing = [name for name in NEEDED if name not in bases]
    if missing:
        return None, (
            f"no cgroup controller {', '.join(missing)}: neither cgroup v2 offers memory and "
            "pids to this process's cgroup nor are the v1 hierarchies mounted"
        )
    return Controllers(1, bases, "cpu" in bases), ""


def _write(path: Path, value: str) -> None:
    with open(path, "w") as f:
        f.write(value)


def _safe(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]", "_", name)[:64] or "seat"


class SeatCgroup:
    """One seat's cgroup(s), made with their limits; :meth:`remove` when the seat closes.

    Raises:
        OSError: the cgroup could not be made or limited (it is removed again first).
    """

    def __init__(self, controllers: Controllers, name: str, limits: Limits) -> None:
        self.controllers = controllers
        leaf = f"{_safe(name)}-{os.getpid()}-{os.urandom(4).hex()}"
        self.dirs = {ctl: base / leaf for ctl, base in controllers.bases.items()}
        self._oom_seen = 0
        try:
            self._make(limits)
        except OSError:
            self.remove()
            raise

    def _make(self, limits: Limits) -> None:
        quota = f"{max(1000, int(limits.cpu_share * CFS_PERIOD_US))}"
        if self.controllers.version == 2:
            (base,) = self.controllers.bases.values()
            self._enable(base.parent, base)
            cg = self.dirs[""]
            cg.mkdir()
            _write(cg / "memory.max", str(limits.memory_bytes))
            with contextlib.suppress(FileNotFoundError):  # no swap accounting
                _write(cg / "memory.swap.max", "0")
            _write(cg / "pids.max", str(limits.pids))
            if self.controllers.cpu:
                _write(cg / "cpu.max", f"{quota} {CFS_PERIOD_US}")
            return
        for ctl, cg in self.dirs.items():
            cg.parent.mkdir(exist_ok=True)
            cg.mkdir()
            if ctl == "memory":
                _write(cg / "memory.limit_in_bytes", str(limits.memory_bytes))
                with contextlib.suppress(FileNotFoundError):  # no swap accounting
                    _write(cg / "memory.memsw.limit_in_bytes", str(limits.memory_bytes))
            elif ctl == "pids":
                _write(cg / "pids.max", str(limits.pids))
            elif ctl == "cpu":
                _write(cg / "cpu.cfs_period_us", str(CFS_PERIOD_US))
                _write(cg / "cpu.cfs_quota_us", quota)

    def _enable(self, base: Path, parent: Path) -> None:
        """v2: the controllers on for ``parent`` (under ``base``) and for its children."""
        wanted = " ".join(f"+{name}" for name in self.controllers.names)
        _write(base / "cgroup.subtree_control", wanted)
        parent.mkdir(exist_ok=True)
        _write(parent / "cgroup.subtree_control", wanted)

    @property
    def procs_files(self) -> list[Path]:
        """Where a process writes its pid to join the seat (every hierarchy's)."""
        return [cg / "cgroup.procs" for cg in self.dirs.values()]

    def pids(self) -> list[int]:
        """The processes in the seat's cgroup now."""
        cg = self.dirs.get("pids", self.dirs.get(""))
        assert cg is not None
        try:
            return [int(p) for p in (cg / "cgroup.procs").read_text().split()]
        except OSError:
            return []

    def oom_kills(self) -> int:
        """Processes the kernel killed for memory since the last call."""
        cg = self.dirs.get("memory", self.dirs.get(""))
        assert cg is not None
        name = "memory.events" if self.controllers.version == 2 else "memory.oom_control"
        try:
            text = (cg / name).read_text()
        except OSError:
            return 0
        match = re.search(r"^oom_kill (\d+)$", text, re.MULTILINE)
        total = int(match.group(1)) if match else 0
        new, self._oom_seen = total - self._oom_seen, total
        return new

    def kill(self, wait: float = 2.0) -> bool:
        """SIGKILL every process in the seat; whether it emptied within ``wait`` seconds."""
        cg = self.dirs.get("")
        if cg is not None and (cg / "cgroup.kill").exists():
            with contextlib.suppress(OSError):
                _write(cg / "cgroup.kill", "1")
        deadline = time.monotonic() + wait
        while pids := self.pids():
            for pid in pids:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(pid, signal.SIGKILL)
            if time.monotonic() > deadline:
                return False
            time.sleep(0.005)
        return True

    def remove(self) -> None:
        """Remove the seat's cgroups (emptied first); the shared parent stays."""
        self.kill()
        for cg in self.dirs.values():
            for _ in range(100):  # a killed process leaves its cgroup a moment later
                try:
                    cg.rmdir()
                    break
                except FileNotFoundError:
                    break
                except OSError:
                    time.sleep(0.01)
