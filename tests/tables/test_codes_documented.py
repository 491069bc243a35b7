"""The codes a client can be answered with are one enum each, and the docs list exactly them:
`Refusal` (a `result`'s error) in docs/tables-services.md and docs/protocol.md, `ErrorCode`
(an `error` frame's code) in docs/protocol.md. A code added, renamed or dropped in one place
and not the other fails here."""

from __future__ import annotations

import re
from enum import StrEnum
from pathlib import Path

import pytest

from tables.realtime.protocol import ErrorCode
from tables.services import Refusal

DOCS = Path(__file__).resolve().parents[2] / "docs"


def codes_in_table(page: str, heading: str) -> set[str]:
    """The codes in the first column of the markdown table under `heading` (a row may name
    several: "`missing_field` / `unknown_field`")."""
    lines = (DOCS / page).read_text().splitlines()
    start = lines.index(heading)
    codes: set[str] = set()
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
        if first.strip() in {"code", "---"}:
            continue
        codes |= set(re.findall(r"`([a-z_]+)`", first))
    return codes


@pytest.mark.parametrize(
    ("page", "heading", "enum"),
    [
        ("tables-services.md", "## Errors (`result.error` codes)", Refusal),
        ("protocol.md", "## Refusals (`result` errors)", Refusal),
        ("protocol.md", "## Errors (`error` frames)", ErrorCode),
    ],
)
def test_the_doc_lists_exactly_the_codes_of_the_enum(
    page: str, heading: str, enum: type[StrEnum]
) -> None:
    documented = codes_in_table(page, heading)
    codes = {member.value for member in enum}
    assert documented - codes == set(), f"{page} lists codes the room never sends"
    assert codes - documented == set(), f"{page} does not list codes the room sends"
