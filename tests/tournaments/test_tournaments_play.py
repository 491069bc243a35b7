"""A tournament on the tables, through the services, with a controlled clock: the draw
(R-TOUR-2), balancing (R-TOUR-3), the merge (R-TOUR-4), levels and breaks (R-TOUR-5),
equal deals and the dealer's ante (R-TOUR-6, R-ANTE-3), eliminations (R-TOUR-7), the
tables' own terms (R-TOUR-8), and staff's pause, resume and redraw."""

from __future__ import annotations

import json
import random
from datetime import timedelta
from typing import Any

import pytest

from stud import OddChip
from stud.tournament import LevelSpec
from tables import services
from tables.kinds import TOURNAMENT_TABLE_DEALT
from tables.models import HandEvent, Seat
from tables.services import scheduling
from tables.services.scheduling import TOURNAMENT_TABLE_BETWEEN_HANDS
from tests.factories import PlayerFactory, StaffFactory, funded
from tests.tournaments.play_helpers import (
    SEATING,
    T0,
    chips_moved,
    deal,
    deck_where,
    hand_in_play,
    hand_stakes,
    make_tournament,
    open_tables,
    play_out,
    seats_of,
    short_stacks_call,
    stakes,
    started,
    tasks_recorded,
    tournament_clock_sweep,
)
from tournaments import broadcast as tournaments_broadcast
from tournaments import tasks
from tournaments.models import (
    TournamentEntry,
    TournamentStaffAction,
    TournamentStatus,
    TournamentTable,
)
from tournaments.selectors import tournament_snapshot
from tournaments.services.clock import CLOCK_TICK, tournament_clock_tick
from tournaments.services.entries import (
    tournament_add_on,
    tournament_create,
    tournament_register,
)
from tournaments.services.play import (
    tournament_pause,
    tournament_redraw,
    tournament_resume,
    tournament_start,
)
from tournaments.services.refusals import TournamentRefusal, TournamentRefused

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("tasks_sent")]

FIRST_DEAL = T0 + SEATING


@pytest.fixture
def tasks_sent(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, tuple[Any, ...]]]:
    return tasks_recorded(monkeypatch)


def entry_of(tournament, player) -> TournamentEntry:
    return TournamentEntry.objects.get(tournament=tournament, player=player)


# --- R-TOUR-2: the draw ---------------------------------------------------------------------


def test_r_tour_2_eight_players_are_drawn_onto_two_tables_of_four_with_their_chips():
    tournament, players = started(8)

    tables = open_tables(tournament)
    assert [len(seats_of(table)) for table in tables] == [4, 4]
    seated = [seat for table in tables for seat in seats_of(table).values()]
    assert sorted(seat.player_id for seat in seated) == sorted(p.pk for p in players)
    assert all(seat.stack == 800 for seat in seated)
    assert all(sorted(seats_of(table)) == [1, 2, 3, 4] for table in tables)
    assert tournament.status == TournamentStatus.RUNNING and tournament.level == 1
    assert all(table.next_hand_at == FIRST_DEAL for table in tables)
    assert tournament.level_ends_at == FIRST_DEAL + timedelta(minutes=3)


def test_r_tour_2_seven_players_start_on_one_table():
    tournament, _ = started(7)
    [table] = open_tables(tournament)
    assert sorted(seats_of(table)) == [1, 2, 3, 4, 5, 6, 7]


def test_r_tour_2_the_draw_is_random():
    orders = set()
    for seed in range(6):
        tournament, _ = started(8, seed=seed)
        orders.add(tuple(s.player.username for s in seats_of(open_tables(tournament)[0]).values()))
    assert len(orders) > 3


def test_r_tour_2_seat_1_deals_the_first_hand():
    tournament, _ = started(8)
    for table in open_tables(tournament):
        hand = deal(table, FIRST_DEAL)
        assert hand.button == 1
        # the deal starts at seat 2 and ends with the dealer, seat 1
        assert [p["seat"] for p in hand.state["players"]] == [2, 3, 4, 1]


