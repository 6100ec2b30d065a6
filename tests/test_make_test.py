"""``make test`` runs every static check and pytest, the checks beside pytest (``make -j2``),
so that either failing fails it (a dry run: nothing is executed but make's own recursion)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_make_test_runs_every_check_beside_pytest() -> None:
    assert shutil.which("make"), "make is needed: `make test` is how the suite runs"
    done = subprocess.run(
        ["make", "-n", "test"],  # printed, not run (the venv's set-up too, if out of date)
        cwd=ROOT, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    planned = done.stdout
    assert "-j2 checks pytest" in planned, planned
    for step in ("ruff check ", "ruff format --check ", "mypy", "lint-imports",
                 "mkdocs build --strict", "python -m pytest -n auto --dist loadfile"):  # fmt: skip
        assert step in planned, (step, planned)


def test_the_long_files_named_to_go_first_exist() -> None:
    """tests/conftest.py hands the long files out first: a renamed one would go last again."""
    from tests.conftest import LONG_FILES

    missing = [path for path in LONG_FILES if not (ROOT / path).is_file()]
    assert not missing, missing


def test_a_docs_warning_fails_the_docs_check(tmp_path: Path) -> None:
    """The strict build in ``make test`` fails on a warning (a link to a missing page): with
    ``mkdocs --quiet`` it had hidden the warning from ``--strict`` and passed."""
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "index.md").write_text("# Home\n\nSee [the rules](missing.md).\n")
    (tmp_path / "mkdocs.yml").write_text(
        f"site_name: t\ndocs_dir: {tmp_path / 'docs'}\nsite_dir: {tmp_path / 'site'}\n"
    )
    done = subprocess.run(
        ["make", "--no-print-directory", "-o", ".venv/.installed", "docscheck",
         f"MKDOCS_CONFIG={tmp_path / 'mkdocs.yml'}"],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode != 0, done.stdout
    assert "missing.md" in done.stdout and "INFO" not in done.stdout, done.stdout
