"""Submitted bot code, run one seat at a time in a sandbox (docs/sandbox.md).

A hosted bot is a bundle (a directory with a ``manifest.json``: :mod:`.bundle`). Each
seat of each game runs it in a long-running process of its own under bubblewrap
(:mod:`.jail`: no network, its own PID/IPC/UTS namespaces, a filesystem of the system's
libraries, the SDK and the bundle only, read-only, and a private ``/tmp``, as an
unprivileged user), in a cgroup of its own (:mod:`.cgroups`: memory, pids, CPU), and
speaks JSON lines with the server (:mod:`.seat`); Python bundles through an adapter
(:mod:`.adapter`), any other program directly.

* :func:`available` says whether this host can sandbox, and why not; a :class:`Seat`
  refuses to start where it cannot (:class:`SandboxUnavailable`): nothing runs
  unsandboxed.
* :class:`Limits`: what a seat may use.
* :class:`Seat`: one seat's process; :meth:`Seat.play` a turn, the bot's move or the
  default move with the :class:`Failure`.

Only the processes may use this package; it uses nothing of the server but the
engines' default move (``pyproject.toml``'s import contracts).
"""

from .bundle import BundleError, Manifest, read_manifest
from .limits import Limits
from .probe import Capability, SandboxUnavailable, available
from .protocol import KINDS, Failure
from .seat import Played, Reply, Seat

__all__ = [
    "KINDS",
    "BundleError",
    "Capability",
    "Failure",
    "Limits",
    "Manifest",
    "Played",
    "Reply",
    "SandboxUnavailable",
    "Seat",
    "available",
    "read_manifest",
]