def test_r_tour_2_no_hand_before_the_seating_time():
    tournament, _ = started(2)
    [table] = open_tables(tournament)
    early = services.hand_start(
        table_id=table.pk, now=T0 + timedelta(seconds=5), only_when_due=True
    )
    assert early.error == "not_due"


def test_r_tour_2_too_few_players_cannot_start():
    tournament, _ = make_tournament(1)
    with pytest.raises(TournamentRefused) as refused:
        tournament_start(tournament_id=tournament.pk, now=T0)
    assert refused.value.code == TournamentRefusal.TOO_FEW
    assert "2 players are needed" in str(refused.value)
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.REGISTERING
    assert not TournamentTable.objects.filter(tournament=tournament).exists()


def test_a_tournament_starts_when_enough_players_registered():
    tournament, _ = make_tournament(3, start_when_registered=3)
    assert tournament_clock_sweep(now=T0) == 1
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.RUNNING
    assert len(seats_of(open_tables(tournament)[0])) == 3


def test_a_tournament_starts_at_its_scheduled_time():
    tournament, _ = make_tournament(4, starts_at=T0 + timedelta(minutes=5))
    assert tournament_clock_tick(tournament_id=tournament.pk, now=T0) is False
    assert tournament_clock_sweep(now=T0 + timedelta(minutes=5)) == 1
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.RUNNING


def test_r_tour_9_fewer_than_two_at_the_scheduled_start_cancels_and_refunds():
    tournament = tournament_create(
        name="Quiet night",
        staff=StaffFactory(),
        now=T0,
        preset="turbo",
        settings={"starts_at": T0 + timedelta(minutes=5)},
    )
    player = PlayerFactory()
    funded(player, 10_000)
    tournament_register(tournament_id=tournament.pk, player=player, now=T0)

    assert tournament_clock_sweep(now=T0 + timedelta(minutes=5)) == 1

    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.CANCELLED
    player.refresh_from_db()
    assert player.balance == 10_000
    assert not TournamentTable.objects.filter(tournament=tournament).exists()


# --- R-TOUR-8 and the tables' side -------------------------------------------------------


def test_r_tour_8_a_tournament_table_keeps_the_cap_heads_up_gives_the_odd_chip_left_and_no_rake():
    tournament, _ = started(2)
    [table] = open_tables(tournament)
    assert table.is_tournament
    assert table.heads_up_raises == 3
    assert table.odd_chip == OddChip.LEFT_OF_BUTTON.value
    assert table.rake_schedule is None
    assert stakes(table) == (5, 5, 10, 20)


def test_a_player_cannot_leave_take_a_seat_or_buy_chips_at_a_tournament_table():
    tournament, players = started(2)
    [table] = open_tables(tournament)
    left = services.seat_leave(table_id=table.pk, player=players[0])
    assert left.error == "tournament_table" and "tournament" in left.message
    assert Seat.objects.filter(table=table).count() == 2
    outsider = StaffFactory()
    assert services.seat_take(table_id=table.pk, player=outsider, buy_in=100).error == (
        "tournament_table"
    )
    assert services.seat_add_chips(table_id=table.pk, player=players[0], amount=100).error == (
        "tournament_table"
    )
    assert services.waiting_list_join(table_id=table.pk, player=outsider).error == (
        "tournament_table"
    )


def test_a_player_sitting_out_is_still_dealt_in():
    tournament, players = started(3)
    [table] = open_tables(tournament)
    assert services.seat_sit_out(table_id=table.pk, player=players[0]).ok
    hand = deal(table, FIRST_DEAL)
    assert str(Seat.objects.get(table=table, player=players[0]).number) in hand.players


def test_a_tournament_hand_end_hands_the_next_deal_to_the_tournament(
    tasks_sent, django_capture_on_commit_callbacks
):
    tournament, _ = started(2)
    [table] = open_tables(tournament)
    deal(table, FIRST_DEAL)
    with django_capture_on_commit_callbacks(execute=True):
        play_out(table, FIRST_DEAL, between_hands=False)
    table.refresh_from_db()
    assert table.next_hand_at is None  # the table does not schedule itself
    assert (TOURNAMENT_TABLE_BETWEEN_HANDS, (table.pk,)) in tasks_sent


