"""Redocly's linter on ``openapi.yaml``: no problem at all.

The rules are ``redocly.yaml``'s (every rule of ``recommended-strict``, each an error) with
the exceptions, and their reasons, in ``.redocly.lint-ignore.yaml``. It catches what
openapi-core and openapi-spec-validator let through and generators then trip on: stray
keys (a description cut short by a comma in the YAML), unused or unresolved components,
operations without an ``operationId`` or a 4XX answer, tags without a description.

``@redocly/cli`` is installed once with npm under ``var/cache/redocly`` (the xdist workers
take turns under a lock); without npm these tests fail and say so.
"""

from __future__ import annotations

import fcntl
import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
REDOCLY_DIR = ROOT / "var" / "cache" / "redocly"
REDOCLY_CLI = "@redocly/cli@2.77.0"  # 1.x does not install here (Node 20)
CONFIG = ("redocly.yaml", ".redocly.lint-ignore.yaml")


@pytest.fixture(scope="session")
def redocly() -> Path:
    """The ``redocly`` command, installed under var/cache/redocly once (again when the
    version pinned here changes)."""
    command = REDOCLY_DIR / "node_modules" / ".bin" / "redocly"
    REDOCLY_DIR.mkdir(parents=True, exist_ok=True)
    with open(REDOCLY_DIR / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        installed = REDOCLY_DIR / "node_modules" / "@redocly" / "cli" / "package.json"
        version = json.loads(installed.read_text())["version"] if installed.exists() else None
        if not command.exists() or f"@redocly/cli@{version}" != REDOCLY_CLI:
            npm = shutil.which("npm")
            assert npm, "npm is not installed: the spec's lint needs it to fetch @redocly/cli"
            done = subprocess.run(
                [npm, "install", "--prefix", str(REDOCLY_DIR), "--no-audit", "--no-fund",
                 "--no-save", REDOCLY_CLI],
                capture_output=True, text=True, timeout=300,
            )  # fmt: skip
            assert done.returncode == 0, f"npm install {REDOCLY_CLI} failed:\n{done.stderr}"
    return command


def lint(redocly: Path, where: Path) -> dict[str, Any]:
    """``redocly lint openapi.yaml`` in ``where`` (with the config found there), as JSON."""
    done = subprocess.run(
        [str(redocly), "lint", "openapi.yaml", "--format=json", "--config", "redocly.yaml"],
        capture_output=True, text=True, cwd=where, timeout=120,
    )  # fmt: skip
    try:
        return json.loads(done.stdout)
    except json.JSONDecodeError:
        raise AssertionError(f"redocly lint said no JSON:\n{done.stdout}\n{done.stderr}") from None


def said(report: dict[str, Any]) -> str:
    return "\n".join(
        f"{p['severity']} {p['ruleId']}: {p['message']} at "
        f"{[loc['pointer'] for loc in p['location']]}"
        for p in report["problems"]
    )


def test_the_spec_has_no_lint_problem(redocly):
    report = lint(redocly, ROOT)
    assert report["totals"]["errors"] == 0 and report["totals"]["warnings"] == 0, said(report)
    assert report["problems"] == []
    # The exceptions listed are still needed (a stale one would hide a new problem).
    listed = sum(
        len(where)
        for rules in yaml.safe_load((ROOT / CONFIG[1]).read_text()).values()
        for where in rules.values()
    )
    assert report["totals"]["ignored"] == listed


def test_the_lint_finds_what_it_is_there_for(redocly, tmp_path):
    """The rules bite: a description cut by an unquoted comma's stray key, and a tag with
    no description, are both errors (the config's own strictness, not the defaults')."""
    for name in CONFIG:
        shutil.copy(ROOT / name, tmp_path / name)
    spec = (ROOT / "openapi.yaml").read_text(encoding="utf-8")
    cut = "      summary: The games, their variants and options (with defaults).\n"
    assert spec.count(cut) == 1
    spec = spec.replace(cut, cut + "      with defaults: true\n")
    tag = "- name: rules\n  description: the games, their variants and options\n"
    assert spec.count(tag) == 1
    spec = spec.replace(tag, "- name: rules\n")
    (tmp_path / "openapi.yaml").write_text(spec, encoding="utf-8")

    report = lint(redocly, tmp_path)
    found = {(p["ruleId"], p["severity"]) for p in report["problems"]}
    assert found == {("struct", "error"), ("tag-description", "error")}, said(report)
