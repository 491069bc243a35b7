"""Rake, "I'm in", the waiting list and the next-hand schedule (R-RAKE-2, R-ANTE-1)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.management import call_command
from django.utils import timezone

from tables import services
from tables.models import Hand, RakeEntry, WaitingListEntry
from tables.selectors import rake_schedule_for_stakes, room_chip_totals
from tables.tasks import hand_start_next
from tests.factories import PlayerFactory, funded
from tests.table_factories import make_table, play_down, running_hand, seated_player, stacked_deck
from tests.tables.test_tables_hand_flow import ALICE_WINS

pytestmark = pytest.mark.django_db


def test_r_rake_2_the_rake_is_recorded_against_hand_table_stakes_and_time():
    """$1/$2 is raked 25c per full $5 of pot (seeded schedule); 2 x $2.50 antes + 2 x 25c."""
    schedule = rake_schedule_for_stakes(100, 200)
    assert schedule is not None
    table = make_table(ante=250, rake_schedule=schedule)
    alice = seated_player(table, seat_number=1)
    bob = seated_player(table, seat_number=2)
    services.hand_start(table_id=table.pk, deck=stacked_deck(ALICE_WINS))

    hand = play_down(table, {1: alice, 2: bob})

    entry = RakeEntry.objects.get(hand=hand)
    assert entry.amount == 25 and entry.table == table and entry.schedule == schedule
    assert (entry.small_bet, entry.big_bet, entry.players) == (100, 200, 2)
    assert room_chip_totals()["rake"] == 25
    call_command("audit_chips")


def test_r_rake_3_stakes_outside_the_seeded_ranges_have_no_schedule():
    assert rake_schedule_for_stakes(25, 50) is None
    assert rake_schedule_for_stakes(3000, 6000) is None
    assert rake_schedule_for_stakes(1500, 3000) is not None


def test_r_ante_1_a_player_without_auto_ante_who_does_not_confirm_sits_the_hand_out():
    table = make_table()
    alice = seated_player(table)
    bob = seated_player(table)
    seated_player(table, auto_ante=False)

    services.hand_start(table_id=table.pk)

    assert set(running_hand(table).players.values()) == {alice.pk, bob.pk}


def test_r_ante_1_a_player_who_confirms_im_in_is_dealt_in():
    table = make_table()
    alice = seated_player(table)
    bob = seated_player(table)
    carol = seated_player(table, auto_ante=False)

    assert services.ante_confirm(table_id=table.pk, player=carol).ok
    services.hand_start(table_id=table.pk)

    assert set(running_hand(table).players.values()) == {alice.pk, bob.pk, carol.pk}


def test_r_ante_1_players_without_auto_ante_are_asked_when_a_hand_is_scheduled():
    table = make_table()
    carol = seated_player(table, auto_ante=False)
    player = PlayerFactory()
    funded(player, 5000)

    result = services.seat_take(table_id=table.pk, player=player, buy_in=2000)

    assert [f["type"] for f in result.frames.users_json[carol.pk]] == ["ante_confirm"]
    assert any(f["type"] == "next_hand" for f in result.frames.table_json)


def test_r_game_3_the_next_hand_task_deals_only_when_due():
    table = make_table()
    seated_player(table)
    seated_player(table)
    table.refresh_from_db()
    assert hand_start_next(table.pk) == "refused"  # the pause is not over

    table.next_hand_at = timezone.now() - timedelta(seconds=1)
    table.save(update_fields=["next_hand_at"])
    assert hand_start_next(table.pk) == "applied"
    assert Hand.objects.filter(table=table, ended_at__isnull=True).exists()


def test_after_a_hand_the_next_is_scheduled_after_a_short_pause():
    table = make_table()
    alice = seated_player(table, seat_number=1)
    bob = seated_player(table, seat_number=2)
    now = timezone.now()
    services.hand_start(table_id=table.pk, deck=stacked_deck(ALICE_WINS), now=now)
    play_down(table, {1: alice, 2: bob})
    table.refresh_from_db()
    assert table.next_hand_at is not None and table.next_hand_at > now


def test_r_deal_1_the_button_moves_one_seat_clockwise():
    table = make_table()
    players = {n: seated_player(table, seat_number=n) for n in (2, 4, 7)}
    buttons = []
    for _ in range(4):
        services.hand_start(table_id=table.pk)
        hand = running_hand(table)
        buttons.append(hand.button)
        play_down(table, players)
    assert buttons == [7, 2, 4, 7]


def test_the_waiting_list_offers_a_freed_seat_to_the_first_in_line_then_the_next():
    table = make_table(seats=2)
    alice = seated_player(table)
    seated_player(table)
    carol, dave, erin = PlayerFactory(), PlayerFactory(), PlayerFactory()
    for player in (carol, dave, erin):
        funded(player, 5000)
    assert services.waiting_list_join(table_id=table.pk, player=carol).ok
    assert services.waiting_list_join(table_id=table.pk, player=dave).ok
    now = timezone.now()

    left = services.seat_leave(table_id=table.pk, player=alice, now=now)

    assert [f["type"] for f in left.frames.users_json[carol.pk]] == ["seat_offer"]
    refused = services.seat_take(table_id=table.pk, player=erin, buy_in=2000, now=now)
    assert refused.error == "seat_offered"
    carol_entry = WaitingListEntry.objects.get(player=carol)
    early = services.waiting_list_offer_expire(entry_id=carol_entry.pk, now=now)
    assert early.error == "not_due"

    lapsed = services.waiting_list_offer_expire(
        entry_id=carol_entry.pk, now=now + timedelta(seconds=61)
    )

    assert lapsed.ok and not WaitingListEntry.objects.filter(player=carol).exists()
    assert WaitingListEntry.objects.get(player=dave).offered_until is not None
    taken = services.seat_take(
        table_id=table.pk, player=dave, buy_in=2000, now=now + timedelta(seconds=62)
    )
    assert taken.ok and not WaitingListEntry.objects.filter(player=dave).exists()


def test_the_waiting_list_is_for_a_full_table():
    table = make_table()
    player = PlayerFactory()
    assert services.waiting_list_join(table_id=table.pk, player=player).error == "seats_free"


def test_a_seat_offer_whose_expiry_task_was_lost_lapses_at_the_sweep():
    """Issue #11: no outage freezes a waiting list. The offer's own task never ran (a worker
    or Redis outage); the sweep of passed deadlines lapses it and offers the next in line."""
    table = make_table(seats=2)
    alice = seated_player(table)
    seated_player(table)
    carol, dave = PlayerFactory(), PlayerFactory()
    assert services.waiting_list_join(table_id=table.pk, player=carol).ok
    assert services.waiting_list_join(table_id=table.pk, player=dave).ok
    now = timezone.now()
    assert services.seat_leave(table_id=table.pk, player=alice, now=now).ok

    services.hand_deadlines_sweep(now=now + timedelta(seconds=30))
    assert WaitingListEntry.objects.filter(player=carol).exists()  # still her time

    services.hand_deadlines_sweep(now=now + timedelta(seconds=61))

    assert not WaitingListEntry.objects.filter(player=carol).exists()
    assert WaitingListEntry.objects.get(player=dave).offered_until is not None