def test_r_tour_1_an_add_on_bought_mid_hand_goes_on_the_seat_when_the_hand_ends():
    tournament = tournament_create(
        name="Add-on night", staff=StaffFactory(), now=T0, preset="turbo", settings={}
    )
    players = []
    for _ in range(2):
        player = PlayerFactory()
        funded(player, 10_000)
        tournament_register(tournament_id=tournament.pk, player=player, now=T0)
        players.append(player)
    tournament_start(tournament_id=tournament.pk, now=T0, rng=random.Random(1))
    [table] = open_tables(tournament)
    hand = deal(table, FIRST_DEAL)
    buyer = players[0]
    seat = Seat.objects.get(table=table, player=buyer)

    tournament_add_on(tournament_id=tournament.pk, player=buyer, now=FIRST_DEAL)

    seat.refresh_from_db()
    assert seat.stack == 800  # not in this hand's chips (R-GAME-4)
    play_out(table, FIRST_DEAL + timedelta(seconds=20))
    end = HandEvent.objects.filter(hand=hand, kind="hand_end").order_by("seq").last()
    seat.refresh_from_db()
    assert seat.stack == end.payload["stacks"][str(seat.number)] + 400


# --- R-TOUR-3: balancing ------------------------------------------------------------------


def test_r_tour_3_the_player_in_the_eliminated_seats_position_moves_before_the_next_hand():
    tournament, _ = started(9)
    long, short = open_tables(tournament)  # 5 and 4 players, seats from 1
    assert (len(seats_of(long)), len(seats_of(short))) == (5, 4)
    # At the short table the player in seat 3 is down to the ante; seat 2 has the rest.
    chips_moved(short, from_seat=3, to_seat=2, leave=5)
    busted = seats_of(short)[3].player
    deal(long, FIRST_DEAL)
    deal(short, FIRST_DEAL, deck_where(short, busted=[3]))

    play_out(short, FIRST_DEAL + timedelta(seconds=30))

    assert entry_of(tournament, busted).place == 9
    # the long table is still playing its hand: the short table waits for the mover
    assert len(seats_of(short)) == 3
    short.refresh_from_db()
    assert short.next_hand_at is None

    # Both tables' first button was seat 1, so on the next hand seat 2 deals at each. The
    # empty seat 3 is the first to the left of the short table's next button, so the player
    # first to the left of the long table's next button (seat 3) moves there.
    mover = seats_of(long)[3].player
    when = FIRST_DEAL + timedelta(seconds=60)
    long_hand = play_out(long, when)

    assert seats_of(short)[3].player == mover
    # their chips move with them: what they had when the long table's hand ended
    end = HandEvent.objects.filter(hand=long_hand, kind="hand_end").order_by("seq").last()
    assert seats_of(short)[3].stack == end.payload["stacks"]["3"]
    assert mover.pk not in {seat.player_id for seat in seats_of(long).values()}
    assert (len(seats_of(long)), len(seats_of(short))) == (4, 4)
    long.refresh_from_db()
    short.refresh_from_db()
    assert long.next_hand_at is not None and short.next_hand_at is not None
    # the mover takes the seat's obligations: first to the left of the dealer, seat 2
    hand = deal(short, short.next_hand_at)
    assert hand.button == 2 and hand.state["players"][0]["seat"] == 3


def test_acting_at_the_table_a_player_was_moved_from_is_refused_and_changes_nothing():
    tournament, _ = started(9)
    long, short = open_tables(tournament)
    chips_moved(short, from_seat=3, to_seat=2, leave=5)
    deal(long, FIRST_DEAL)
    deal(short, FIRST_DEAL, deck_where(short, busted=[3]))
    play_out(short, FIRST_DEAL + timedelta(seconds=30))
    mover = seats_of(long)[3].player
    play_out(long, FIRST_DEAL + timedelta(seconds=60))
    long.refresh_from_db()
    hand = deal(long, long.next_hand_at)

    result = services.hand_act(
        table_id=long.pk, player=mover, expected_seq=hand.seq, kind="fold", now=long.next_hand_at
    )

    assert result.error == "not_seated"
    before = hand.seq
    hand.refresh_from_db()
    assert hand.seq == before


