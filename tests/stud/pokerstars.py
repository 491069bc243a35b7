"""Test support: the shared test data folder, and the room's own reader of PokerStars stud
hand histories (stud/pokerstars_in.py, which the import page uses) under the names the tests
have always used.

The text format is described in ../shared/testdata/pokerstars-stud/FORMAT.md.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from stud.pokerstars_in import (
    BRING_IN_BY_STAKES,
    STREET_NAMES,
    STREET_NUMBERS,
    ActionLine,
    Collected,
    LineKind,
    PokerStarsHand,
    Replay,
    ReplayMismatch,
    SeatLine,
    ShowdownLine,
    classify_line,
    clean_lines,
    file_pots_after_street,
    game_config,
    parse_amount,
    parse_card_tokens,
    parse_hand,
    replay_hand,
    split_hands,
    stacked_deck,
)

__all__ = [
    "BRING_IN_BY_STAKES",
    "STREET_NAMES",
    "STREET_NUMBERS",
    "TESTDATA",
    "ActionLine",
    "Collected",
    "LineKind",
    "PokerStarsHand",
    "Replay",
    "ReplayMismatch",
    "SeatLine",
    "ShowdownLine",
    "classify_line",
    "clean_lines",
    "file_pots_after_street",
    "game_config",
    "parse_amount",
    "parse_card_tokens",
    "parse_file",
    "parse_hand",
    "replay_hand",
    "shared_testdata",
    "split_hand_files",
    "split_hands",
    "stacked_deck",
]

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


def split_hand_files() -> list[Path]:
    """The 58 one-hand files, sorted by name (skips or fails like ``shared_testdata``)."""
    return sorted(shared_testdata("pokerstars-stud", "split").glob("*.txt"))


def parse_file(path: Path) -> PokerStarsHand:
    return parse_hand(path.read_text(encoding="utf-8-sig"))
