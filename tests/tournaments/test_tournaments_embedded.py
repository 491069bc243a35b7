"""In the embedded mode (`make run`: the in-process runner, no broker), a tournament's hands
follow each other on their own: the hand's end sends the tournament's step by name, the step
schedules the deal, the tables' start task deals it. Real time, short pauses."""

from __future__ import annotations

import random
import time

import pytest

from stud import StudHand
from tables import services
from tables.models import Hand
from tests.tournaments.play_helpers import make_tournament, open_tables, passive
from tournaments.services.play import tournament_start

pytestmark = pytest.mark.django_db(transaction=True)


def _wait_for(condition, within: float) -> bool:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return False


def test_embedded_mode_a_tournament_table_deals_its_next_hand_on_its_own(settings):
    settings.TASKS_IN_PROCESS = True
    settings.NEXT_HAND_PAUSE_SECONDS = 0.3
    settings.TOURNAMENT_SEATING_SECONDS = 0.3
    tournament, players = make_tournament(2)
    by_id = {player.pk: player for player in players}
    tournament_start(tournament_id=tournament.pk, rng=random.Random(1))
    [table] = open_tables(tournament)

    assert _wait_for(lambda: Hand.objects.filter(table=table).exists(), within=10), "no deal"
    hand = Hand.objects.get(table=table)
    while hand.ended_at is None:  # the players play it out
        engine = StudHand.from_json(hand.state)
        action = passive(engine, engine.to_act, random.Random(0))
        services.hand_act(
            table_id=table.pk,
            player=by_id[int(hand.players[str(engine.to_act)])],
            expected_seq=hand.seq,
            kind=action.kind.value,
            amount=action.amount,
        )
        hand.refresh_from_db()

    assert _wait_for(lambda: Hand.objects.filter(table=table).count() == 2, within=10), (
        "the next hand was never dealt"
    )
    assert Hand.objects.filter(table=table, number=2).get().button == 2