# --- R-TOUR-4: the merge ------------------------------------------------------------------


def test_r_tour_4_at_seven_left_the_tables_merge_onto_a_new_table_with_seats_redrawn():
    tournament, _ = started(8)
    first, second = open_tables(tournament)
    chips_moved(first, from_seat=4, to_seat=1, leave=5)
    busted = seats_of(first)[4].player
    deal(first, FIRST_DEAL, deck_where(first, busted=[4]))
    deal(second, FIRST_DEAL)
    play_out(first, FIRST_DEAL + timedelta(seconds=30))

    assert entry_of(tournament, busted).place == 8
    first.refresh_from_db()
    assert first.next_hand_at is None  # it waits for the other table's hand to end

    chips_before = sum(s.stack for table in (first, second) for s in seats_of(table).values())
    play_out(second, FIRST_DEAL + timedelta(seconds=60))

    [final] = open_tables(tournament)
    assert TournamentTable.objects.get(table=final).number == 3
    assert sorted(seats_of(final)) == [1, 2, 3, 4, 5, 6, 7]
    for old in (first, second):
        old.refresh_from_db()
        assert not old.is_open and not seats_of(old)
    assert sum(s.stack for s in seats_of(final).values()) == chips_before
    final.refresh_from_db()
    assert deal(final, final.next_hand_at).button == 1


def test_r_tour_4_the_snapshot_names_the_tables_each_merged_player_left():
    """Issue #21 (12): the "moved" notice is part of the state a table page reads on load,
    not only a frame sent once: each player's line names the tables they were moved from."""
    tournament, _ = started(8)
    first, second = open_tables(tournament)
    chips_moved(first, from_seat=4, to_seat=1, leave=5)
    stayed = {
        seat.player_id: table.pk for table in (first, second) for seat in seats_of(table).values()
    }
    deal(first, FIRST_DEAL, deck_where(first, busted=[4]))
    deal(second, FIRST_DEAL)
    play_out(first, FIRST_DEAL + timedelta(seconds=30))
    play_out(second, FIRST_DEAL + timedelta(seconds=60))

    [final] = open_tables(tournament)
    standings = tournament_snapshot(tournament)["standings"]
    alive = [line for line in standings if line["table_id"] == final.pk]
    assert len(alive) == 7
    for line in alive:
        assert line["tables_left"] == [stayed[line["player_id"]]]


# --- R-TOUR-5: levels, breaks, pause ------------------------------------------------------


def test_r_tour_5_a_level_that_ends_mid_hand_applies_from_the_next_hand():
    tournament, _ = started(2)
    [table] = open_tables(tournament)
    hand = deal(table, FIRST_DEAL)
    level_end = tournament.level_ends_at

    assert tournament_clock_tick(tournament_id=tournament.pk, now=level_end)

    tournament.refresh_from_db()
    assert tournament.level == 2
    assert hand_stakes(hand) == (5, 5, 10, 20)  # the hand in play finishes at level 1
    play_out(table, level_end + timedelta(seconds=5))
    hand.refresh_from_db()
    assert hand_stakes(hand) == (5, 5, 10, 20)
    assert stakes(table) == (5, 10, 20, 40)
    table.refresh_from_db()
    assert hand_stakes(deal(table, table.next_hand_at)) == (5, 10, 20, 40)


def test_r_tour_5_a_table_between_hands_when_the_level_ends_deals_at_the_new_level():
    tournament, _ = started(2)
    [table] = open_tables(tournament)
    deal(table, FIRST_DEAL)
    play_out(table, FIRST_DEAL + timedelta(seconds=20))
    table.refresh_from_db()
    scheduled = table.next_hand_at

    tournament_clock_tick(tournament_id=tournament.pk, now=tournament.level_ends_at)

    assert stakes(table) == (5, 10, 20, 40)
    assert hand_stakes(deal(table, max(scheduled, tournament.level_ends_at))) == (5, 10, 20, 40)


