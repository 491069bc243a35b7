"""No sequence of clicks creates or loses money (issue #11; R-BUY-1, R-GAME-4, DESIGN.md "Money").

A hypothesis state machine plays the room through its services: several players at two small
tables sit (any seat, any amount), add chips, leave, sit out and in, say "I'm in", act (legal,
illegal and stale), time out, drop their connection (the engine then plays their turn:
R-TIME-1), show, deal, sweep the clock, join and leave the waiting list, and staff credit and
debit wallets. After every step:

- `audit_chips` passes (money put in equals balances + chips on tables + in pots + rake);
- each player's holdings (wallet, plus the chips of their seats, plus, for a hand they were
  dealt into, the stack they started it with less what was paid back when they left) change
  only by staff credits and debits and by their result in hands that ended (rake included).

The test keeps its own record of which seat rows were dealt into each hand (read when the hand
appears), so a seat taken during a hand is never confused with the one that was dealt.

On the code before the fix of issue #11 this found the double pay-out (leave a hand, sit
again at the same seat number, leave again: the new seat was paid the first seat's stack) in
the first 20 sequences, as `audit_chips` mismatches of $0.05 and $0.15 (the antes left in the
pot). Examples: `POKERROOM_STATEFUL_EXAMPLES`; CI runs it on PostgreSQL with the default below,
150 sequences of up to 60 steps (about 9,000 service calls, each followed by the audit).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

import pytest
from django.core.management import call_command
from django.db import transaction
from django.utils import timezone
from hypothesis import HealthCheck, event, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    Bundle,
    RuleBasedStateMachine,
    initialize,
    invariant,
    multiple,
    rule,
    run_state_machine_as_test,
)

from accounts.models import LedgerKind, Player
from accounts.services import WalletError, player_settings_update, wallet_credit, wallet_debit
from stud import ActionKind, StudHand
from tables import services
from tables.models import Hand, Seat, Table, WaitingListEntry
from tests.factories import PlayerFactory, StaffFactory, funded
from tests.table_factories import make_table

pytestmark = pytest.mark.django_db

EXAMPLES = int(os.environ.get("POKERROOM_STATEFUL_EXAMPLES", "150"))
STEPS = 60
FUNDING = 3_000
BUY_IN = 200
PLAYERS = 4


@dataclass
class DealtHand:
    """What the test saw of a hand when it appeared: each dealt player's seat row and stack."""

    table_id: int
    seats: dict[int, tuple[int, int, int]]  # number -> (player id, seat row id, starting stack)


def _start_stacks(hand: Hand) -> dict[int, int]:
    return {setup.seat: setup.stack for setup in StudHand.from_json(hand.state).players}


def _final_stacks(hand: Hand) -> dict[int, int]:
    result = StudHand.from_json(hand.state).result
    assert result is not None, f"hand {hand.pk} ended without a result"
    return dict(result.final_stacks)


