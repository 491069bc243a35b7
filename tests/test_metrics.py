"""Prometheus metrics at /metrics (issue #16), read the way Prometheus reads them: scraped and
parsed after the room did something. The hand is played through the services on PostgreSQL
and Redis and committed for real, as in production (counters move only when a change
commits)."""

from __future__ import annotations

import json
import os
import re
import time
import uuid
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.core.cache import cache
from django.test import Client
from prometheus_client.parser import text_string_to_metric_families

from accounts.models import Player
from pokerroom import metrics
from pokerroom.tasks import record_ping
from stud import StudHand
from tables import services
from tables.models import RakeEntry, RakeSchedule, RakeTier, Table
from tests.consumer_helpers import TableClient
from tests.consumer_helpers import make_table as make_consumer_table
from tests.history_hands import THREE_HANDED, bettor, fold_when_asked, hold_scheduling
from tests.room_processes import celery_worker
from tests.table_factories import engine_of, make_table, running_hand, seated_player, stacked_deck

ROOT = Path(__file__).resolve().parents[1]

Samples = dict[tuple[str, frozenset[tuple[str, str]]], float]


def scrape(client: Client | None = None, **headers: str) -> Samples:
    """GET /metrics and parse it as Prometheus does: {(sample name, labels): value}."""
    response = (client or Client()).get("/metrics", headers=headers)
    assert response.status_code == 200, response.content
    assert response["Content-Type"].startswith("text/plain; version=")
    samples: Samples = {}
    for family in text_string_to_metric_families(response.content.decode()):
        for sample in family.samples:
            samples[(sample.name, frozenset(sample.labels.items()))] = sample.value
    return samples


def value(samples: Samples, name: str, **labels: str) -> float:
    return samples.get((name, frozenset(labels.items())), 0.0)


def moved(before: Samples, after: Samples, name: str, **labels: str) -> float:
    return value(after, name, **labels) - value(before, name, **labels)


def raking_table() -> Table:
    """A $1/$2 table raked $0.25 per full $5 of pot, at most $1 (a schedule of its own)."""
    schedule = RakeSchedule.objects.create(
        name=f"metrics {uuid.uuid4().hex[:8]}", min_small_bet=0, max_small_bet=10**6
    )
    RakeTier.objects.create(schedule=schedule, min_players=2, amount=25, every=500, cap=100)
    return make_table(rake_schedule=schedule)