def test_r_tour_5_the_rooms_clock_sweep_sends_a_level_end_at_its_time_then_applies_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """DESIGN.md "Time": the level's end is a deadline of the room's one clock sweep: a sweep
    before it sends `clock_tick` at its exact time; a sweep after it applies it."""
    tournament, _ = started(2)
    [table] = open_tables(tournament)
    deal(table, FIRST_DEAL)
    level_end = tournament.level_ends_at
    sent: list[tuple[str, tuple[Any, ...], Any]] = []
    monkeypatch.setattr(
        scheduling,
        "task_send_at",
        lambda name, args, *, eta: sent.append((name, tuple(args), eta)),
    )

    services.hand_deadlines_sweep(now=level_end - timedelta(seconds=1))

    assert (CLOCK_TICK, (tournament.pk,), level_end) in sent
    tournament.refresh_from_db()
    assert tournament.level == 1

    services.hand_deadlines_sweep(now=level_end)

    tournament.refresh_from_db()
    assert tournament.level == 2


def test_a_tournament_table_whose_step_was_lost_gets_it_from_the_clock_sweep() -> None:
    """The step between hands is sent when a hand ends; lost, the table would never deal
    again: the room's clock sweep finds it idle and runs the step (its next deal scheduled)."""
    tournament, _ = started(3)
    [table] = open_tables(tournament)
    deal(table, FIRST_DEAL)
    ended = FIRST_DEAL + timedelta(seconds=20)
    play_out(table, ended, between_hands=False)  # the step's task lost
    table.refresh_from_db()
    assert table.next_hand_at is None and hand_in_play(table) is None

    assert tournament_clock_sweep(now=ended + timedelta(seconds=1)) == 1

    table.refresh_from_db()
    assert table.next_hand_at is not None


BREAK_AFTER_1 = (
    LevelSpec(1, 5, 5, 10, 20, minutes=3, break_minutes=1),
    LevelSpec(2, 5, 10, 20, 40, minutes=3),
)


def test_r_tour_5_no_new_hand_starts_during_a_break_and_the_next_level_follows_it():
    tournament, _ = started(3, levels=BREAK_AFTER_1)
    [table] = open_tables(tournament)
    deal(table, FIRST_DEAL)
    level_end = tournament.level_ends_at

    tournament_clock_tick(tournament_id=tournament.pk, now=level_end)

    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.ON_BREAK
    assert tournament.break_ends_at == level_end + timedelta(minutes=1)
    assert tournament.level_ends_at is None  # the timer stops
    play_out(table, level_end + timedelta(seconds=10))  # the hand in play finishes
    table.refresh_from_db()
    assert table.next_hand_at is None
    assert tournament_clock_sweep(now=level_end + timedelta(seconds=30)) == 0
    assert hand_in_play(table) is None

    tournament_clock_sweep(now=tournament.break_ends_at)

    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.RUNNING and tournament.level == 2
    table.refresh_from_db()
    assert table.next_hand_at is not None
    assert hand_stakes(deal(table, table.next_hand_at)) == (5, 10, 20, 40)


def test_r_tour_5_staff_pause_stops_the_clock_and_the_deals_and_resume_goes_on():
    tournament, _ = started(3)
    [table] = open_tables(tournament)
    staff = StaffFactory()
    deal(table, FIRST_DEAL)
    paused_at = FIRST_DEAL + timedelta(minutes=1)

    tournament_pause(tournament_id=tournament.pk, staff=staff, now=paused_at)

    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.PAUSED
    assert tournament.clock_remaining_ms == 120_000
    play_out(table, paused_at + timedelta(seconds=10))  # the hand in play finishes
    table.refresh_from_db()
    assert table.next_hand_at is None
    much_later = paused_at + timedelta(minutes=30)
    tournament_clock_sweep(now=much_later)
    tournament.refresh_from_db()
    assert tournament.level == 1 and hand_in_play(table) is None
    with pytest.raises(TournamentRefused):
        tournament_pause(tournament_id=tournament.pk, staff=staff, now=much_later)

    tournament_resume(tournament_id=tournament.pk, staff=staff, now=much_later)

    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.RUNNING
    assert tournament.level_ends_at == much_later + timedelta(minutes=2)
    table.refresh_from_db()
    assert table.next_hand_at is not None
    actions = list(TournamentStaffAction.objects.filter(tournament=tournament))
    assert [a.action for a in actions] == ["pause", "resume"]
    assert all(a.staff == staff for a in actions)


