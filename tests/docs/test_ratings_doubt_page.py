"""docs/ladder.md's *How sure a rating is* prints numbers: each is worked out here from
openskill's defaults (mu 25, sigma 25/3, beta 25/6) and the model, so the page cannot
drift from what the server does."""

from __future__ import annotations

import math
import re
from pathlib import Path

from server.store.ratings import HISTORY_LIMIT
from server.tournaments import ratings as model

PAGE = Path(__file__).resolve().parents[2] / "docs" / "ladder.md"


def section() -> str:
    text = PAGE.read_text()
    start = text.index("### How sure a rating is")
    end = re.search(r"^#{2,3} ", text[start + 4 :], flags=re.M)
    assert end is not None
    return text[start : start + 4 + end.start()]


def games_until_sure(players: int) -> int:
    """Games until sigma < 25/6 with the places rotating among level players."""
    pool: dict[str, model.Rating] = {}
    ids = [f"p{i}" for i in range(players)]
    for n in range(1, 200):
        ranks = [(n + i) % players for i in range(players)]
        pool.update(model.rate_teams(pool, [[p] for p in ids], ranks))
        if not model.provisional(pool["p0"].sigma):
            return n
    raise AssertionError("never sure")


def test_the_numbers_the_page_prints():
    text = " ".join(section().split())
    above = 0.5 * (1 + math.erf(3 / math.sqrt(2)))  # P(Z > -3) = 0.99865
    assert f"**{above:.2%}**" in text
    assert "25 - 3 × 25/3 = **0**" in text and model.ordinal(model.DEFAULT) == 0
    low, high = model.interval(model.DEFAULT)  # 25 -+ 1.96 * 8.3333 = 25 -+ 16.3333
    assert f"**{low:.2f} to {high:.2f}**" in text and f"±{16.3333:.2f}" in text
    assert f"25/6 ≈ {model.SIGMA_SURE:.2f}" in text and model.MODEL.beta == model.SIGMA_SURE
    assert f"±{1.96 * 25 / 6:.2f}" in text  # 8.17, the widest interval once sure
    assert f"after **{games_until_sure(2)}** games of two" in text
    assert f"after **{games_until_sure(4)}** games of four" in text
    assert f"latest {HISTORY_LIMIT}" in text
