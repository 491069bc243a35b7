"""Test support: the shared test data folder and a parser of PokerStars stud hand histories."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

TESTDATA = Path(__file__).resolve().parents[2].parent / "shared" / "testdata"


def shared_testdata(*parts: str) -> Path:
    """A path under ../shared/testdata; skip the test when it is absent (fail when CI=true)."""
    path = TESTDATA.joinpath(*parts)
    if not path.exists():
        reason = f"shared test data not found: {path}"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(reason)
        pytest.skip(reason)
    return path