def test_a_break_paused_keeps_what_was_left_of_it():
    tournament, _ = started(2, levels=BREAK_AFTER_1)
    staff = StaffFactory()
    tournament_clock_tick(tournament_id=tournament.pk, now=tournament.level_ends_at)
    tournament.refresh_from_db()
    break_end = tournament.break_ends_at
    tournament_pause(
        tournament_id=tournament.pk, staff=staff, now=break_end - timedelta(seconds=20)
    )
    later = break_end + timedelta(minutes=10)
    tournament_resume(tournament_id=tournament.pk, staff=staff, now=later)
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.ON_BREAK
    assert tournament.break_ends_at == later + timedelta(seconds=20)


# --- R-TOUR-6 / R-ANTE-3: equal deals, the dealer's ante ------------------------------------

EQUAL_DEALS_FIRST = (
    LevelSpec(1, 25, 10, 25, 50, minutes=3, dealer_only_ante=True, equal_deals=True),
    LevelSpec(2, 10, 15, 30, 60, minutes=3),
)


def test_r_ante_3_on_a_dealer_only_level_only_the_dealer_antes():
    tournament, _ = started(3, levels=EQUAL_DEALS_FIRST)
    [table] = open_tables(tournament)
    hand = deal(table, FIRST_DEAL)
    [antes] = HandEvent.objects.filter(hand=hand, kind="antes")
    assert [(post["seat"], post["amount"]) for post in antes.payload["posts"]] == [(1, 25)]


def test_r_tour_6_an_equal_deals_level_ends_when_every_player_has_dealt_the_same():
    tournament, _ = started(3, levels=EQUAL_DEALS_FIRST)
    [table] = open_tables(tournament)
    first = deal(table, FIRST_DEAL)  # seat 1 deals
    tournament_clock_tick(tournament_id=tournament.pk, now=tournament.level_ends_at)
    tournament.refresh_from_db()
    assert tournament.level_timer_expired and tournament.level == 1
    when = tournament.level_ends_at + timedelta(seconds=5)
    play_out(table, when)
    table.refresh_from_db()
    assert stakes(table) == (25, 10, 25, 50)  # seats 2 and 3 have not dealt yet

    second = deal(table, table.next_hand_at)  # seat 2 deals
    play_out(table, table.next_hand_at + timedelta(seconds=5))
    table.refresh_from_db()
    third = deal(table, table.next_hand_at)  # seat 3 deals: now everyone has dealt once
    assert [h.button for h in (first, second, third)] == [1, 2, 3]
    assert hand_stakes(third) == (25, 10, 25, 50)
    play_out(table, table.next_hand_at + timedelta(seconds=5))

    tournament.refresh_from_db()
    assert tournament.level == 2 and not tournament.level_timer_expired
    table.refresh_from_db()
    assert hand_stakes(deal(table, table.next_hand_at)) == (10, 15, 30, 60)


def test_r_tour_6_a_table_done_with_equal_deals_plays_on_and_the_clock_waits_for_the_other():
    tournament, _ = started(8, levels=EQUAL_DEALS_FIRST)
    first, second = open_tables(tournament)
    deal(first, FIRST_DEAL)
    deal(second, FIRST_DEAL)
    expired = tournament.level_ends_at
    tournament_clock_tick(tournament_id=tournament.pk, now=expired)
    when = expired + timedelta(seconds=5)
    for _ in range(3):  # the first table: seats 1, 2, 3 and 4 have dealt once each
        play_out(first, when)
        first.refresh_from_db()
        when = first.next_hand_at
        deal(first, when)
    play_out(first, when)

    assert TournamentTable.objects.get(table=first).level == 2
    assert stakes(first) == (10, 15, 30, 60)  # no break follows: it plays on at level 2
    first.refresh_from_db()
    assert first.next_hand_at is not None
    tournament.refresh_from_db()
    assert tournament.level == 1 and tournament.level_timer_expired
    assert stakes(second) == (25, 10, 25, 50)

    for _ in range(3):
        play_out(second, when)
        second.refresh_from_db()
        when = second.next_hand_at
        deal(second, when)
    play_out(second, when)

    tournament.refresh_from_db()
    assert tournament.level == 2 and not tournament.level_timer_expired
    assert tournament.level_ends_at == when + timedelta(minutes=3)
    assert stakes(second) == (10, 15, 30, 60)


