"""Every citation in the project points into the repo: a clone has no reference texts beside it.

Code and tests cite ``docs/rules/<game>.md#<tag>``, ``docs/api.md`` and the other pages of
``docs/``; the design notes, rulebook digests and issue tracker the project grew from are not
shipped, so naming them leaves a reader with a dead end.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OUTSIDE = re.compile(r"\.\./shared|\b(?:RULES|API|DESIGN|STYLE)\.md\b|\b[Ii]ssue \d+")


def tracked_texts() -> dict[str, str]:
    names = subprocess.run(
        ["git", "-C", str(ROOT), "ls-files"], capture_output=True, text=True, check=True
    ).stdout.split()
    texts = {}
    for name in names:
        try:
            texts[name] = (ROOT / name).read_text(encoding="utf-8")
        except (UnicodeDecodeError, FileNotFoundError, IsADirectoryError):
            continue  # binary, or deleted in the work tree
    return texts


def test_the_scan_sees_the_code_and_the_docs() -> None:
    texts = tracked_texts()
    assert "README.md" in texts and "server/api/__init__.py" in texts
    assert any(name.startswith("docs/rules/") for name in texts)


def test_the_pattern_catches_what_it_should() -> None:
    # spelled in pieces, or this file would cite what it forbids
    for bad in (
        "see ../" + "shared/x",
        "(A" + "PI.md)",
        "DES" + "IGN.md pitfalls",
        "iss" + "ue 11",
    ):
        assert OUTSIDE.search(bad), bad
    for good in ("docs/rules/concerto.md#c17", "docs/api.md#errors", "tissue 3"):
        assert not OUTSIDE.search(good), good


def test_no_tracked_file_cites_a_text_outside_the_repo() -> None:
    hits = [
        f"{name}:{n}: {line.strip()[:120]}"
        for name, text in tracked_texts().items()
        for n, line in enumerate(text.splitlines(), 1)
        if OUTSIDE.search(line)
    ]
    assert not hits, "\n".join(hits)