Strategy = Callable[[Table, Player, StudHand, int], tuple[str, int]]


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_a_hand_on_postgresql_and_redis_moves_the_counters(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Hands dealt +1, each applied action counted, a refused one by its reason, a stale one,
    every act timed, the rake in cents, and the room's gauges read from the database."""
    hold_scheduling(monkeypatch)
    before = scrape()
    table = raking_table()
    players = {seat: seated_player(table, seat_number=seat) for seat in (1, 2, 3)}
    seated = scrape()

    assert services.hand_start(table_id=table.pk, deck=stacked_deck(THREE_HANDED)).ok
    hand = running_hand(table)
    in_play = scrape()
    to_act = engine_of(hand).to_act
    someone_else = players[next(seat for seat in players if seat != to_act)]
    refused = services.hand_act(
        table_id=table.pk, player=someone_else, expected_seq=hand.seq, kind="call", amount=25
    )
    assert refused.error == "illegal_action"
    stale = services.hand_act(
        table_id=table.pk, player=players[1], expected_seq=hand.seq - 1, kind="fold"
    )
    assert stale.status == "stale"

    strategies: dict[int, Strategy] = {1: bettor, 2: bettor, 3: fold_when_asked}
    applied = 0
    while hand.ended_at is None:
        engine = engine_of(hand)
        seat = engine.to_act
        assert seat is not None
        kind, amount = strategies[seat](table, players[seat], engine, seat)
        result = services.hand_act(
            table_id=table.pk, player=players[seat], expected_seq=hand.seq, kind=kind, amount=amount
        )
        assert result.ok, result.reply()
        applied += 1
        hand.refresh_from_db()
    after = scrape()

    assert applied >= 5
    assert moved(before, after, "pokerroom_hands_dealt_total", game="stud") == 1
    assert moved(before, after, "pokerroom_actions_total", outcome="applied", reason="") == applied
    assert (
        moved(before, after, "pokerroom_actions_total", outcome="refused", reason="illegal_action")
        == 1
    )
    assert moved(before, after, "pokerroom_actions_total", outcome="stale", reason="stale") == 1
    assert moved(before, after, "pokerroom_act_seconds_count") == applied + 2
    assert moved(before, after, "pokerroom_act_seconds_sum") > 0
    rake = RakeEntry.objects.get(hand=hand).amount
    assert rake > 0
    assert moved(before, after, "pokerroom_rake_cents_total", game="stud") == rake

    assert moved(before, seated, "pokerroom_open_tables") == 1
    assert moved(before, seated, "pokerroom_players_seated") == 3
    assert moved(before, seated, "pokerroom_players_connected") == 3  # just sat down
    assert moved(before, in_play, "pokerroom_hands_in_play") == 1
    assert moved(before, after, "pokerroom_hands_in_play") == 0


@pytest.mark.django_db
def test_how_late_a_clock_fired_is_measured_when_its_time_out_is_applied(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """R-TIME-1 applied 1.5 s after the deadline (the clock controlled, not waited for)."""
    hold_scheduling(monkeypatch)
    table = make_table()
    for seat in (1, 2):
        seated_player(table, seat_number=seat)
    assert services.hand_start(table_id=table.pk).ok
    hand = running_hand(table)
    assert hand.action_deadline is not None
    before = scrape()

    fired = services.hand_time_out(
        hand_id=hand.pk,
        expected_seq=hand.seq,
        now=hand.action_deadline + timedelta(seconds=1.5),
    )
    after = scrape()

    assert fired.ok, fired.reply()
    assert moved(before, after, "pokerroom_clock_late_seconds_count") == 1
    assert moved(before, after, "pokerroom_clock_late_seconds_sum") == pytest.approx(1.5)
    assert moved(before, after, "pokerroom_clock_late_seconds_bucket", le="1.0") == 0
    assert moved(before, after, "pokerroom_clock_late_seconds_bucket", le="1.5") == 1


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_websocket_frames_sent_are_counted(settings: Any) -> None:
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    table = await database_sync_to_async(make_consumer_table)()
    get = database_sync_to_async(scrape)
    before = await get()

    viewer = await TableClient.open(table.pk)
    await viewer.wait_for(lambda frame: frame["type"] == "snapshot")
    await viewer.request({"type": "ping"}, "pong")
    await viewer.communicator.disconnect()
    after = await get()

    assert moved(before, after, "pokerroom_websocket_frames_sent_total") == 2


@pytest.mark.django_db
def test_metrics_need_the_token_when_one_is_set(settings: Any) -> None:
    settings.METRICS_ENABLED = True
    settings.METRICS_TOKEN = "s3cret-scrape-token"

    assert Client().get("/metrics").status_code == 403
    wrong = Client().get("/metrics", headers={"Authorization": "Bearer guessed"})
    assert wrong.status_code == 403
    assert b"pokerroom_" not in wrong.content
    samples = scrape(Authorization="Bearer s3cret-scrape-token")
    assert ("pokerroom_open_tables", frozenset()) in samples


@pytest.mark.django_db
def test_metrics_are_not_found_when_turned_off(settings: Any) -> None:
    settings.METRICS_ENABLED = False
    settings.METRICS_TOKEN = ""

    assert Client().get("/metrics").status_code == 404


@pytest.mark.services
@pytest.mark.django_db
def test_a_real_workers_queue_lag_reaches_metrics_through_the_multiprocess_directory(
    settings: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A Celery worker process (PROMETHEUS_MULTIPROC_DIR set) measures each task's lag from
    when it was due (its ETA: countdown=1) to its start; the web process's /metrics adds up
    the worker's files."""
    settings.TASKS_IN_PROCESS = False
    queue = f"metrics-{uuid.uuid4().hex}"
    env = dict(
        os.environ,
        TASKS_RUN_BEAT="0",
        ROOM_TEST_QUEUE=queue,
        PROMETHEUS_MULTIPROC_DIR=str(tmp_path),
    )
    with celery_worker(env):
        for countdown in (None, 1):
            token = uuid.uuid4().hex
            record_ping.apply_async(args=(token,), countdown=countdown, queue=queue)
            deadline = time.monotonic() + 30
            while cache.get(f"ping:{token}") is None:
                assert time.monotonic() < deadline, "the worker never ran the task"
                time.sleep(0.02)
    monkeypatch.setattr(metrics, "MULTIPROCESS_DIR", str(tmp_path))

    samples = scrape()

    name = "pokerroom_celery_task_lag_seconds_count"
    assert value(samples, name, task="pokerroom.tasks.record_ping") == 2
    # Only the worker's figures are in that directory: this process's counters are not.
    assert value(samples, "pokerroom_hands_dealt_total", game="stud") == 0
    assert ("pokerroom_open_tables", frozenset()) in samples  # still read from the database


@pytest.mark.django_db
def test_the_sample_grafana_dashboard_asks_only_for_metrics_the_room_exposes() -> None:
    """docs/grafana-dashboard.json: every series its panels query is one /metrics gives."""
    dashboard = json.loads((ROOT / "docs" / "grafana-dashboard.json").read_text())
    queried = {
        name
        for panel in dashboard["panels"]
        for target in panel["targets"]
        for name in re.findall(r"\bpokerroom_\w+", target["expr"])
    }
    exposed = {name for name, _labels in scrape()}
    # Labelled counters show no sample before their first count: their family is in the
    # exposition's HELP lines.
    helped = set(
        re.findall(r"^# HELP (pokerroom_\w+)", Client().get("/metrics").content.decode(), re.M)
    )
    families = {f"{name}_total" for name in helped} | {f"{name}_bucket" for name in helped} | helped

    assert queried, "the dashboard queries nothing"
    assert queried <= exposed | families, queried - exposed - families