# --- R-TOUR-7: eliminations ---------------------------------------------------------------


def test_r_tour_7_players_out_at_both_tables_at_once_place_by_chips_and_equal_chips_tie():
    tournament, _ = started(10)
    first, second = open_tables(tournament)  # 5 and 5
    chips_moved(first, from_seat=2, to_seat=1, leave=5)
    chips_moved(first, from_seat=3, to_seat=1, leave=5)
    chips_moved(second, from_seat=2, to_seat=1, leave=10)
    a, b = seats_of(first)[2].player, seats_of(first)[3].player
    c = seats_of(second)[2].player
    deal(first, FIRST_DEAL, deck_where(first, busted=[2, 3]))
    deal(second, FIRST_DEAL, deck_where(second, busted=[2], policy=short_stacks_call))
    when = FIRST_DEAL + timedelta(seconds=30)
    play_out(first, when, between_hands=False)
    play_out(second, when, short_stacks_call)  # both hands ended: one step places all three

    assert entry_of(tournament, a).place == entry_of(tournament, b).place == 9
    assert entry_of(tournament, c).place == 8
    assert entry_of(tournament, a).chips_at_hand_start == 5
    assert entry_of(tournament, c).eliminated_at == when


def test_r_tour_7_hands_of_two_tables_ending_at_the_same_instant_place_their_players_together():
    tournament, _ = started(10)
    first, second = open_tables(tournament)
    chips_moved(first, from_seat=2, to_seat=1, leave=10)
    chips_moved(second, from_seat=2, to_seat=1, leave=5)
    richer, poorer = seats_of(first)[2].player, seats_of(second)[2].player
    deal(first, FIRST_DEAL, deck_where(first, busted=[2], policy=short_stacks_call))
    deal(second, FIRST_DEAL, deck_where(second, busted=[2]))
    when = FIRST_DEAL + timedelta(seconds=30)
    play_out(first, when, short_stacks_call)  # its step runs before the other hand ends
    assert entry_of(tournament, richer).place == 10

    play_out(second, when)  # ends at the same instant: the two are placed together

    assert entry_of(tournament, poorer).place == 10
    assert entry_of(tournament, richer).place == 9


# --- staff --------------------------------------------------------------------------------


def test_staff_redraw_before_the_first_hand_draws_every_seat_again():
    tournament, players = started(8, seed=3)
    staff = StaffFactory()
    before = {
        (t.pk, n): s.player_id for t in open_tables(tournament) for n, s in seats_of(t).items()
    }

    tournament_redraw(tournament_id=tournament.pk, staff=staff, now=T0, rng=random.Random(99))

    after = {
        (t.pk, n): s.player_id for t in open_tables(tournament) for n, s in seats_of(t).items()
    }
    assert after != before and sorted(after.values()) == sorted(p.pk for p in players)
    assert TournamentStaffAction.objects.get(tournament=tournament).action == "redraw"


def test_staff_redraw_after_the_first_hand_is_refused():
    tournament, _ = started(2)
    [table] = open_tables(tournament)
    deal(table, FIRST_DEAL)
    with pytest.raises(TournamentRefused) as refused:
        tournament_redraw(tournament_id=tournament.pk, staff=StaffFactory(), now=FIRST_DEAL)
    assert "first hand" in str(refused.value)
    assert not TournamentStaffAction.objects.filter(tournament=tournament).exists()


