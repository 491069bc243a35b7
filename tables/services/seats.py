"""Taking a seat, adding chips, sitting out and in, leaving, presence, "I'm in", and staff
opening and closing tables."""

from __future__ import annotations

from datetime import datetime

from accounts.limits import PlayLimitRefused
from accounts.models import LedgerKind, Player, StaffActionKind
from accounts.money import cents_format
from accounts.services import InsufficientBalance, staff_action_record, wallet_debit
from integrity import holds
from stud import IllegalAction, StudHand
from tables.common import ante_awaited, now_or, ready_seats
from tables.kinds import table_kind
from tables.models import PRESENCE_STALE, Seat, WaitingListEntry
from tables.realtime.frames import TableClosed, TableOpened
from tables.services.change import TableChange, seats_by_number, table_change
from tables.services.flow import (
    active_offers,
    ante_confirm_ask,
    closed_table_cash_out,
    engine_records,
    hand_absentees_lock,
    hand_carry_on,
    hand_events_record,
    hand_schedule_next,
    hand_time_bank_settle,
    next_hand_frame,
    seat_cash_out,
    seat_time_bank_kept,
    table_reference,
    waiting_list_offer_seats,
)
from tables.services.results import Refusal, TableResult


def _players_take_seats(change: TableChange) -> None:
    """Refused unless the table's kind lets players take, leave and buy chips by themselves:
    at a tournament table seats are drawn and moved by the tournament (R-TOUR-2..4) and its
    chips are not money."""
    kind = table_kind(change.table)
    if not kind.players_take_seats:
        raise change.refuse(Refusal.TOURNAMENT_TABLE, kind.seats_refusal)


def _own_seat(change: TableChange, player: Player) -> Seat:
    """The player's seat at the locked table; refused when they have none."""
    seat = Seat.objects.filter(table=change.table, player=player).first()
    if seat is None:
        raise change.refuse(Refusal.NOT_SEATED, "You have no seat here.")
    return seat


def _ante_ask_late(change: TableChange, seat: Seat, now: datetime) -> None:
    """R-ANTE-1: a player who posts antes by hand and sits down (or in) while the next hand
    is already due is asked too, by that time, and the table told whom it waits for."""
    table = change.table
    if not table_kind(table).asks_im_in or table.next_hand_at is None:
        return  # hand_schedule_next asks everyone when it schedules
    ready = ready_seats(table)
    awaited = ante_awaited(ready)
    if seat.number not in awaited:
        return
    change.outbox.table_frame(next_hand_frame(table, table.next_hand_at, now, awaited))
    ante_confirm_ask(
        table=table,
        ready=[s for s in ready if s.number == seat.number],
        outbox=change.outbox,
        at=table.next_hand_at,
        now=now,
    )


def _valid_amount(amount: object) -> bool:
    return isinstance(amount, int) and not isinstance(amount, bool) and amount > 0


def _pay_for_chips(change: TableChange, player: Player, amount: int, what: str) -> None:
    """R-BUY-1: chips come from the balance as one buy-in entry of the ledger; refused when
    the balance lacks them (nothing taken)."""
    table = change.table
    try:
        wallet_debit(
            player_id=player.pk,
            amount=amount,
            kind=LedgerKind.BUY_IN,
            reason=f"{what} at {table.name}",
            reference=table_reference(table),
        )
    except InsufficientBalance as error:
        raise change.refuse(Refusal.INSUFFICIENT_BALANCE, str(error)) from None
    except PlayLimitRefused as error:  # a limit the player set (issue #26)
        raise change.refuse(Refusal.PLAY_LIMIT, str(error)) from None


