"""Tournaments played through the services with a controlled clock: registered players,
the start, hands dealt when due and played by a simple policy, and decks found with the
engine so that a given player busts (the scenario tests of tests/tournaments/)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict
from datetime import UTC, datetime, timedelta
from itertools import pairwise
from typing import Any
from unittest import mock

import pytest

from accounts.models import Player
from stud import Action, ActionKind, SeatSetup, StudHand
from stud.tournament import TURBO_STRUCTURE, LevelSpec, button_after
from tables import services
from tables.models import Hand, Seat, Table
from tables.services import scheduling
from tables.services.flow import game_config
from tests.factories import PlayerFactory
from tournaments.models import (
    Tournament,
    TournamentEntry,
    TournamentLevel,
    TournamentStatus,
    TournamentTable,
)
from tournaments.services.play import tournament_start, tournament_table_between_hands

T0 = datetime(2026, 3, 2, 18, 0, tzinfo=UTC)
SEATING = timedelta(seconds=10)  # TOURNAMENT_SEATING_SECONDS' default
Policy = Callable[[StudHand, int, random.Random], Action]


def tasks_recorded(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, tuple[Any, ...]]]:
    """The tasks the services send (the next deal, an action clock, the tournament's step
    between hands, a clock tick) are recorded, never run: the test drives every step."""
    sent: list[tuple[str, tuple[Any, ...]]] = []

    def record(name: str, *args: Any, countdown: float, **options: Any) -> None:
        sent.append((name, args))

    def record_at(name: str, args: Sequence[Any], *, eta: Any) -> None:
        sent.append((name, tuple(args)))

    monkeypatch.setattr(scheduling, "task_send", record)
    monkeypatch.setattr(scheduling, "task_send_at", record_at)  # the clock sweep's, at a time
    return sent


TOURNAMENT_KINDS = (
    "tournament_start",
    "tournament_level",
    "tournament_break",
    "tournament_idle_table",
)


def tournament_clock_sweep(*, now: datetime) -> int:
    """One run of the room's clock sweep (DESIGN.md "Time") over the tournament's deadline
    kinds alone (tournaments/services/clock.py): the test deals and plays the hands itself, so
    the tables' own kinds (the next deal, the action clock) are left out. Returns how many
    deadlines it applied."""
    kinds = {name: scheduling.DEADLINE_KINDS[name] for name in TOURNAMENT_KINDS}
    with mock.patch.dict(scheduling.DEADLINE_KINDS, kinds, clear=True):
        return scheduling.deadlines_sweep(now=now)


def make_tournament(
    players: int, *, levels: Sequence[LevelSpec] = TURBO_STRUCTURE, **fields: Any
) -> tuple[Tournament, list[Player]]:
    """A registering tournament with `players` entries (registration itself is tmoney's:
    the entries are written as it would leave them)."""
    tournament = Tournament.objects.create(
        name=fields.pop("name", "Seed 004 stud"),
        status=TournamentStatus.REGISTERING,
        time_bank=0,
        **fields,
    )
    for level in levels:
        TournamentLevel.objects.create(tournament=tournament, **asdict(level))
    entrants = [PlayerFactory() for _ in range(players)]
    for player in entrants:
        TournamentEntry.objects.create(tournament=tournament, player=player, registered_at=T0)
    return tournament, entrants


def started(
    players: int, *, seed: int = 1, now: datetime = T0, **fields: Any
) -> tuple[Tournament, list[Player]]:
    tournament, entrants = make_tournament(players, **fields)
    tournament_start(tournament_id=tournament.pk, now=now, rng=random.Random(seed))
    tournament.refresh_from_db()
    return tournament, entrants


def open_tables(tournament: Tournament) -> list[Table]:
    """The tournament's tables in play, by their number."""
    rows = TournamentTable.objects.filter(tournament=tournament, closed_at__isnull=True)
    return [row.table for row in rows.select_related("table").order_by("number")]


def seats_of(table: Table) -> dict[int, Seat]:
    return {
        seat.number: seat
        for seat in Seat.objects.filter(table=table).select_related("player").order_by("number")
    }


def hand_in_play(table: Table) -> Hand | None:
    return Hand.objects.filter(table=table, ended_at__isnull=True).first()


