"""R-TOUR-6 (issue #28): an equal-deals level ends at a table only when every player there
has dealt the same number of hands at it, or after the room's one-orbit fallback (as many
hands as players since the timer), whether it is the first level, the level right after a
break, or a level during which players are moved and the tables merge.

The scenario tests drive one table hand by hand with a controlled clock; the whole
tournaments deal and play every hand through the services (aggressive players, so players
bust, are balanced and merged) and check each table's end of the level against the hands
recorded, independently of the room's own counters."""

from __future__ import annotations

import random
from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any

import pytest

from stud.tournament import TURBO_STRUCTURE, LevelSpec
from tables.models import Hand
from tests.tournaments.play_helpers import (
    SEATING,
    T0,
    aggressive,
    chips_moved,
    deal,
    deck_where,
    equal_deals_rule_checked,
    hand_in_play,
    open_tables,
    play_out,
    seats_of,
    stakes,
    started,
    tasks_recorded,
    tournament_clock_sweep,
)
from tournaments.models import Tournament, TournamentStatus, TournamentTable
from tournaments.selectors import tournament_snapshot
from tournaments.services.clock import tournament_clock_tick

pytestmark = pytest.mark.django_db

EQUAL_LEVEL_STAKES = (25, 10, 25, 50)

# The default structure with one change staff may make before the first hand: the break
# after level 2 instead of level 5, so that level 3 (dealer-only ante, equal deals) comes
# right after a break (issue #28's structure), at turbo speed.
BREAK_BEFORE_EQUAL_DEALS = tuple(
    replace(level, break_minutes=1 if level.number == 2 else 0) for level in TURBO_STRUCTURE
)
EQUAL_DEALS_FIRST = (
    LevelSpec(1, 25, 10, 25, 50, minutes=3, dealer_only_ante=True, equal_deals=True),
    *(replace(level, number=number) for number, level in enumerate(TURBO_STRUCTURE[3:], 2)),
)


@pytest.fixture(autouse=True)
def tasks_sent(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, tuple[Any, ...]]]:
    return tasks_recorded(monkeypatch)


def test_r_tour_6_an_equal_deals_level_right_after_a_break_waits_for_equal_deals():
    levels = (
        LevelSpec(1, 5, 5, 10, 20, minutes=3, break_minutes=1),
        LevelSpec(2, 25, 10, 25, 50, minutes=3, dealer_only_ante=True, equal_deals=True),
        LevelSpec(3, 10, 15, 30, 60, minutes=3),
    )
    tournament, _ = started(3, levels=levels)
    [table] = open_tables(tournament)
    deal(table, T0 + SEATING)  # seat 1 deals the only hand of level 1
    tournament_clock_tick(tournament_id=tournament.pk, now=tournament.level_ends_at)
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.ON_BREAK
    play_out(table, tournament.break_ends_at - timedelta(seconds=30))
    tournament_clock_sweep(now=tournament.break_ends_at)  # the break ends: level 2
    tournament.refresh_from_db()
    table.refresh_from_db()
    hands = [deal(table, table.next_hand_at)]  # seat 2 deals level 2's first hand
    timer = tournament.level_ends_at

    tournament_clock_tick(tournament_id=tournament.pk, now=timer)  # its timer expires

    when = timer + timedelta(seconds=5)
    play_out(table, when)
    assert stakes(table) == EQUAL_LEVEL_STAKES  # seats 3 and 1 have not dealt at level 2
    tournament.refresh_from_db()
    page = tournament_snapshot(tournament)
    assert page["clock"]["level_timer_expired"] and page["level"]["number"] == 2
    for _ in range(2):
        table.refresh_from_db()
        hands.append(deal(table, table.next_hand_at))
        play_out(table, table.next_hand_at or when)
    assert [hand.button for hand in hands] == [2, 3, 1]
    assert [tuple(hand.state["config"][k] for k in ("ante", "small_bet")) for hand in hands] == [
        (25, 25)
    ] * 3
    tournament.refresh_from_db()
    assert tournament.level == 3 and not tournament.level_timer_expired
    table.refresh_from_db()
    assert stakes(table) == (10, 15, 30, 60)


