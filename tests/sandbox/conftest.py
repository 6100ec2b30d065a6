"""Fixtures of the sandbox tests: hostile bundles, run in the real sandbox.

Every test here starts real bubblewrap sandboxes in real cgroups. Where the host cannot
sandbox the tests skip, but only off root: as root with apt-get (CI), ``make test``
installs bubblewrap first (``make sandbox``), and a sandbox that still cannot start
fails them instead of hiding.

``bystander``: a well-behaved seat of its own bundle, playing turns in a thread for the
whole of each test beside the hostile one; at the end of the test every one of its turns
must have been answered, right and in time.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from server.sandbox import Limits, Seat, available

from .support import LIMITS, PLAIN_BOT, VIEW, Bystander, write_bundle


@pytest.fixture(scope="session", autouse=True)
def sandbox_host() -> None:
    """Skip off root where this host cannot sandbox; fail as root with apt-get."""
    capability = available()
    if capability.ok:
        return
    if os.geteuid() == 0 and shutil.which("apt-get"):
        pytest.fail(f"{capability.describe()} (run `make sandbox` first: make test does)")
    pytest.skip(f"{capability.describe()}; not root with apt-get to install bubblewrap")


@pytest.fixture
def seat_of(tmp_path: Path) -> Iterator:
    """``seat_of(source_or_bundle_dir, **limits)``: a seat, closed at the end of the test."""
    seats: list[Seat] = []

    def make(source: str | Path, name: str = "hostile", **changes: object) -> Seat:
        bundle = source if isinstance(source, Path) else write_bundle(tmp_path / name, source)
        limits = Limits(**{**LIMITS.__dict__, **changes})  # type: ignore[arg-type]
        seat = Seat(bundle, limits, name=name)
        seats.append(seat)
        return seat

    yield make
    for seat in seats:
        seat.close()


@pytest.fixture(scope="session")
def bystander_seat(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Seat]:
    bundle = write_bundle(tmp_path_factory.mktemp("bystander"), PLAIN_BOT)
    with Seat(bundle, Limits(turn_seconds=5.0, cold_start_seconds=30.0), name="bystander") as s:
        assert s.play(VIEW).failure is None  # its cold start, before any test's clock
        yield s


@pytest.fixture
def bystander(bystander_seat: Seat) -> Iterator[Bystander]:
    """The good seat, playing for the whole test; asserted unaffected at its end."""
    with Bystander(bystander_seat) as b:
        yield b
    assert b.turns > 0, "the bystander played no turn"
    assert not b.wrong, b.wrong[:3]
    assert b.slowest < 2.0, f"the bystander's slowest turn took {b.slowest:.2f} s"
