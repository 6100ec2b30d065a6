"""An artifact built once per test session, shared by the xdist workers.

pytest-xdist's documented pattern: the workers of one session share the parent of
their temporary folders; the first worker to need the artifact builds it there under
a file lock, the others wait for the lock and reuse what it built. Without xdist the
artifact is built in the session's own temporary folder (the parent is then shared
with earlier sessions, whose artifacts may be stale).
"""

from __future__ import annotations

import fcntl
import os
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

DONE = ".built"
"""Left in the folder once ``build`` returned: a failed build is tried again."""


def built_once(
    tmp_path_factory: pytest.TempPathFactory, name: str, build: Callable[[Path], None]
) -> Path:
    """The folder ``name`` that ``build(folder)`` filled, once for the whole session.

    Every fixture that asks for ``name`` gets the same folder: fixtures of the same
    name in two modules are two fixtures to pytest, computed once each.
    """
    base = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        base = base.parent  # the workers' common folder, this session's alone
    folder = base / name
    with open(base / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (folder / DONE).exists():
            shutil.rmtree(folder, ignore_errors=True)
            folder.mkdir()
            build(folder)
            (folder / DONE).touch()
    return folder
