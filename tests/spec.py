"""``openapi.yaml``, read once per process for the tests that hold code to it.

The spec is large (tens of thousands of YAML nodes): PyYAML's pure-Python loader takes
over a second of CPU for it, libyaml's a tenth of that, and test modules that read it
at import time pay it in every xdist worker's collection.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

import yaml

OPENAPI = Path(__file__).resolve().parents[1] / "openapi.yaml"
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml where PyYAML has it


@functools.cache
def _document() -> Any:
    return yaml.load(OPENAPI.read_text(encoding="utf-8"), Loader=_LOADER)


def document() -> dict[str, Any]:
    """The parsed spec (a fresh deep copy: a caller may change its copy freely)."""
    import copy

    return copy.deepcopy(_document())