def seat_take(
    *,
    table_id: int,
    player: Player,
    buy_in: int,
    seat_number: int | None = None,
    now: datetime | None = None,
    address: str | None = None,
    device: str = "",
) -> TableResult:
    """R-BUY-1: sit down with at least the posted buy-in, taken from the balance. `address`
    (and `device`): where the player connects from (issue #25): a second seat at the table
    from an address already seated there is refused unless staff allowed that pair, and a
    suspended player takes no seat."""
    now = now_or(now)
    with table_change(table_id) as change:
        table = change.table
        _players_take_seats(change)
        if not table.is_open:
            raise change.refuse(Refusal.TABLE_CLOSED, "The table is closed.")
        if Seat.objects.filter(table=table, player=player).exists():
            raise change.refuse(Refusal.ALREADY_SEATED, "You already have a seat here.")
        if holds.is_suspended(player.pk):
            raise change.refuse(
                Refusal.SUSPENDED, "Your account is suspended while staff review it."
            )
        if address and holds.shared_address_seated(
            table_id=table.pk,
            player_id=player.pk,
            address=address,
            seat_ids=list(Seat.objects.filter(table=table).values_list("pk", flat=True)),
        ):
            raise change.refuse(
                Refusal.SHARED_ADDRESS,
                "Another player is seated here from your network address; ask staff to "
                "allow it (two players in one home).",
            )
        if not _valid_amount(buy_in):
            raise change.refuse(
                Refusal.BAD_AMOUNT, "The buy-in must be a positive amount of cents."
            )
        if buy_in < table.buy_in:
            raise change.refuse(
                Refusal.SHORT_BUY_IN,
                f"The buy-in here is at least {cents_format(table.buy_in)} (no short buys).",
            )
        hand = change.hand
        taken = set(Seat.objects.filter(table=table).values_list("number", flat=True))
        held = set() if hand is None else hand.held_numbers()
        free = [n for n in range(1, table.seats + 1) if n not in taken | held]
        if seat_number in held:
            raise change.refuse(Refusal.SEAT_HELD, "That seat is held until the hand in play ends.")
        if not free:
            raise change.refuse(Refusal.TABLE_FULL, "The table is full; join the waiting list.")
        offers = active_offers(table, now)
        own_offer = offers.filter(player=player).exists()
        if not own_offer and len(free) <= offers.count():
            raise change.refuse(
                Refusal.SEAT_OFFERED, "The free seat is offered to a waiting player."
            )
        if seat_number is None:
            seat_number = free[0]
        elif not 1 <= seat_number <= table.seats:
            raise change.refuse(Refusal.BAD_SEAT, f"Seats here are 1 to {table.seats}.")
        elif seat_number in taken:
            raise change.refuse(Refusal.SEAT_TAKEN, "That seat is taken.")
        _pay_for_chips(change, player, buy_in, "bought in")
        bank_ms, hands_dealt = seat_time_bank_kept(table=table, player_id=player.pk, now=now)
        seat = Seat.objects.create(
            table=table,
            number=seat_number,
            player=player,
            stack=buy_in,
            time_bank_ms=bank_ms,
            hands_dealt=hands_dealt,
        )
        holds.seat_address_record(
            table_id=table.pk,
            seat_id=seat.pk,
            player_id=player.pk,
            address=address,
            device=device,
            at=now,
        )
        outbox = change.outbox
        if WaitingListEntry.objects.filter(table=table, player=player).exists():
            WaitingListEntry.objects.filter(table=table, player=player).delete()
            outbox.waiting_changed = True
        outbox.seats_changed = True
        outbox.viewers_changed.add(player.pk)  # their page learns its seat from the frames
        _ante_ask_late(change, seat, now)
        hand_schedule_next(table=table, outbox=outbox, now=now)
    return change.result


def seat_add_chips(*, table_id: int, player: Player, amount: int) -> TableResult:
    """R-BUY-1: more chips from the balance, between hands only (R-GAME-4)."""
    with table_change(table_id) as change:
        _players_take_seats(change)
        seat = _own_seat(change, player)
        if not _valid_amount(amount):
            raise change.refuse(
                Refusal.BAD_AMOUNT, "The amount must be a positive amount of cents."
            )
        hand = change.hand
        if hand is not None and hand.seat_is_dealt(seat):
            raise change.refuse(
                Refusal.IN_HAND, "Chips can be added between hands only.", hand=hand
            )
        _pay_for_chips(change, player, amount, "added chips")
        seat.stack += amount
        seat.save(update_fields=["stack"])
        change.outbox.seats_changed = True
        hand_schedule_next(table=change.table, outbox=change.outbox, now=now_or(None))
    return change.result


def seat_sit_out(*, table_id: int, player: Player) -> TableResult:
    """R-SIT-1: not dealt in from the next hand (a hand in play is finished)."""
    with table_change(table_id) as change:
        seat = _own_seat(change, player)
        seat.sitting_out = True
        seat.save(update_fields=["sitting_out"])
        change.outbox.seats_changed = True
    return change.result