class RoomMachine(RuleBasedStateMachine):
    """Two small tables, four players and a staff member, one controlled clock."""

    tables = Bundle("tables")
    players = Bundle("players")

    def __init__(self) -> None:
        super().__init__()
        self._example = transaction.atomic()
        # The example's own transaction, rolled back at its end, plays the part of a
        # TestCase's: a service's durable transaction may nest in it as in one (Django marks
        # TestCase's blocks the same way).
        self._example._from_testcase = True
        self._example.__enter__()
        self.now = timezone.now()
        self.staff = StaffFactory()
        self.expected: dict[int, int] = {}
        self.running: dict[int, DealtHand] = {}
        self.settled: set[int] = set()
        stakes = {"small_bet": 20, "big_bet": 40, "ante": 5, "bring_in": 10, "buy_in": BUY_IN}
        self.room = [
            make_table(seats=3, game="stud", **stakes),
            make_table(seats=4, game="stud8", **stakes),
        ]

    def teardown(self) -> None:
        transaction.set_rollback(True)
        self._example.__exit__(None, None, None)

    # --- the room -----------------------------------------------------------------------

    @initialize(
        target=players,
        seated=st.lists(st.sampled_from([0, 0, 1, 2]), min_size=PLAYERS, max_size=PLAYERS),
    )
    def open_the_room(self, seated: list[int]) -> Any:
        """The players sign up at the two open tables; most start seated (at table 0 or 1; 2 is
        none), so hands are dealt from the first steps."""
        signed_up = []
        for where in seated:
            player = PlayerFactory()
            funded(player, FUNDING)
            self.expected[player.pk] = FUNDING
            signed_up.append(player)
            if where < len(self.room):
                services.seat_take(
                    table_id=self.room[where].pk, player=player, buy_in=BUY_IN, now=self.tick()
                )
        return multiple(*signed_up)

    @initialize(target=tables)
    def tables_in_play(self) -> Any:
        return multiple(*self.room)

    def tick(self, seconds: float = 1.0) -> datetime:
        self.now += timedelta(seconds=seconds)
        return self.now

    # --- players --------------------------------------------------------------------------

    @rule(
        table=tables,
        player=players,
        seat_number=st.none() | st.none() | st.integers(0, 5),
        buy_in=st.sampled_from([BUY_IN, BUY_IN, BUY_IN, BUY_IN + 135, BUY_IN - 1, -BUY_IN, 10**9]),
    )
    def sit(self, table: Table, player: Player, seat_number: int | None, buy_in: int) -> None:
        services.seat_take(
            table_id=table.pk,
            player=player,
            buy_in=buy_in,
            seat_number=seat_number,
            now=self.tick(),
        )

    @rule(table=tables, player=players, amount=st.sampled_from([50, 1, 0, -7, 10**9]))
    def add_chips(self, table: Table, player: Player, amount: int) -> None:
        services.seat_add_chips(table_id=table.pk, player=player, amount=amount)

    @rule(table=tables, player=players)
    def leave(self, table: Table, player: Player) -> None:
        hand = Hand.objects.filter(table=table, ended_at__isnull=True).first()
        if hand is not None and player.pk in hand.players.values():
            event("a player dealt into the running hand leaves")
        services.seat_leave(table_id=table.pk, player=player, now=self.tick())

    @rule(table=tables, player=players, seat_number=st.none() | st.integers(1, 4))
    def leave_and_sit_again(self, table: Table, player: Player, seat_number: int | None) -> None:
        """A player who leaves and sits straight back down with the posted buy-in."""
        self.leave(table, player)
        services.seat_take(
            table_id=table.pk,
            player=player,
            buy_in=BUY_IN,
            seat_number=seat_number,
            now=self.tick(),
        )

    @rule(table=tables, player=players)
    def sit_out(self, table: Table, player: Player) -> None:
        services.seat_sit_out(table_id=table.pk, player=player)

    @rule(table=tables, player=players)
    def sit_in(self, table: Table, player: Player) -> None:
        services.seat_sit_in(table_id=table.pk, player=player, now=self.tick())

    @rule(table=tables, player=players)
    def confirm_ante(self, table: Table, player: Player) -> None:
        services.ante_confirm(table_id=table.pk, player=player, now=self.tick())

    @rule(player=players, auto_ante=st.booleans())
    def switch_im_in(self, player: Player, auto_ante: bool) -> None:
        player.refresh_from_db()
        player_settings_update(
            player_id=player.pk,
            display_name=player.display_name,
            auto_ante=auto_ante,
            auto_muck=player.auto_muck,
            four_colour_deck=player.four_colour_deck,
            confirm_free_fold=player.confirm_free_fold,
        )

    @rule(table=tables, player=players, connected=st.booleans())
    def connection(self, table: Table, player: Player, connected: bool) -> None:
        services.seat_set_connected(
            table_id=table.pk, player=player, connected=connected, now=self.tick(0.2)
        )

    @rule(table=tables, player=players)
    def show(self, table: Table, player: Player) -> None:
        last = Hand.objects.filter(table=table).order_by("-number").first()
        if last is not None:
            services.hand_show(table_id=table.pk, player=player, hand_id=last.pk)

    # --- the hand -------------------------------------------------------------------------

    @rule(
        table=tables,
        player=players,
        choice=st.integers(0, 7),
        how=st.sampled_from(["legal"] * 5 + ["illegal", "stale", "other hand"]),
    )
    def act(self, table: Table, player: Player, choice: int, how: str) -> None:
        hand = Hand.objects.filter(table=table, ended_at__isnull=True).first()
        if hand is None:
            services.hand_act(table_id=table.pk, player=player, expected_seq=0, kind="check")
            return
        engine = StudHand.from_json(hand.state)
        kind, amount, seq, hand_id = "fold", 0, hand.seq, hand.pk
        if how == "legal" and engine.to_act is not None:
            # The player whose turn it is (the drawn one acts out of turn otherwise).
            player = Player.objects.get(pk=hand.players[str(engine.to_act)])
            offers = engine.legal_actions(engine.to_act)
            offer = offers[choice % len(offers)]
            kind, amount = offer.kind.value, offer.amount
        elif how == "illegal":
            kind = list(ActionKind)[choice % len(ActionKind)].value
            amount = [0, 1, 7, 40, 10**6, -20, 20, 15][choice]
        elif how == "stale":
            seq = max(0, hand.seq - 1 - choice)
        else:
            hand_id = hand.pk + 1 + choice
        services.hand_act(
            table_id=table.pk,
            player=player,
            expected_seq=seq,
            expected_hand_id=hand_id,
            kind=kind,
            amount=amount,
            now=self.tick(),
        )

    @rule(table=tables)
    def clock_runs_out(self, table: Table) -> None:
        hand = Hand.objects.filter(table=table, ended_at__isnull=True).first()
        if hand is None or hand.action_deadline is None:
            return
        self.now = max(self.now, hand.action_deadline) + timedelta(seconds=1)
        services.hand_time_out(hand_id=hand.pk, expected_seq=hand.seq, now=self.now)

    @rule(table=tables)
    def deal(self, table: Table) -> None:
        services.hand_start(table_id=table.pk, now=self.tick())

    @rule(seconds=st.sampled_from([0.5, 3, 11, 61]))
    def sweep(self, seconds: float) -> None:
        services.hand_deadlines_sweep(now=self.tick(seconds))
        lapsed = WaitingListEntry.objects.filter(offered_until__lt=self.now)
        for entry_id in list(lapsed.values_list("pk", flat=True)):
            services.waiting_list_offer_expire(entry_id=entry_id, now=self.now)

    # --- the waiting list -----------------------------------------------------------------

    @rule(table=tables, player=players)
    def join_waiting_list(self, table: Table, player: Player) -> None:
        services.waiting_list_join(table_id=table.pk, player=player, now=self.tick())

    @rule(table=tables, player=players)
    def leave_waiting_list(self, table: Table, player: Player) -> None:
        services.waiting_list_leave(table_id=table.pk, player=player, now=self.tick())

    # --- staff ----------------------------------------------------------------------------

    @rule(player=players, amount=st.sampled_from([1, 250, 5_000]), credit=st.booleans())
    def staff_adjusts(self, player: Player, amount: int, credit: bool) -> None:
        move = wallet_credit if credit else wallet_debit
        try:
            move(
                player_id=player.pk,
                amount=amount,
                kind=LedgerKind.ADJUSTMENT,
                staff=self.staff,
                reason="stateful test",
            )
        except WalletError:
            return
        self.expected[player.pk] += amount if credit else -amount

    # --- what must always hold -------------------------------------------------------------

    def _follow_hands(self) -> None:
        """Note hands that appeared (which seat rows were dealt, with what) and settle the
        results of hands that ended into each dealt player's expected holdings."""
        table_ids = list(Table.objects.values_list("pk", flat=True))
        for hand in Hand.objects.filter(table_id__in=table_ids).exclude(pk__in=self.settled):
            if hand.pk not in self.running:
                event(f"a hand dealt to {len(hand.players)}")
                start = _start_stacks(hand)
                seat_rows = {
                    seat.number: seat.pk
                    for seat in Seat.objects.filter(table_id=hand.table_id)
                    if hand.players.get(str(seat.number)) == seat.player_id
                }
                self.running[hand.pk] = DealtHand(
                    table_id=hand.table_id,
                    seats={
                        int(number): (int(player_id), seat_rows[int(number)], start[int(number)])
                        for number, player_id in hand.players.items()
                    },
                )
            if hand.ended_at is None:
                continue
            final = _final_stacks(hand)
            for number, (player_id, _, stack) in self.running.pop(hand.pk).seats.items():
                self.expected[player_id] += final[number] - stack
            self.settled.add(hand.pk)

    def _holdings(self) -> dict[int, int]:
        dealt_rows: set[int] = set()
        holdings = dict(Player.objects.filter(pk__in=self.expected).values_list("pk", "balance"))
        live_rows = set(Seat.objects.values_list("pk", flat=True))
        for hand_id, dealt in self.running.items():
            left = Hand.objects.get(pk=hand_id).left_seats
            for number, (player_id, row, stack) in dealt.seats.items():
                dealt_rows.add(row)
                # Still seated: the stack they started with plays in the hand. Gone: what was
                # paid back when they left is in their wallet, the rest is in the pot.
                paid_back = 0 if row in live_rows else int(left[str(number)])
                holdings[player_id] += stack - paid_back
        for seat in Seat.objects.exclude(pk__in=dealt_rows):
            holdings[seat.player_id] += seat.stack
        return holdings

    @invariant()
    def chips_are_conserved(self) -> None:
        if not self.expected:
            return
        call_command("audit_chips", stdout=open(os.devnull, "w"))  # noqa: SIM115
        self._follow_hands()
        assert self._holdings() == self.expected


@pytest.mark.timeout(1200)  # about 4 minutes on PostgreSQL on a busy 2-core machine
def test_no_sequence_of_services_creates_or_loses_money() -> None:
    """R-BUY-1, R-GAME-4: a seat's money comes from its own buy-ins and results only."""
    run_state_machine_as_test(
        RoomMachine,
        settings=settings(
            max_examples=EXAMPLES,
            stateful_step_count=STEPS,
            deadline=None,
            suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
            database=None,
        ),
    )
