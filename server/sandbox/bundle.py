"""A bot bundle: a directory with a ``manifest.json``, checked and copied for one seat.

Two kinds of manifest:

* ``{"language": "python", "entry": "main.py"}``: ``entry`` (a ``.py`` file of the bundle)
  defines a ``make_bot()`` function or one ``client_sdk.Bot`` subclass; the sandbox's
  adapter (:mod:`server.sandbox.adapter`) runs it.
* ``{"language": "command", "argv": ["./bot", "--fast"]}``: any program that speaks the
  JSON-lines protocol itself (docs/sandbox.md); a relative ``argv[0]`` with a slash is a
  file of the bundle, an absolute one a path inside the sandbox (``/bin/sh``), a bare
  name is looked up on the sandbox's ``PATH``.

A seat runs a copy of the bundle (:func:`stage`), made readable by the sandbox's user
and out of the submitter's reach while it runs: regular files, directories and
symbolic links only (a link is copied as a link, so it resolves inside the sandbox,
where the host's files are not), within :data:`MAX_FILES` and :data:`MAX_BYTES`.

>>> read_manifest_text('{"language": "python", "entry": "main.py"}').entry
'main.py'
>>> read_manifest_text('{"language": "python", "entry": "../x.py"}')
Traceback (most recent call last):
...
server.sandbox.bundle.BundleError: entry must be a .py file inside the bundle: '../x.py'
"""

from __future__ import annotations

import json
import os
import shutil
import stat
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

MANIFEST = "manifest.json"
MAX_MANIFEST = 64 * 1024
MAX_FILES = 10_000
MAX_BYTES = 64 * 1024 * 1024
LANGUAGES = ("python", "command")


class BundleError(ValueError):
    """A bundle the sandbox will not run: no or a bad manifest, too big, odd files."""


@dataclass(frozen=True)
class Manifest:
    """What a bundle's ``manifest.json`` says: the language and how to start it."""

    language: str
    entry: str = ""
    argv: tuple[str, ...] = ()


def _inside(name: str) -> bool:
    path = PurePosixPath(name)
    return bool(name) and not path.is_absolute() and ".." not in path.parts


def read_manifest_text(text: str) -> Manifest:
    """The manifest of ``text``, checked.

    Raises:
        BundleError: not JSON, an unknown language, a bad entry or argv.
    """
    try:
        data: Any = json.loads(text)
    except ValueError as e:
        raise BundleError(f"{MANIFEST} is not JSON: {e}") from None
    if not isinstance(data, dict):
        raise BundleError(f"{MANIFEST} must be a JSON object")
    language = data.get("language")
    if language == "python":
        entry = data.get("entry", "main.py")
        if not isinstance(entry, str) or not entry.endswith(".py") or not _inside(entry):
            raise BundleError(f"entry must be a .py file inside the bundle: {entry!r}")
        return Manifest("python", entry=entry)
    if language == "command":
        argv = data.get("argv")
        if (
            not isinstance(argv, list)
            or not argv
            or not all(isinstance(a, str) and a and "\0" not in a for a in argv)
        ):
            raise BundleError("argv must be a non-empty list of strings")
        program = argv[0]
        if "/" in program and not program.startswith("/") and not _inside(program):
            raise BundleError(
                f"argv[0] must be a file of the bundle, a path or a name: {program!r}"
            )
        return Manifest("command", argv=tuple(argv))
    raise BundleError(f"language must be one of {', '.join(LANGUAGES)}: {language!r}")


def read_manifest(bundle: Path) -> Manifest:
    """The checked manifest of the bundle directory ``bundle``.

    Raises:
        BundleError: no manifest, or a bad one; a python entry that is not a file.
    """
    path = bundle / MANIFEST
    try:
        with open(path, "rb") as f:
            raw = f.read(MAX_MANIFEST + 1)
    except OSError as e:
        raise BundleError(f"no readable {MANIFEST} in {bundle}: {e.strerror}") from None
    if len(raw) > MAX_MANIFEST:
        raise BundleError(f"{MANIFEST} is over {MAX_MANIFEST} bytes")
    manifest = read_manifest_text(raw.decode("utf-8", "replace"))
    if manifest.language == "python" and not (bundle / manifest.entry).is_file():
        raise BundleError(f"entry {manifest.entry!r} is not a file of the bundle")
    return manifest


def stage(bundle: Path, into: Path) -> Manifest:
    """Copy ``bundle`` to the new directory ``into``, readable by all and writable by
    none but its owner; hand back its manifest.

    Raises:
        BundleError: see :func:`read_manifest`; a FIFO, socket or device in the bundle;
            more than :data:`MAX_FILES` entries or :data:`MAX_BYTES` bytes.
    """
    manifest = read_manifest(bundle)
    files = size = 0
    into.mkdir()
    os.chmod(into, 0o755)  # whatever the umask: the sandbox's user reads it
    for top, dirs, names in os.walk(bundle, followlinks=False):
        rel = Path(top).relative_to(bundle)
        for name in sorted(dirs + names):
            files += 1
            if files > MAX_FILES:
                raise BundleError(f"the bundle has over {MAX_FILES} files")
            source, target = Path(top) / name, into / rel / name
            mode = os.lstat(source).st_mode
            if stat.S_ISLNK(mode):
                os.symlink(os.readlink(source), target)
            elif stat.S_ISDIR(mode):
                target.mkdir()
                os.chmod(target, 0o755)
            elif stat.S_ISREG(mode):
                size += os.lstat(source).st_size
                if size > MAX_BYTES:
                    raise BundleError(f"the bundle is over {MAX_BYTES} bytes")
                shutil.copyfile(source, target, follow_symlinks=False)
                os.chmod(target, 0o755 if mode & 0o111 else 0o644)
            else:
                raise BundleError(f"{rel / name} is neither a file, a directory nor a link")
    return manifest