def seat_sit_in(*, table_id: int, player: Player, now: datetime | None = None) -> TableResult:
    """Back in from the next hand; the count of hands timed out starts again (R-SIT-1)."""
    now = now_or(now)
    with table_change(table_id) as change:
        seat = _own_seat(change, player)
        seat.sitting_out = False
        seat.timeouts_in_a_row = 0
        seat.save(update_fields=["sitting_out", "timeouts_in_a_row"])
        change.outbox.seats_changed = True
        _ante_ask_late(change, seat, now)
        hand_schedule_next(table=change.table, outbox=change.outbox, now=now)
    return change.result


def seat_leave(*, table_id: int, player: Player, now: datetime | None = None) -> TableResult:
    """R-BUY-1: leaving returns the stack to the balance. In a hand the engine folds the
    player's hand at once (``abandon``, out of turn if need be): the stack they did not put
    in the pot goes back now; chips the engine returns them later (an uncalled bet) follow
    when the hand ends. The seat number is held until then (`Hand.held_numbers`). Only the
    seat row dealt into the hand is in it: a seat taken since is paid its own stack."""
    now = now_or(now)
    with table_change(table_id) as change:
        _players_take_seats(change)
        seat = _own_seat(change, player)
        table, outbox, hand = change.table, change.outbox, change.hand
        outbox.seats_changed = True
        if hand is not None and hand.seat_is_dealt(seat):
            engine = StudHand.from_json(hand.state)
            try:
                engine, events = engine.abandon(seat.number)
            except IllegalAction:
                pass  # folded already: nothing of theirs is left in play
            else:
                hand_events_record(hand, engine_records(events), outbox)
            seats = seats_by_number(table)
            hand_absentees_lock(hand, seats, also=[player.pk])
            if hand.time_bank_seat == seat.number:
                # R-BET-7: leaving on the bank spends what ran of it, before it is kept.
                hand_time_bank_settle(hand=hand, seats={seat.number: seat}, now=now)
            # What they did not put in the pot goes back now (R-BUY-1); the seat frees.
            seat.stack = engine.stack(seat.number)
            hand.left_seats = {**hand.left_seats, str(seat.number): seat.stack}
            hand.save(update_fields=["left_seats"])
            seat_cash_out(table=table, seat=seat, now=now)
            del seats[seat.number]
            hand_carry_on(
                table=table,
                hand=hand,
                engine=engine,
                outbox=outbox,
                now=now,
                seats=seats,
                absentees_locked=True,
            )
        else:
            seat_cash_out(table=table, seat=seat, now=now)
            waiting_list_offer_seats(table=table, outbox=outbox, now=now)
    return change.result


def seat_set_connected(
    *, table_id: int, player: Player, connected: bool, now: datetime | None = None
) -> TableResult:
    """Presence from the consumer, once per connection: True when a connection opens (or
    sits down), False when it closes. The seat counts its connections under the table lock,
    so two tabs on two processes are right; connected = at least one. A count not refreshed
    by a heartbeat for PRESENCE_STALE is dropped at the next connect (a process died).
    R-TIME-3: a disconnected player stays seated and in the hand, and keeps their turn and
    its clock: a reload or a short drop does not play their hand; R-TIME-1 applies only when
    the clock runs out (hand_time_out)."""
    now = now_or(now)
    with table_change(table_id) as change:
        seat = _own_seat(change, player)
        was_present = seat.present(now)
        if connected:
            stale = seat.last_seen is None or now - seat.last_seen >= PRESENCE_STALE
            seat.connections = 1 if stale else seat.connections + 1
            seat.last_seen = now
        else:
            seat.connections = max(0, seat.connections - 1)
        seat.connected = seat.connections > 0
        seat.save(update_fields=["connections", "last_seen", "connected"])
        if seat.present(now) != was_present:
            change.outbox.seats_changed = True
    return change.result


def seat_heartbeat(*, table_id: int, player: Player, now: datetime | None = None) -> int:
    """An open connection says it is still there (the consumer, every HEARTBEAT seconds):
    its seat's count stays fresh. One UPDATE, no lock, nothing broadcast; returns the rows
    touched (0 for a player without a counted seat here)."""
    return Seat.objects.filter(table_id=table_id, player=player, connections__gt=0).update(
        last_seen=now_or(now)
    )


