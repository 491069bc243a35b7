"""Staff open tables from the stakes presets, close them, read every hand; the all-in
allowance (R-TIME-2) resets at New York midnight even when the task runs late."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.urls import reverse

from accounts.services import all_in_protection_remaining, all_in_protection_take
from accounts.tasks import reset_all_in_allowances
from tables import services
from tables.models import Table
from tables.presets import PRESETS_BY_KEY, SEED_000_PRESETS
from tests.factories import PlayerFactory, StaffFactory, log_in_staff
from tests.table_factories import make_table, play_down, seated_player, stacked_deck
from tests.tables.test_tables_hand_flow import ALICE_WINS

pytestmark = pytest.mark.django_db


def table_form(**fields: object) -> dict[str, object]:
    data: dict[str, object] = {
        "name": "Preset table",
        "game": "stud",
        "preset": "",
        "small_bet": "",
        "big_bet": "",
        "ante": "",
        "bring_in": "",
        "buy_in": "",
        "seats": 8,
        "action_clock": 10,
        "time_bank": 30,
        "heads_up_raises": "",
        "odd_chip": "high_card_by_suit",
        "rake_schedule": "",
        "seat_set-TOTAL_FORMS": 0,
        "seat_set-INITIAL_FORMS": 0,
    }
    data.update(fields)
    return data


def test_r_game_2_staff_open_a_table_from_a_preset_with_the_seeded_rake(client):
    log_in_staff(client, StaffFactory())

    response = client.post(reverse("admin:tables_table_add"), table_form(preset="003-200-400"))

    assert response.status_code == 302, response.content.decode()[:2000]
    table = Table.objects.get(name="Preset table")
    assert (table.small_bet, table.big_bet, table.ante, table.bring_in) == (200, 400, 50, 50)
    assert table.rake_schedule is not None and table.rake_schedule.min_small_bet == 200


def test_seed_000_odd_presets_are_kept_as_written_and_flagged():
    odd = [p for p in SEED_000_PRESETS if p.odd]
    assert PRESETS_BY_KEY["000-300-600"].ante == 300  # "$3 ante at $3/$6", as written
    assert {p.key for p in odd} >= {"000-300-600", "000-500-1000", "000-1000-2000"}
    assert all("ODD" in p.label for p in odd)


def test_staff_close_a_table_and_read_a_hand_with_its_events(client):
    table = make_table()
    alice = seated_player(table, seat_number=1)
    bob = seated_player(table, seat_number=2)
    services.hand_start(table_id=table.pk, deck=stacked_deck(ALICE_WINS))
    hand = play_down(table, {1: alice, 2: bob})
    log_in_staff(client, StaffFactory())

    page = client.get(reverse("admin:tables_hand_change", args=[hand.pk]))
    closed = client.post(
        reverse("admin:tables_table_changelist"),
        {"action": "close_tables", "_selected_action": [table.pk]},
    )

    assert page.status_code == 200 and b"down_cards" in page.content
    assert closed.status_code == 302
    table.refresh_from_db()
    assert not table.is_open


def test_r_time_2_the_midnight_reset_task_gives_the_allowance_back_even_run_late():
    player = PlayerFactory()
    evening = datetime(2025, 3, 10, 3, 0, tzinfo=UTC)  # 23:00 in New York on 9 March
    assert all_in_protection_take(player_id=player.pk, now=evening)
    assert all_in_protection_take(player_id=player.pk, now=evening)
    assert not all_in_protection_take(player_id=player.pk, now=evening)

    next_day = datetime(2025, 3, 10, 9, 0, tzinfo=UTC)  # 05:00 in New York: task never ran
    player.refresh_from_db()
    assert all_in_protection_remaining(player=player, now=next_day) == 2
    reset_all_in_allowances()  # runs now (later still): nothing breaks, full allowance
    player.refresh_from_db()
    assert player.all_ins_used == 0