def test_staff_actions_on_a_finished_tournament_are_refused():
    tournament, _ = started(2)
    tournament.status = TournamentStatus.FINISHED
    tournament.save(update_fields=["status"])
    staff = StaffFactory()
    for action in (tournament_pause, tournament_resume, tournament_redraw, tournament_start):
        with pytest.raises(TournamentRefused) as refused:
            action(tournament_id=tournament.pk, staff=staff, now=FIRST_DEAL)
        assert refused.value.code == TournamentRefusal.OVER
        assert "finished" in str(refused.value)
    assert not TournamentStaffAction.objects.filter(tournament=tournament).exists()


def test_r_tour_1_the_add_on_stays_open_after_the_break_until_the_levels_first_hand_is_dealt():
    """Issue #21 (9): the tables' level is raised at the break's end, before the pause to the
    next deal; the add-on closed then, seconds before level 2's first hand (and said it had
    closed "when the first hand of level 2 was dealt"). R-TOUR-1: open until that hand."""
    tournament, players = started(3, levels=BREAK_AFTER_1, add_on_until_level=2)
    [table] = open_tables(tournament)
    for player in players:
        funded(player, 10_000)
    deal(table, FIRST_DEAL)
    tournament_clock_tick(tournament_id=tournament.pk, now=tournament.level_ends_at)
    tournament.refresh_from_db()
    play_out(table, tournament.break_ends_at - timedelta(seconds=30))
    tournament_clock_sweep(now=tournament.break_ends_at)  # the break ends: level 2 is next
    table.refresh_from_db()
    assert TournamentTable.objects.get(table=table).level == 2 and table.next_hand_at

    early = tournament_add_on(
        tournament_id=tournament.pk, player=players[0], now=table.next_hand_at
    )
    deal(table, table.next_hand_at)  # level 2's first hand
    with pytest.raises(TournamentRefused) as refused:
        tournament_add_on(tournament_id=tournament.pk, player=players[1], now=table.next_hand_at)

    assert early.add_on_at is not None
    assert refused.value.code == TournamentRefusal.TOO_LATE
    assert "closed when the first hand of level 2 was dealt" in str(refused.value)


def test_r_tour_1_the_deal_that_closes_the_add_on_tells_the_tournaments_pages(
    tasks_sent: list[tuple[str, tuple[Any, ...]]],
    monkeypatch: pytest.MonkeyPatch,
    django_capture_on_commit_callbacks: Any,
) -> None:
    """Issue #21 (9): nothing else changes the tournament when level 2's first hand is
    dealt, so its pages (the table's bar among them) went on offering the add-on through
    that hand. Each deal at a tournament table sends the tournament's task by name; the deal
    that closed the add-on sends the pages a snapshot saying so (add_on_open false), any
    other deal nothing."""
    pages: list[dict[str, Any]] = []
    monkeypatch.setattr(
        tournaments_broadcast,
        "_send",
        lambda messages: pages.extend(
            json.loads(text) for _, message in messages for text in message["texts"]
        ),
    )
    tournament, _ = started(3, levels=BREAK_AFTER_1, add_on_until_level=2)
    [table] = open_tables(tournament)
    with django_capture_on_commit_callbacks(execute=True):
        first = deal(table, FIRST_DEAL)
    assert (TOURNAMENT_TABLE_DEALT, (table.pk, first.pk)) in tasks_sent
    pages.clear()
    assert tasks.table_hand_dealt.run(table.pk, first.pk) is False  # level 1: still open
    assert pages == []
    tournament_clock_tick(tournament_id=tournament.pk, now=tournament.level_ends_at)
    tournament.refresh_from_db()
    play_out(table, tournament.break_ends_at - timedelta(seconds=30))
    tournament_clock_sweep(now=tournament.break_ends_at)  # the break ends: level 2 is next
    table.refresh_from_db()
    assert tournament_snapshot(tournament)["add_on_open"] is True
    closing = deal(table, table.next_hand_at)  # level 2's first hand

    with django_capture_on_commit_callbacks(execute=True):
        told = tasks.table_hand_dealt.run(table.pk, closing.pk)

    assert told is True
    [frame] = [f for f in pages if f["type"] == "tournament"]
    assert frame["tournament"]["add_on_open"] is False
