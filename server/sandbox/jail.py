"""The bubblewrap command line of one seat: what its process sees, and as whom it runs.

The sandbox's filesystem is built from nothing (bubblewrap's empty tmpfs root), not
from the host's ``/`` made read-only: the system's ``/usr`` (and the ``/bin``, ``/lib``
links of a merged-``/usr`` host), the interpreter's own prefix where it lives elsewhere,
``/etc/ld.so.cache``, and then

* ``/bot``: the seat's copy of its bundle, read-only;
* ``/sdk``: ``client_sdk`` and the site-packages it needs (``/sdk/site-N``), read-only;
* ``/sandbox/adapter.py``: the Python entry adapter, read-only;
* a private ``/tmp`` (tmpfs, ``Limits.tmp_bytes``), a fresh ``/proc`` of its own PID
  namespace and a minimal ``/dev``.

So ``/var``, ``/run``, ``/home``, ``/root``, the repository (its ``var/`` data), the
host's ``/tmp`` (and a Redis unix socket in it) and the rest of ``/etc`` are not there to
be read or connected to. The seat has its own network (only a loopback of its own), PID,
IPC, UTS and cgroup namespaces, a new session (no terminal to inject into), an empty
environment but for :func:`environment`, and dies with the server.

*As whom.* Run by root, bubblewrap keeps no user namespace (one would map the sandbox's
user to root outside, the owner of the host's files); it keeps only the capabilities to
change user, and ``setpriv`` switches to :data:`SANDBOX_UID` with no capabilities, no
bounding set and no groups before the bot's program starts. Run by another user,
bubblewrap makes a user namespace (the seat runs as that user outside, with no
capabilities) and forbids nested ones (``--disable-userns``).
"""

from __future__ import annotations

import importlib.util
import os
import sys
import sysconfig
from dataclasses import dataclass
from pathlib import Path

from .bundle import Manifest
from .limits import Limits

SANDBOX_UID = 65534
"""The user a seat runs as when the server is root: ``nobody`` on Debian."""

SYSTEM = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
ADAPTER = Path(__file__).with_name("adapter.py")
PATH = "/usr/local/bin:/usr/bin:/bin"


@dataclass(frozen=True)
class Layout:
    """The interpreter a Python bundle runs on and what must be bound for it.

    Attributes:
        python: the interpreter's real path (a virtualenv's ``python`` is a link to it).
        prefixes: host directories bound at the same path (the interpreter's prefix,
            where it is outside ``/usr``).
        sdk: the ``client_sdk`` package directory, bound at ``/sdk/client_sdk``.
        sites: site-packages directories, bound at ``/sdk/site-0``, ``/sdk/site-1``, ...
    """

    python: str
    prefixes: tuple[str, ...]
    sdk: str
    sites: tuple[str, ...]

    @property
    def pythonpath(self) -> str:
        return ":".join(["/sdk"] + [f"/sdk/site-{i}" for i in range(len(self.sites))])


def _under(path: str, roots: tuple[str, ...] | list[str]) -> bool:
    return any(path == r or path.startswith(r.rstrip("/") + "/") for r in roots)


def python_layout() -> Layout:
    """This server's own interpreter, its SDK and its site-packages, as the seats see them.

    Raises:
        RuntimeError: ``client_sdk`` is not installed.
    """
    spec = importlib.util.find_spec("client_sdk")
    if spec is None or spec.origin is None:
        raise RuntimeError("client_sdk is not installed: a Python bundle needs it")
    python = os.path.realpath(sys.executable)
    prefixes: list[str] = []
    for prefix in (sys.base_prefix, sys.base_exec_prefix, str(Path(python).parent.parent)):
        real = os.path.realpath(prefix)
        if not _under(real, list(SYSTEM) + prefixes):
            prefixes.append(real)
    sites: list[str] = []
    for key in ("purelib", "platlib"):
        site = os.path.realpath(sysconfig.get_paths()[key])
        if site not in sites and os.path.isdir(site):
            sites.append(site)
    return Layout(python, tuple(prefixes), str(Path(spec.origin).parent), tuple(sites))


def environment(layout: Layout) -> dict[str, str]:
    """The whole environment of a seat's process."""
    return {
        "PATH": PATH,
        "HOME": "/tmp",
        "TMPDIR": "/tmp",
        "LANG": "C.UTF-8",
        "PYTHONPATH": layout.pythonpath,
        "PYTHONDONTWRITEBYTECODE": "1",
        # numerical libraries start a thread per core unless told; each is a pid
        "OMP_NUM_THREADS": "1",
        "OPENBLAS_NUM_THREADS": "1",
        "MKL_NUM_THREADS": "1",
    }


