"""Issue #16, "money as people write it": every money field staff edit in the admin reads and
writes dollars and cents ("$1.50", "1.50", "1,000.00"), is stored as integer cents, and refuses
a fraction of a cent or a negative amount with a message that says so; lists show "$1.50"."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import LedgerEntry
from accounts.money import cents_format
from tables.models import RakeEntry, RakeSchedule, RakeTier, Table
from tests.factories import PlayerFactory, StaffFactory, log_in_staff
from tests.history_hands import hold_scheduling, raked_hand
from tests.table_factories import make_table
from tests.tables.test_tables_admin import table_form

pytestmark = pytest.mark.django_db

FRACTION = "Money is counted in whole cents: 1.505 has a fraction of a cent."
NEGATIVE = "An amount cannot be negative."


@pytest.fixture
def staff() -> Client:
    client = Client()
    log_in_staff(client, StaffFactory(is_superuser=True))
    return client


def stakes(**fields: str) -> dict[str, object]:
    typed = {
        "small_bet": "1.50",
        "big_bet": "$3.00",
        "ante": "0.25",
        "bring_in": "$0.50",
        "buy_in": "$1,000.00",
    }
    typed.update(fields)
    return table_form(**typed)


def test_r_game_2_staff_type_the_stakes_in_dollars_and_cents_are_stored(staff: Client) -> None:
    response = staff.post(reverse("admin:tables_table_add"), stakes())

    assert response.status_code == 302, response.content.decode()[:3000]
    table = Table.objects.get(name="Preset table")
    assert (table.small_bet, table.big_bet, table.ante, table.bring_in, table.buy_in) == (
        150,
        300,
        25,
        50,
        100_000,
    )
    page = staff.get(reverse("admin:tables_table_change", args=[table.pk])).content.decode()
    assert 'value="1.50"' in page and 'value="1,000.00"' in page
    listing = staff.get(reverse("admin:tables_table_changelist")).content.decode()
    assert "$1.50" in listing and "$1,000.00" in listing


@pytest.mark.parametrize(("typed", "message"), [("1.505", FRACTION), ("-1", NEGATIVE)])
def test_a_fraction_of_a_cent_or_a_negative_stake_is_refused_clearly(
    staff: Client, typed: str, message: str
) -> None:
    response = staff.post(reverse("admin:tables_table_add"), stakes(small_bet=typed))

    assert response.status_code == 200
    assert message in response.content.decode()
    assert not Table.objects.filter(name="Preset table").exists()


def tier_form(**tier: str) -> dict[str, object]:
    row = {"min_players": "2", "max_players": "", "amount": "1.00", "every": "0"}
    row.update({"thresholds": "20.00, 40.00, 60.00", "cap": "$3.00"}, **tier)
    return {
        "name": "Dollar schedule",
        "min_small_bet": "$2.00",
        "max_small_bet": "1,000.00",
        "tiers-TOTAL_FORMS": 1,
        "tiers-INITIAL_FORMS": 0,
        **{f"tiers-0-{name}": value for name, value in row.items()},
    }


def test_r_rake_3_a_schedule_takes_its_thresholds_as_a_list_of_dollars(staff: Client) -> None:
    response = staff.post(reverse("admin:tables_rakeschedule_add"), tier_form())

    assert response.status_code == 302, response.content.decode()[:3000]
    schedule = RakeSchedule.objects.get(name="Dollar schedule")
    assert (schedule.min_small_bet, schedule.max_small_bet) == (200, 100_000)
    tier = RakeTier.objects.get(schedule=schedule)
    assert (tier.amount, tier.every, tier.cap, tier.thresholds) == (100, 0, 300, [2000, 4000, 6000])
    page = staff.get(reverse("admin:tables_rakeschedule_change", args=[schedule.pk]))
    body = page.content.decode()
    assert 'value="20.00, 40.00, 60.00"' in body and 'value="3.00"' in body
    assert "pot $40.00, 4 players: $2.00" in body  # the preview reads the cents back
    listing = staff.get(reverse("admin:tables_rakeschedule_changelist")).content.decode()
    assert "$1,000.00" in listing


@pytest.mark.parametrize(
    ("field", "typed", "message"),
    [
        ("amount", "1.505", FRACTION),
        ("cap", "-1", NEGATIVE),
        ("thresholds", "20.00, 1.505", f"1.505: {FRACTION}"),
        ("thresholds", "20.00, -1", f"-1: {NEGATIVE}"),
    ],
)
def test_a_tier_refuses_fractions_of_a_cent_and_negative_amounts(
    staff: Client, field: str, typed: str, message: str
) -> None:
    response = staff.post(reverse("admin:tables_rakeschedule_add"), tier_form(**{field: typed}))

    assert response.status_code == 200
    assert message in response.content.decode()
    assert not RakeSchedule.objects.filter(name="Dollar schedule").exists()


def test_staff_credit_a_wallet_in_dollars_with_thousands_and_refuse_the_rest(
    staff: Client,
) -> None:
    player = PlayerFactory()
    url = reverse("admin:accounts_player_wallet", args=[player.pk])
    form = {"direction": "credit", "category": "cash", "reason": "Deposit at the cage"}

    refused = [staff.post(url, {**form, "amount": typed}) for typed in ("1.505", "-1")]
    done = staff.post(url, {**form, "amount": "$1,000.00"})
    small = staff.post(url, {**form, "amount": "1.50"})

    assert FRACTION in refused[0].content.decode()
    assert NEGATIVE in refused[1].content.decode()
    assert done.status_code == small.status_code == 302
    assert [e.amount for e in LedgerEntry.objects.filter(player=player).order_by("id")] == [
        100_000,
        150,
    ]
    listing = staff.get(reverse("admin:accounts_player_changelist")).content.decode()
    assert "$1,001.50" in listing


def test_the_table_list_shows_small_stakes_in_dollars(staff: Client) -> None:
    table = make_table(name="Shown in dollars", small_bet=50, big_bet=100, bring_in=10)
    listing = staff.get(reverse("admin:tables_table_changelist")).content.decode()
    assert "$0.50" in listing and "$1.00" in listing
    assert staff.get(reverse("admin:tables_table_change", args=[table.pk])).status_code == 200


def test_rake_entries_and_seats_show_dollars(staff: Client, monkeypatch) -> None:
    hold_scheduling(monkeypatch)
    schedule = RakeSchedule.objects.get(name="$0.50/$1 and $1/$2")
    played = raked_hand(table=make_table(name="Raked in dollars", rake_schedule=schedule))
    entry = RakeEntry.objects.get(hand=played.hand)

    listing = staff.get(reverse("admin:tables_rakeentry_changelist")).content.decode()
    entry_page = staff.get(reverse("admin:tables_rakeentry_change", args=[entry.pk]))
    table_page = staff.get(reverse("admin:tables_table_change", args=[played.table.pk]))

    assert cents_format(entry.amount) in listing and "$1.00/$2.00" in listing
    assert entry_page.status_code == 200 and cents_format(entry.amount) in entry_page.text
    stack = played.table.seat_set.get(number=1).stack
    assert cents_format(stack) in table_page.content.decode()
