"""The room's logs (issue #16): with LOG_FORMAT=json one JSON object a line, each action's line
carrying its table, hand and seq; the default text lines read as a sentence."""

from __future__ import annotations

import io
import json
import logging
import logging.config
import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from pokerroom.log_format import logging_config
from tables import services
from tests.history_hands import hold_scheduling
from tests.table_factories import engine_of, make_table, running_hand, seated_player

ROOT = Path(__file__).resolve().parents[1]


@contextmanager
def action_log(log_format: str) -> Iterator[io.StringIO]:
    """The action log (logger `pokerroom.actions`) written with the room's formatter for
    `log_format`, as settings.LOGGING configures it."""
    config = logging_config(log_format, "INFO")
    formatter = logging.config.DictConfigurator(config).configure_formatter(
        config["formatters"][log_format]
    )
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(formatter)
    logger = logging.getLogger("pokerroom.actions")
    logger.addHandler(handler)
    level = logger.level
    logger.setLevel(logging.INFO)
    try:
        yield stream
    finally:
        logger.removeHandler(handler)
        logger.setLevel(level)


@pytest.mark.django_db
def test_each_action_is_a_json_line_with_its_table_hand_and_seq(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    hold_scheduling(monkeypatch)
    table = make_table()
    players = {seat: seated_player(table, seat_number=seat) for seat in (1, 2)}
    assert services.hand_start(table_id=table.pk).ok
    hand = running_hand(table)
    seat = engine_of(hand).to_act
    assert seat is not None
    other = players[1 if seat == 2 else 2]

    with action_log("json") as stream:
        applied = services.hand_act(
            table_id=table.pk,
            player=players[seat],
            expected_seq=hand.seq,
            kind="bring_in",
            amount=table.bring_in,
        )
        refused = services.hand_act(
            table_id=table.pk, player=other, expected_seq=applied.seq or 0, kind="raise", amount=1
        )

    assert applied.ok and refused.status == "refused"
    lines = [json.loads(line) for line in stream.getvalue().splitlines()]
    assert len(lines) == 2
    first, second = lines
    assert first["level"] == "INFO" and first["logger"] == "pokerroom.actions"
    assert (first["table"], first["hand"], first["seq"]) == (table.pk, hand.pk, applied.seq)
    assert (first["player"], first["action"], first["amount"]) == (
        players[seat].pk,
        "bring_in",
        table.bring_in,
    )
    assert first["outcome"] == "applied"
    assert first["message"] == (
        f"table {table.pk} hand {hand.pk} seq {applied.seq}: player {players[seat].pk}"
        f" bring_in {table.bring_in}"
    )
    assert "time" in first
    assert (second["table"], second["hand"], second["seq"]) == (table.pk, hand.pk, applied.seq)
    assert (second["outcome"], second["reason"]) == ("refused", "illegal_action")


@pytest.mark.django_db
def test_a_clock_that_runs_out_is_logged_with_its_table_hand_and_seq(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    hold_scheduling(monkeypatch)
    table = make_table()
    for seat in (1, 2):
        seated_player(table, seat_number=seat)
    assert services.hand_start(table_id=table.pk).ok
    hand = running_hand(table)
    assert hand.action_deadline is not None

    with action_log("json") as stream:
        fired = services.hand_time_out(
            hand_id=hand.pk, expected_seq=hand.seq, now=hand.action_deadline
        )

    assert fired.ok
    (line,) = [json.loads(text) for text in stream.getvalue().splitlines()]
    assert (line["table"], line["hand"], line["seq"]) == (table.pk, hand.pk, fired.seq)
    assert line["action"] == "time_out"


@pytest.mark.django_db
def test_the_default_text_line_reads_as_a_sentence(monkeypatch: pytest.MonkeyPatch) -> None:
    hold_scheduling(monkeypatch)
    table = make_table()
    players = {seat: seated_player(table, seat_number=seat) for seat in (1, 2)}
    assert services.hand_start(table_id=table.pk).ok
    hand = running_hand(table)
    seat = engine_of(hand).to_act
    assert seat is not None

    with action_log("text") as stream:
        applied = services.hand_act(
            table_id=table.pk,
            player=players[seat],
            expected_seq=hand.seq,
            kind="bring_in",
            amount=table.bring_in,
        )

    (line,) = stream.getvalue().splitlines()
    assert line.endswith(
        f" INFO pokerroom.actions: table {table.pk} hand {hand.pk} seq {applied.seq}:"
        f" player {players[seat].pk} bring_in {table.bring_in}"
    )
    assert not line.lstrip().startswith("{")


_LOG_A_LINE = """
import logging
import django
django.setup()
logging.getLogger("pokerroom.actions").info(
    "table 3 hand 12 seq 17: player 5 call 50", extra={"table": 3, "hand": 12, "seq": 17}
)
try:
    raise ValueError("a traceback, on one line")
except ValueError:
    logging.getLogger("tables").exception("it failed")
"""


def _run(log_format: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, LOG_FORMAT=log_format, DJANGO_SETTINGS_MODULE="pokerroom.settings")
    return subprocess.run(
        [sys.executable, "-c", _LOG_A_LINE],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_log_format_json_in_the_environment_makes_every_line_json() -> None:
    run = _run("json")

    assert run.returncode == 0, run.stderr
    lines = [json.loads(line) for line in run.stderr.splitlines()]
    assert [line["message"] for line in lines] == [
        "table 3 hand 12 seq 17: player 5 call 50",
        "it failed",
    ]
    assert (lines[0]["table"], lines[0]["hand"], lines[0]["seq"]) == (3, 12, 17)
    assert lines[1]["level"] == "ERROR"
    assert "ValueError: a traceback, on one line" in lines[1]["exc_info"]


def test_an_unknown_log_format_is_refused_at_start() -> None:
    run = _run("xml")

    assert run.returncode != 0
    assert "LOG_FORMAT must be 'text' or 'json', not 'xml'" in run.stderr