class _Tree:
    """bwrap arguments that make a mount tree, each directory on the way made 0755 first
    (bubblewrap run as root would make them 0700, closed to the sandbox's user)."""

    def __init__(self) -> None:
        self.args: list[str] = []
        self.made: set[str] = {"/"}
        self.mounted: list[str] = []

    def _parents(self, dest: str) -> None:
        parts = Path(dest).parts[1:-1]
        for i in range(len(parts)):
            path = "/" + "/".join(parts[: i + 1])
            if path not in self.made and not _under(path, self.mounted):
                self.args += ["--perms", "0755", "--dir", path]
                self.made.add(path)

    def add(self, *args: str, dest: str) -> None:
        if _under(dest, self.mounted):
            return
        self._parents(dest)
        self.args += [*args, dest]
        self.mounted.append(dest)
        self.made.add(dest)

    def bind(self, source: str, dest: str) -> None:
        self.add("--ro-bind", source, dest=dest)


def mounts(layout: Layout, bot: Path, limits: Limits) -> list[str]:
    """The bwrap arguments of a seat's filesystem (see the module's docstring)."""
    tree = _Tree()
    for path in SYSTEM:
        if os.path.islink(path):
            tree.add("--symlink", os.readlink(path), dest=path)
        elif os.path.isdir(path):
            tree.bind(path, path)
    for prefix in layout.prefixes:
        tree.bind(prefix, prefix)
    tree.add("--perms", "0755", "--dir", dest="/etc")
    if os.path.exists("/etc/ld.so.cache"):
        tree.bind("/etc/ld.so.cache", "/etc/ld.so.cache")
    tree.bind(str(bot), "/bot")
    tree.bind(layout.sdk, "/sdk/client_sdk")
    for i, site in enumerate(layout.sites):
        tree.bind(site, f"/sdk/site-{i}")
    tree.bind(str(ADAPTER), "/sandbox/adapter.py")
    tree.add("--proc", dest="/proc")
    tree.add("--dev", dest="/dev")
    tree.add("--perms", "1777", "--size", str(limits.tmp_bytes), "--tmpfs", dest="/tmp")
    return tree.args


def command(manifest: Manifest, layout: Layout) -> list[str]:
    """The program a seat runs, as seen inside the sandbox."""
    if manifest.language == "python":
        # -S: no site module (no .pth files, no editable installs' finders pointing at
        # host paths); the SDK and its packages come from PYTHONPATH instead
        return [layout.python, "-S", "-B", "/sandbox/adapter.py"]
    argv = list(manifest.argv)
    if "/" in argv[0] and not argv[0].startswith("/"):
        argv[0] = str(Path("/bot") / argv[0])
    return argv


def bwrap_argv(
    bwrap: str,
    *,
    layout: Layout,
    bot: Path,
    program: list[str],
    limits: Limits,
    privileged: bool,
    setpriv: str | None,
    info_fd: int | None = None,
) -> list[str]:
    """The whole bubblewrap command line of one seat's process (see the module's docstring)."""
    argv = [bwrap, "--unshare-ipc", "--unshare-pid", "--unshare-net", "--unshare-uts"]
    argv += ["--unshare-cgroup-try", "--die-with-parent", "--new-session", "--clearenv"]
    argv += ["--hostname", "seat", "--cap-drop", "ALL"]
    if privileged:
        argv += ["--cap-add", "CAP_SETUID", "--cap-add", "CAP_SETGID", "--cap-add", "CAP_SETPCAP"]
    else:
        uid = str(SANDBOX_UID)
        argv += ["--unshare-user", "--disable-userns", "--uid", uid, "--gid", uid]
    if info_fd is not None:
        argv += ["--info-fd", str(info_fd)]
    argv += mounts(layout, bot, limits)
    for name, value in environment(layout).items():
        argv += ["--setenv", name, value]
    argv += ["--chdir", "/bot", "--"]
    if privileged:
        assert setpriv is not None
        uid = str(SANDBOX_UID)
        argv += [setpriv, f"--reuid={uid}", f"--regid={uid}", "--clear-groups"]
        argv += ["--inh-caps=-all", "--bounding-set=-all", "--no-new-privs", "--"]
    return argv + program