def passive(engine: StudHand, seat: int, rng: random.Random) -> Action:
    """Post the bring-in when due, check when free, else fold: the bring-in and the players
    all-in from the ante go to showdown."""
    offers = {offer.kind: offer for offer in engine.legal_actions(seat)}
    for kind in (ActionKind.BRING_IN, ActionKind.CHECK, ActionKind.FOLD):
        if kind in offers:
            return Action(seat, kind, offers[kind].amount)
    raise AssertionError(f"nothing to do for seat {seat}: {offers}")


def short_stacks_call(engine: StudHand, seat: int, rng: random.Random) -> Action:
    """As `passive`, but a player with 20 chips or fewer calls (all in)."""
    offers = {offer.kind: offer for offer in engine.legal_actions(seat)}
    if ActionKind.CALL in offers and engine.stack(seat) <= 20:
        return Action(seat, ActionKind.CALL, offers[ActionKind.CALL].amount)
    return passive(engine, seat, rng)


def aggressive(engine: StudHand, seat: int, rng: random.Random) -> Action:
    """Bet and raise whenever offered, else call (a fold now and then): quick tournaments."""
    offers = {offer.kind: offer for offer in engine.legal_actions(seat)}
    if ActionKind.FOLD in offers and rng.random() < 0.15:
        return Action(seat, ActionKind.FOLD, 0)
    for kind in (
        ActionKind.RAISE,
        ActionKind.BET,
        ActionKind.COMPLETE,
        ActionKind.CALL,
        ActionKind.BRING_IN,
        ActionKind.CHECK,
        ActionKind.FOLD,
    ):
        if kind in offers:
            return Action(seat, kind, offers[kind].amount)
    raise AssertionError(f"nothing to do for seat {seat}: {offers}")


def next_deal(table: Table) -> tuple[list[Seat], int]:
    """The seats the table's next hand deals in and its button (R-DEAL-1, as dealt)."""
    table.refresh_from_db()
    seats = [seat for seat in seats_of(table).values() if seat.stack > 0]
    last = Hand.objects.filter(table=table).order_by("-number").values_list("button", flat=True)
    return seats, button_after(last.first(), [seat.number for seat in seats])


def simulate(table: Table, deck: list[int], policy: Policy, rng: random.Random) -> dict[int, int]:
    """The final stacks (seat -> chips) the table's next hand would leave with this deck."""
    seats, button = next_deal(table)
    engine, _ = StudHand.start(
        game_config(table),
        [SeatSetup(seat=s.number, name=s.player.table_name, stack=s.stack) for s in seats],
        deck,
        button,
    )
    while not engine.is_over:
        assert engine.to_act is not None
        engine, _ = engine.apply(policy(engine, engine.to_act, rng))
    assert engine.result is not None
    return dict(engine.result.final_stacks)


def deck_where(
    table: Table,
    busted: Iterable[int],
    *,
    policy: Policy = passive,
    survivors: Iterable[int] = (),
) -> list[int]:
    """A deck (found with the engine) whose next hand at `table`, played by `policy`, leaves
    the players in seats `busted` without chips and those in `survivors` with some."""
    wanted, kept = set(busted), set(survivors)
    for seed in range(2_000):
        deck = list(range(52))
        random.Random(seed).shuffle(deck)
        final = simulate(table, deck, policy, random.Random(0))
        if all(final[s] == 0 for s in wanted) and all(final[s] > 0 for s in kept):
            return deck
    raise AssertionError(f"no deck busts seats {sorted(wanted)}")


def chips_moved(table: Table, *, from_seat: int, to_seat: int, leave: int) -> None:
    """Set the scene between hands: the player at `from_seat` has only `leave` chips, the rest
    are in front of the player at `to_seat` (the chips in play stay the same)."""
    seats = seats_of(table)
    giver, taker = seats[from_seat], seats[to_seat]
    moved = giver.stack - leave
    Seat.objects.filter(pk=giver.pk).update(stack=leave)
    Seat.objects.filter(pk=taker.pk).update(stack=taker.stack + moved)


def deal(table: Table, now: datetime, deck: list[int] | None = None) -> Hand:
    """The table's scheduled hand is dealt (the tables' start task, when due)."""
    result = services.hand_start(table_id=table.pk, now=now, deck=deck, only_when_due=True)
    assert result.ok, result.reply()
    # (over at the deal already when everyone is all-in from the antes)
    hand = Hand.objects.filter(table=table).order_by("-number").first()
    assert hand is not None
    return hand