def test_r_tour_6_after_a_break_begun_mid_hand_every_table_waits_for_equal_deals():
    """Issue #28's shape at two tables, with hands in play when the clock moves (as with real
    players): level 1's timer strikes mid-hand, so the break starts with a hand in play at
    each table, which ends during the break; the equal-deals level's timer strikes mid-hand
    too. Each table still deals that level until its four players have dealt once each."""
    levels = (
        LevelSpec(1, 5, 5, 10, 20, minutes=3, break_minutes=1),
        LevelSpec(2, 25, 10, 25, 50, minutes=3, dealer_only_ante=True, equal_deals=True),
        LevelSpec(3, 10, 15, 30, 60, minutes=3),
    )
    tournament, _ = started(8, levels=levels)
    tables = open_tables(tournament)
    for table in tables:
        deal(table, T0 + SEATING)
    tournament_clock_tick(tournament_id=tournament.pk, now=tournament.level_ends_at)
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.ON_BREAK
    for table in tables:  # the hands dealt at level 1 end during the break
        play_out(table, tournament.break_ends_at - timedelta(seconds=30))
        table.refresh_from_db()
        assert table.next_hand_at is None  # no hand is dealt in a break (R-TOUR-5)
    tournament_clock_sweep(now=tournament.break_ends_at)  # the break ends: level 2
    tournament.refresh_from_db()
    timer = tournament.level_ends_at
    level_hands: dict[int, list[Hand]] = {table.pk: [] for table in tables}
    for table in tables:  # seats 2 and 3 deal; seat 3's hand is in play at the timer
        table.refresh_from_db()
        level_hands[table.pk].append(deal(table, table.next_hand_at))
        play_out(table, table.next_hand_at or timer - timedelta(seconds=60))
        table.refresh_from_db()
        level_hands[table.pk].append(deal(table, table.next_hand_at))
    tournament_clock_tick(tournament_id=tournament.pk, now=timer)
    when = timer + timedelta(seconds=5)
    for table in tables:
        play_out(table, when)
        assert stakes(table) == EQUAL_LEVEL_STAKES  # seats 4 and 1 have not dealt at level 2
        for _ in range(2):
            table.refresh_from_db()
            level_hands[table.pk].append(deal(table, table.next_hand_at))
            play_out(table, table.next_hand_at or when)
        assert stakes(table) == (10, 15, 30, 60)  # everyone here has dealt once: level 3

    for hands in level_hands.values():
        assert [hand.button for hand in hands] == [2, 3, 4, 1]
        assert all(hand.state["config"]["dealer_only_ante"] for hand in hands)
    tournament.refresh_from_db()
    assert tournament.level == 3 and not tournament.level_timer_expired


def test_r_tour_6_the_merge_waits_for_a_table_still_owing_the_equal_deals_level_its_deals():
    """Issue #28, the merge during the level: one table has dealt equally since the timer
    and deals level 2, the other's players have not (one hand each of four to deal). A
    player out at the first brings seven left (R-TOUR-4): the merge used to come at once at
    level 2, ending level 1 at the second table after one hand, so three of its four players
    never dealt. Now that table deals on at level 1 until all four have dealt once, the
    first waits, and the merge comes then."""
    tournament, _ = started(8, levels=EQUAL_DEALS_FIRST)
    first, second = open_tables(tournament)
    deal(first, T0 + SEATING)
    deal(second, T0 + SEATING)
    timer = tournament.level_ends_at
    tournament_clock_tick(tournament_id=tournament.pk, now=timer)  # seat 1 of each has dealt
    when = timer + timedelta(seconds=5)
    play_out(second, when)  # the second table: only its seat 1 has dealt at level 1
    for _ in range(3):  # the first: seats 2, 3 and 4 deal, so each of its four has dealt once
        play_out(first, when)
        first.refresh_from_db()
        when = first.next_hand_at
        deal(first, when)
    play_out(first, when)
    assert stakes(first) == (10, 15, 30, 60)  # done with level 1: it deals level 2
    assert stakes(second) == (25, 10, 25, 50)

    chips_moved(first, from_seat=4, to_seat=1, leave=5)
    first.refresh_from_db()
    busted = seats_of(first)[4].player
    deal(first, first.next_hand_at, deck_where(first, busted=[4]))
    play_out(first, when + timedelta(seconds=30))  # seven left: they fit one table

    assert len(open_tables(tournament)) == 2  # the second table still owes its deals
    first.refresh_from_db()
    assert first.next_hand_at is None  # done with level 1, it waits for the merge
    assert stakes(second) == (25, 10, 25, 50)
    second.refresh_from_db()
    buttons = []
    for _ in range(3):
        hand = deal(second, second.next_hand_at)
        buttons.append(hand.button)
        assert hand.state["config"]["dealer_only_ante"]  # still level 1's
        play_out(second, second.next_hand_at or when + timedelta(seconds=60))
        second.refresh_from_db()
    assert buttons == [2, 3, 4]

    [final] = open_tables(tournament)  # every table done with level 1: the merge
    assert final.pk not in (first.pk, second.pk)
    assert len(seats_of(final)) == 7 and busted.pk not in {
        seat.player_id for seat in seats_of(final).values()
    }
    tournament.refresh_from_db()
    assert tournament.level == 2 and not tournament.level_timer_expired
    assert stakes(final) == (10, 15, 30, 60)


