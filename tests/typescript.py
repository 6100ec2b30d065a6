"""The TypeScript client (client_sdk/typescript) and the example bots (bots/examples), built
for the tests: ``npm ci`` in both when their lock files changed, then ``tsc`` on both; and
tests/sdk/openapi_fetch_bot.ts, a bot on openapi-fetch and the generated types alone,
compiled beside a copy of the types (``src/openapi.ts``, openapi-typescript's output for
openapi.yaml) with the package's node_modules, and nothing else of the package.

One build per change, shared by the xdist workers: they take turns under a file lock in
var/cache/typescript, and a stamp (a hash of the lock files, sources and configs) says
whether the last build is still current. Without npm the tests that need it fail, saying
so: the TypeScript client is part of what ``make test`` checks.
"""

from __future__ import annotations

import fcntl
import hashlib
import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "client_sdk" / "typescript"
EXAMPLES = ROOT / "bots" / "examples"
CACHE = ROOT / "var" / "cache" / "typescript"
TSC = PACKAGE / "node_modules" / ".bin" / "tsc"
EXAMPLE_BOT = EXAMPLES / "dist" / "random_bot.js"
"""The compiled example bot: ``node EXAMPLE_BOT --server URL --token T``."""
FETCH_BOT_SOURCE = ROOT / "tests" / "sdk" / "openapi_fetch_bot.ts"
FETCH = CACHE / "openapi-fetch"
FETCH_BOT = FETCH / "dist" / "openapi_fetch_bot.js"
"""The compiled openapi-fetch bot: ``node FETCH_BOT SERVER TOKEN OPTION_SETS_JSON``."""


def _inputs(folder: Path) -> list[Path]:
    files = [folder / "package.json", folder / "package-lock.json", folder / "tsconfig.json"]
    files += sorted(p for p in folder.glob("*.ts"))
    files += sorted(p for p in (folder / "src").glob("*.ts"))
    return [p for p in files if p.exists()]


def _digest(paths: list[Path]) -> str:
    h = hashlib.sha256()
    for path in paths:
        h.update(str(path.relative_to(ROOT)).encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()


def _run(args: list[str], cwd: Path, timeout: float = 600) -> None:
    done = subprocess.run(args, cwd=cwd, capture_output=True, text=True, timeout=timeout)
    assert done.returncode == 0, f"{' '.join(args)} in {cwd}:\n{done.stdout}\n{done.stderr}"


def npm() -> str:
    found = shutil.which("npm")
    assert found and shutil.which("node"), (
        "node and npm are needed: the TypeScript client and example bots are built with them"
    )
    return found


def build() -> None:
    """``npm ci`` (when the lock files changed) and ``tsc`` (when anything changed)."""
    npm_path = npm()
    CACHE.mkdir(parents=True, exist_ok=True)
    with open(CACHE / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        locks = [PACKAGE / "package-lock.json", EXAMPLES / "package-lock.json"]
        installed, built = CACHE / "installed", CACHE / "built"
        linked = EXAMPLES / "node_modules" / "parlour-client"
        fresh = installed.exists() and installed.read_text() == _digest(locks)
        if not (fresh and TSC.exists() and linked.exists()):
            for folder in (PACKAGE, EXAMPLES):  # the package first: the examples link to it
                _run(
                    [npm_path, "ci", "--ignore-scripts", "--no-audit", "--no-fund"]
                    + ["--prefer-offline"],  # the cache's tarballs, unless it lacks one
                    folder,
                )
            installed.write_text(_digest(locks))
            built.unlink(missing_ok=True)
        stamp = _digest(_inputs(PACKAGE) + _inputs(EXAMPLES) + [FETCH_BOT_SOURCE])
        outputs = (EXAMPLE_BOT, FETCH_BOT)
        if not built.exists() or built.read_text() != stamp or not all(map(Path.exists, outputs)):
            _run([str(TSC), "-p", "tsconfig.json"], PACKAGE)
            _run([str(TSC), "-p", "tsconfig.json"], EXAMPLES)
            _fetch_bot_folder()
            _run([str(TSC), "-p", "tsconfig.json"], FETCH)
            built.write_text(stamp)


def _fetch_bot_folder() -> None:
    """FETCH, afresh: the bot and the generated types, the examples' strict tsconfig.json,
    an ES module package.json, and the package's node_modules (linked)."""
    shutil.rmtree(FETCH, ignore_errors=True)
    FETCH.mkdir(parents=True)
    shutil.copy(PACKAGE / "src" / "openapi.ts", FETCH / "openapi.ts")
    shutil.copy(FETCH_BOT_SOURCE, FETCH / FETCH_BOT_SOURCE.name)
    shutil.copy(EXAMPLES / "tsconfig.json", FETCH / "tsconfig.json")
    (FETCH / "package.json").write_text('{"private": true, "type": "module"}\n')
    (FETCH / "node_modules").symlink_to(PACKAGE / "node_modules")
