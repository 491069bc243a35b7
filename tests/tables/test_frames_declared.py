"""Issue #23: the protocol is declared once (tables/realtime/frames.py) and docs/protocol.md
says what the declarations say: its "Server -> client" table lists exactly the declared
frame types, and each row names every field of its frame; the browser's JSDoc types
(static/js/table/frames.js) are the ones generated from the declarations' JSON schema."""

from __future__ import annotations

import re
from pathlib import Path

import msgspec
import pytest

from tables.realtime import frames
from tables.realtime.typedefs import typedefs_text

ROOT = Path(__file__).resolve().parents[2]
# Fields every reader knows without the row saying them: the tag, the table, the echo.
FIELDS_NOT_RESTATED = {"type", "table_id", "ref", "command"}


def protocol_rows(heading: str) -> dict[str, str]:
    """The rows of the markdown table under `heading`: each type of the first column (a row
    may name several, "`seat_offer`, `waiting_list`") -> the row's text."""
    lines = (ROOT / "docs" / "protocol.md").read_text().splitlines()
    start = lines.index(heading)
    rows: dict[str, str] = {}
    in_table = False
    for line in lines[start + 1 :]:
        if line.startswith("#"):
            break
        if not line.startswith("|"):
            if in_table:
                break
            continue
        in_table = True
        first = line.split("|")[1]
        for name in re.findall(r"`([a-z_]+)`", first):
            rows[name] = line
    return rows


def test_the_doc_lists_exactly_the_declared_frames() -> None:
    documented = set(protocol_rows("## Server -> client"))
    declared = {frames.frame_tag(frame) for frame in frames.TABLE_FRAMES}
    assert documented - declared == set(), "docs/protocol.md lists frames never declared"
    assert declared - documented == set(), "docs/protocol.md does not list declared frames"


@pytest.mark.parametrize("frame", frames.TABLE_FRAMES, ids=frames.frame_tag)
def test_the_doc_row_names_every_field_of_the_frame(frame: type[frames.Frame]) -> None:
    row = protocol_rows("## Server -> client")[frames.frame_tag(frame)]
    named = set(re.findall(r"`([a-z_]+)`", row))
    missing = set(frame.__struct_fields__) - FIELDS_NOT_RESTATED - named
    assert missing == set(), f"docs/protocol.md's `{frames.frame_tag(frame)}` row omits {missing}"


def test_a_frame_is_final_once_built() -> None:
    frame = frames.Stakes(
        table_id=1, ante=5, bring_in=10, small_bet=20, big_bet=40, dealer_only_ante=False
    )
    with pytest.raises(AttributeError):
        frame.ante = 10  # type: ignore[misc]


def test_a_frame_that_is_not_declared_does_not_validate() -> None:
    with pytest.raises(msgspec.ValidationError):
        frames.frame_check({"type": "stakes", "table_id": 1, "ante": 5})  # fields missing
    with pytest.raises(msgspec.ValidationError):
        frames.frame_check({"type": "pong", "echo": 1})  # a field never declared
    with pytest.raises(msgspec.ValidationError):
        frames.frame_check({"type": "gossip"})


def test_the_browsers_types_are_generated_from_the_declarations() -> None:
    """`manage.py frame_typedefs` writes static/js/table/frames.js; run it after changing
    tables/realtime/frames.py."""
    written = (ROOT / "static" / "js" / "table" / "frames.js").read_text()
    assert written == typedefs_text(), "static/js/table/frames.js is stale: run frame_typedefs"