def ante_confirm(*, table_id: int, player: Player, now: datetime | None = None) -> TableResult:
    """R-ANTE-1: "I'm in" for the next hand, for a player who posts antes by hand. A table
    waiting for it (too few others in, R-GAME-3) schedules the hand; one already scheduled
    tells its viewers whom it still waits for."""
    now = now_or(now)
    with table_change(table_id) as change:
        seat = _own_seat(change, player)
        seat.ante_confirmed = True
        seat.save(update_fields=["ante_confirmed"])
        change.outbox.viewers_changed.add(player.pk)
        _ante_awaited_changed(change, now)
    return change.result


def auto_ante_turned_on(*, player_id: int, now: datetime | None = None) -> list[TableResult]:
    """R-ANTE-1: a player switched "I'm in" (auto-post ante) on in their settings, away from
    the table. Every cash table they sit at between hands goes on as if they had said "I'm
    in": one waiting for them schedules the hand, one already scheduled tells its viewers
    whom it still waits for. A hand in play reads the setting when the next one is dealt."""
    now = now_or(now)
    table_ids = (
        Seat.objects.filter(player_id=player_id, table__is_tournament=False)
        .values_list("table_id", flat=True)
        .order_by("table_id")
    )
    results = []
    for table_id in table_ids:
        with table_change(table_id) as change:
            change.outbox.viewers_changed.add(player_id)  # their page shows the setting
            if change.hand is None:
                _ante_awaited_changed(change, now)
        results.append(change.result)
    return results


def _ante_awaited_changed(change: TableChange, now: datetime) -> None:
    """Fewer players are awaited for "I'm in" (R-ANTE-1): a scheduled hand's viewers are told
    whom it still waits for; a table that was waiting schedules the hand (R-GAME-3)."""
    table = change.table
    if table.next_hand_at is not None:
        awaited = ante_awaited(ready_seats(table))
        change.outbox.table_frame(next_hand_frame(table, table.next_hand_at, now, awaited))
    hand_schedule_next(table=table, outbox=change.outbox, now=now)


def table_close(
    *, table_id: int, staff: Player | None = None, now: datetime | None = None
) -> TableResult:
    """Staff: no new hand is dealt. Every seat is cashed out at once, except those in a hand
    in play, which finishes and then cashes them out (`hand_finish`); everyone watching is
    told at once (`table_closed`). Closed by `staff`: one StaffAction in the same transaction."""
    now = now_or(now)
    with table_change(table_id) as change:
        table = change.table
        scheduled = table.next_hand_at is not None
        table.is_open = False
        table.next_hand_at = None
        table.save(update_fields=["is_open", "next_hand_at"])
        if scheduled:  # the hand that was due is not dealt: no page says it comes
            change.outbox.table_frame(next_hand_frame(table, None, now, []))
        change.outbox.seats_changed = True
        closed_table_cash_out(table=table, outbox=change.outbox, now=now, hand=change.hand)
        change.outbox.table_frame(
            TableClosed(table_id=table.pk, hand_running=change.hand is not None)
        )
        if staff is not None:
            staff_action_record(
                staff=staff,
                action=StaffActionKind.TABLE_CLOSE,
                target=table_reference(table),
                detail=table.name,
                now=now,
            )
    return change.result


def table_open(
    *, table_id: int, staff: Player | None = None, now: datetime | None = None
) -> TableResult:
    """Staff: the table deals again; everyone watching is told (`table_opened`: the closed
    banner goes, the seats are offered again). Opened by `staff`: one StaffAction with it."""
    now = now_or(now)
    with table_change(table_id) as change:
        table = change.table
        was_open = table.is_open
        table.is_open = True
        table.save(update_fields=["is_open"])
        if not was_open:
            change.outbox.table_frame(TableOpened(table_id=table.pk))
        hand_schedule_next(table=table, outbox=change.outbox, now=now)
        if staff is not None:
            staff_action_record(
                staff=staff,
                action=StaffActionKind.TABLE_OPEN,
                target=table_reference(table),
                detail=table.name,
                now=now,
            )
    return change.result
