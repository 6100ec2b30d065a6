"""A hosted bot's upload, checked and made into the one form the sandbox workers unpack.

An upload is one file, or a tar (``.tar``, ``.tar.gz``, ``.tgz``) or zip archive, sent
base64 in JSON, at most :data:`MAX_UPLOAD` bytes as sent:

* one ``.py`` file is a Python bundle of that file alone (``main.py``, with the manifest
  ``{"language": "python", "entry": "main.py"}``);
* an archive holds a bundle: ``manifest.json`` at its root (docs/sandbox.md's two kinds),
  regular files and directories only (no links, devices or FIFOs), every name inside the
  bundle, at most :data:`MAX_FILES` files and :data:`MAX_UNPACKED` bytes unpacked.

:func:`normalize` answers the bundle as a gzipped tar of those files alone, and its
SHA-256; the sandbox's own checks (``server.sandbox.bundle``) run again on it when a
seat starts. Nothing of the upload is run here.

>>> tar, digest = normalize("main.py", b"print(1)")
>>> sorted(unpack_names(tar))
['main.py', 'manifest.json']
>>> normalize("x.exe", b"")
Traceback (most recent call last):
...
server.services.errors.InvalidRequest: not a bot bundle
"""

from __future__ import annotations

import hashlib
import io
import json
import tarfile
import zipfile
from pathlib import PurePosixPath
from typing import Any

from server.services.errors import InvalidRequest

MAX_UPLOAD = 1024 * 1024
"""Bytes of an upload as sent (decoded from base64), at most."""
MAX_UNPACKED = 8 * 1024 * 1024
MAX_FILES = 500
MANIFEST = "manifest.json"
LANGUAGES = ("python", "command")


def _bad(why: str) -> InvalidRequest:
    return InvalidRequest("not a bot bundle", {"bundle": [why]})


def _inside(name: str) -> bool:
    path = PurePosixPath(name)
    return bool(name) and not path.is_absolute() and ".." not in path.parts


def check_manifest(raw: bytes) -> dict[str, Any]:
    """The manifest's object, checked as far as the sandbox's first checks go."""
    try:
        data = json.loads(raw)
    except ValueError:
        raise _bad(f"{MANIFEST} is not JSON") from None
    if not isinstance(data, dict) or data.get("language") not in LANGUAGES:
        raise _bad(f"{MANIFEST} must say a language: one of {', '.join(LANGUAGES)}")
    if data["language"] == "python":
        entry = data.get("entry", "main.py")
        if not isinstance(entry, str) or not entry.endswith(".py") or not _inside(entry):
            raise _bad("entry must be a .py file inside the bundle")
    else:
        argv = data.get("argv")
        if not isinstance(argv, list) or not argv or not all(isinstance(a, str) for a in argv):
            raise _bad("argv must be a non-empty list of strings")
    return data


class _Files:
    """The files of an upload being read: name -> (bytes, executable), within bounds."""

    def __init__(self) -> None:
        self.files: dict[str, tuple[bytes, bool]] = {}
        self.total = 0

    def add(self, name: str, data: bytes, executable: bool) -> None:
        name = name.removeprefix("./")
        if not _inside(name):
            raise _bad(f"a name outside the bundle: {name[:100]!r}")
        self.total += len(data)
        if len(self.files) >= MAX_FILES or self.total > MAX_UNPACKED:
            raise _bad(f"at most {MAX_FILES} files and {MAX_UNPACKED} bytes unpacked")
        self.files[name] = (data, executable)


def _tar(content: bytes, out: _Files) -> None:
    with tarfile.open(fileobj=io.BytesIO(content)) as tar:
        for member in tar:
            if member.isdir():
                continue
            if not member.isreg():
                raise _bad(f"{member.name[:100]!r} is not a regular file")
            if member.size > MAX_UNPACKED:
                raise _bad(f"at most {MAX_UNPACKED} bytes unpacked")
            got = tar.extractfile(member)
            out.add(member.name, got.read() if got else b"", bool(member.mode & 0o111))


def _zip(content: bytes, out: _Files) -> None:
    with zipfile.ZipFile(io.BytesIO(content)) as archive:
        for info in archive.infolist():
            if info.is_dir():
                continue
            mode = info.external_attr >> 16
            if mode & 0o170000 not in (0, 0o100000):
                raise _bad(f"{info.filename[:100]!r} is not a regular file")
            if info.file_size > MAX_UNPACKED:
                raise _bad(f"at most {MAX_UNPACKED} bytes unpacked")
            out.add(info.filename, archive.read(info), bool(mode & 0o111))


def _files(filename: str, content: bytes) -> dict[str, tuple[bytes, bool]]:
    """name -> (bytes, executable) of the upload."""
    lower = filename.lower()
    if lower.endswith(".py"):
        manifest = json.dumps({"language": "python", "entry": "main.py"}).encode()
        return {"main.py": (content, False), MANIFEST: (manifest, False)}
    out = _Files()
    if lower.endswith((".tar", ".tar.gz", ".tgz")):
        read = _tar
    elif lower.endswith(".zip"):
        read = _zip
    else:
        raise _bad("a .py file, or a .tar, .tar.gz, .tgz or .zip archive")
    try:
        read(content, out)
    except (tarfile.TarError, zipfile.BadZipFile, EOFError, OSError):
        raise _bad("the archive cannot be read") from None
    if MANIFEST not in out.files:
        raise _bad(f"no {MANIFEST} at the archive's root")
    return out.files


def normalize(filename: str, content: bytes) -> tuple[bytes, str]:
    """The bundle of an upload as a gzipped tar, and that tar's SHA-256 (hex).

    Raises:
        InvalidRequest: too large, not a ``.py`` file nor a readable archive, a link or
            device or a name outside it, too many files or bytes, no or a bad manifest.
    """
    if len(content) > MAX_UPLOAD:
        raise _bad(f"at most {MAX_UPLOAD} bytes as uploaded")
    files = _files(filename, content)
    manifest = check_manifest(files[MANIFEST][0])
    entry = manifest.get("entry", "main.py")
    if manifest["language"] == "python" and entry not in files:
        raise _bad(f"entry {entry!r} is not a file of the bundle")
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz", compresslevel=6) as tar:
        for name in sorted(files):
            data, executable = files[name]
            info = tarfile.TarInfo(name)
            info.size, info.mode, info.mtime = len(data), 0o755 if executable else 0o644, 0
            tar.addfile(info, io.BytesIO(data))
    blob = buf.getvalue()
    return blob, hashlib.sha256(blob).hexdigest()


def unpack_names(blob: bytes) -> list[str]:
    """The names of a normalized bundle's files."""
    with tarfile.open(fileobj=io.BytesIO(blob)) as tar:
        return tar.getnames()