def play_out(
    table: Table,
    now: datetime,
    policy: Policy = passive,
    rng: random.Random | None = None,
    *,
    between_hands: bool = True,
) -> Hand:
    """Every turn of the table's last hand (if still in play) is taken by `policy` at `now`;
    then (as the task the tables send would) the tournament's step between hands runs."""
    rng = rng or random.Random(0)
    hand = Hand.objects.filter(table=table).order_by("-number").first()
    assert hand is not None
    players = {int(pid): Player.objects.get(pk=pid) for pid in hand.players.values()}
    while True:
        hand.refresh_from_db()
        if hand.ended_at is not None:
            break
        engine = StudHand.from_json(hand.state)
        assert engine.to_act is not None
        action = policy(engine, engine.to_act, rng)
        result = services.hand_act(
            table_id=table.pk,
            player=players[int(hand.players[str(engine.to_act)])],
            expected_seq=hand.seq,
            kind=action.kind.value,
            amount=action.amount,
            now=now,
        )
        assert result.ok, result.reply()
    if between_hands:
        tournament_table_between_hands(table_id=table.pk, now=now, rng=random.Random(7))
    return hand


def stakes(table: Table) -> tuple[int, int, int, int]:
    table.refresh_from_db()
    return (table.ante, table.bring_in, table.small_bet, table.big_bet)


def hand_stakes(hand: Hand) -> tuple[int, int, int, int]:
    config = hand.state["config"]
    return (config["ante"], config["bring_in"], config["small_bet"], config["big_bet"])


# --- R-TOUR-6 read from the hands dealt (issue #28) ------------------------------------


def dealer_of(hand: Hand) -> int:
    """The player who dealt the hand: the last in the order of the deal (R-ANTE-3)."""
    seat = str(hand.state["players"][-1]["seat"])
    return int(hand.players[seat])


def equal_deals_ends(tournament: Tournament) -> list[dict[str, Any]]:
    """For each table that dealt the equal-deals level and then the next one (there, or at
    the final table it merged into): the players dealt in its first hand after the level,
    how many hands each dealt at the level (any table: a moved player brings theirs), and
    the hands dealt there since the level's timer expired."""
    hands = list(
        Hand.objects.filter(table__tournament_table__tournament=tournament).order_by("started_at")
    )

    def at_level(hand: Hand) -> bool:
        config = hand.state["config"]
        return bool(config["dealer_only_ante"])  # the equal-deals level's, R-ANTE-3

    deals = Counter(dealer_of(hand) for hand in hands if at_level(hand))
    ends = []
    for table_id in sorted({hand.table_id for hand in hands}):
        here = [hand for hand in hands if hand.table_id == table_id]
        for before, after in pairwise(here):
            if at_level(before) and not at_level(after):
                players = sorted(int(pid) for pid in after.players.values())
                ends.append(
                    {
                        "table": table_id,
                        "deals": {player: deals[player] for player in players},
                        "level_hands_here": sum(1 for hand in here if at_level(hand)),
                        "last": before,
                    }
                )
        last = here[-1]
        if at_level(last):  # the table closed at the level: the merge (R-TOUR-4)
            stayed = {int(pid) for pid in last.players.values()}
            later = [
                hand
                for hand in hands
                if hand.started_at > last.started_at
                and stayed & {int(pid) for pid in hand.players.values()}
            ]
            if later and not at_level(later[0]):  # the level ended for them at the merge
                players = sorted(stayed & {int(pid) for pid in later[0].players.values()})
                ends.append(
                    {
                        "table": table_id,
                        "deals": {player: deals[player] for player in players},
                        "level_hands_here": sum(1 for hand in here if at_level(hand)),
                        "last": last,
                    }
                )
    return ends


def equal_deals_rule_checked(tournament: Tournament, timer: datetime) -> list[dict[str, Any]]:
    """R-TOUR-6 at every table that ended the equal-deals level (its timer expired at
    `timer`): its players there had dealt equally, or the room's fallback ended it after
    one more orbit (as many hands there since the timer as players); never before the
    timer unless equal. Returns the ends checked (at least one)."""
    ends = equal_deals_ends(tournament)
    assert ends, "no table dealt past the equal-deals level"
    for end in ends:
        since_timer = Hand.objects.filter(
            table_id=end["table"], started_at__gte=timer, number__lte=end["last"].number
        ).count()
        equal = len(set(end["deals"].values())) == 1
        fallback = since_timer >= len(end["deals"])
        assert equal or fallback, end
        assert end["last"].started_at >= timer or equal, end
    return ends