# --- whole tournaments: every table's end of the equal-deals level, from the hands ---------


def play_whole(tournament: Tournament, seed: int, equal_level: int) -> datetime:
    """Every hand dealt when due and played at once; returns when the equal-deals level's
    timer expired (its `level_ends_at`, read while it was the level in force)."""
    clock = T0
    timer = None
    rng = random.Random(seed)
    for _ in range(4000):
        clock += timedelta(seconds=5)
        tournament_clock_sweep(now=clock)
        tournament.refresh_from_db()
        if tournament.level == equal_level and tournament.status == TournamentStatus.RUNNING:
            timer = tournament.level_ends_at
        if tournament.status == TournamentStatus.FINISHED or tournament.level >= 5:
            assert timer is not None
            return timer
        for table in open_tables(tournament):
            if hand_in_play(table) is None:
                table.refresh_from_db()
                if table.next_hand_at is None or table.next_hand_at > clock:
                    continue
                deck = list(range(52))
                rng.shuffle(deck)
                deal(table, clock, deck)
            play_out(table, clock, aggressive, rng)
    raise AssertionError("the tournament never got past its equal-deals level")


@pytest.mark.timeout(600)
@pytest.mark.parametrize(
    ("levels", "equal_level", "players", "seed"),
    [
        pytest.param(BREAK_BEFORE_EQUAL_DEALS, 3, 10, 3, id="after-a-break"),
        pytest.param(EQUAL_DEALS_FIRST, 1, 10, 5, id="first-level"),
        pytest.param(BREAK_BEFORE_EQUAL_DEALS, 3, 16, 11, id="moves-and-the-merge"),
    ],
)
def test_r_tour_6_a_whole_tournament_ends_the_equal_deals_level_on_equal_deals_at_every_table(
    levels, equal_level, players, seed
):
    tournament, _ = started(players, levels=levels, seed=seed)
    timer = play_whole(tournament, seed, equal_level)

    equal_deals_rule_checked(tournament, timer)
    if players == 16:  # players were moved and the tables merged during the level
        assert TournamentTable.objects.filter(tournament=tournament).count() == 3


def test_r_tour_6_a_table_done_early_before_a_break_tells_the_tournaments_pages(
    monkeypatch: pytest.MonkeyPatch,
):
    """Issue #28 (the bar): a table done with the equal-deals level before the other, with a
    break to follow, waits; its next hand (after the break) is dealt at level 2, while the
    stakes in force stay level 1's, so no stakes frame goes out. The tournament's frame must
    still go, or the table's bar (the snapshot's tables[].level) goes on saying it waits for
    equal deals."""
    from tournaments import broadcast

    levels = (replace(EQUAL_DEALS_FIRST[0], break_minutes=1), *EQUAL_DEALS_FIRST[1:])
    tournament, _ = started(8, levels=levels)
    first, second = open_tables(tournament)
    deal(first, T0 + SEATING)
    deal(second, T0 + SEATING)
    timer = tournament.level_ends_at
    tournament_clock_tick(tournament_id=tournament.pk, now=timer)
    when = timer + timedelta(seconds=5)
    play_out(second, when)  # only its seat 1 has dealt at level 1
    for _ in range(3):  # the first: seats 2, 3 and 4 deal
        play_out(first, when)
        first.refresh_from_db()
        when = first.next_hand_at
        deal(first, when)
    told: list[int] = []
    monkeypatch.setattr(broadcast, "tournament_changed", told.append)

    play_out(first, when)  # everyone at the first table has dealt once

    assert told == [tournament.pk]
    tournament.refresh_from_db()
    page = tournament_snapshot(tournament)
    assert page["clock"]["level"] == 1 and page["clock"]["level_timer_expired"]
    assert {t["table_id"]: t["level"] for t in page["tables"]} == {first.pk: 2, second.pk: 1}
    assert stakes(first) == (25, 10, 25, 50)  # level 1's in force while it waits
    first.refresh_from_db()
    assert first.next_hand_at is None
