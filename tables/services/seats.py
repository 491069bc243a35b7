"""Taking a seat, adding chips, sitting out and in, leaving, presence, "I'm in", and staff
opening and closing tables."""

from __future__ import annotations

from datetime import datetime

from django.db import transaction

from accounts.models import LedgerKind, Player
from accounts.money import cents_format
from accounts.services import InsufficientBalance, wallet_debit
from stud import IllegalAction, StudHand
from tables.models import PRESENCE_STALE, Seat, Table, WaitingListEntry
from tables.services.flow import (
    active_offers,
    carry_on,
    cash_out,
    current_hand,
    engine_records,
    lock_table,
    now_or,
    offer_free_seats,
    record,
    schedule_next_hand,
    table_reference,
    time_out_seat,
)
from tables.services.outbox import Outbox
from tables.services.results import TableResult, refused


def _lock_own_seat(table_id: int, player: Player) -> tuple[Table, Seat] | TableResult:
    """Lock the table's row and find the player's seat at it; a refusal when either is
    missing. Call inside the service's transaction."""
    table = lock_table(table_id)
    if table is None:
        return refused(table_id, "not_found", "No such table.")
    seat = Seat.objects.filter(table=table, player=player).first()
    if seat is None:
        return refused(table_id, "not_seated", "You have no seat here.")
    return table, seat


def _valid_amount(amount: object) -> bool:
    return isinstance(amount, int) and not isinstance(amount, bool) and amount > 0


def _pay_for_chips(table: Table, player: Player, amount: int, what: str) -> TableResult | None:
    """R-BUY-1: chips come from the balance as one buy-in entry of the ledger; the refusal
    when the balance lacks them (nothing taken), else None."""
    try:
        wallet_debit(
            player_id=player.pk,
            amount=amount,
            kind=LedgerKind.BUY_IN,
            reason=f"{what} at {table.name}",
            reference=table_reference(table),
        )
    except InsufficientBalance as error:
        return refused(table.pk, "insufficient_balance", str(error))
    return None


def seat_take(
    *,
    table_id: int,
    player: Player,
    buy_in: int,
    seat_number: int | None = None,
    now: datetime | None = None,
) -> TableResult:
    """R-BUY-1: sit down with at least the posted buy-in, taken from the balance."""
    now = now_or(now)
    with transaction.atomic():
        table = lock_table(table_id)
        if table is None:
            return refused(table_id, "not_found", "No such table.")
        if not table.is_open:
            return refused(table_id, "table_closed", "The table is closed.")
        if Seat.objects.filter(table=table, player=player).exists():
            return refused(table_id, "already_seated", "You already have a seat here.")
        if not _valid_amount(buy_in):
            return refused(table_id, "bad_amount", "The buy-in must be a positive amount of cents.")
        if buy_in < table.buy_in:
            return refused(
                table_id,
                "short_buy_in",
                f"The buy-in here is at least {cents_format(table.buy_in)} (no short buys).",
            )
        hand = current_hand(table)
        taken = set(Seat.objects.filter(table=table).values_list("number", flat=True))
        held = set() if hand is None else hand.held_numbers()
        free = [n for n in range(1, table.seats + 1) if n not in taken | held]
        if seat_number in held:
            return refused(table_id, "seat_held", "That seat is held until the hand in play ends.")
        if not free:
            return refused(table_id, "table_full", "The table is full; join the waiting list.")
        offers = active_offers(table, now)
        own_offer = offers.filter(player=player).exists()
        if not own_offer and len(free) <= offers.count():
            return refused(
                table_id, "seat_offered", "The free seat is offered to a waiting player."
            )
        if seat_number is None:
            seat_number = free[0]
        elif not 1 <= seat_number <= table.seats:
            return refused(table_id, "bad_seat", f"Seats here are 1 to {table.seats}.")
        elif seat_number in taken:
            return refused(table_id, "seat_taken", "That seat is taken.")
        unpaid = _pay_for_chips(table, player, buy_in, "bought in")
        if unpaid is not None:
            return unpaid
        Seat.objects.create(table=table, number=seat_number, player=player, stack=buy_in)
        outbox = Outbox(table)
        if WaitingListEntry.objects.filter(table=table, player=player).exists():
            WaitingListEntry.objects.filter(table=table, player=player).delete()
            outbox.waiting_changed = True
        outbox.seats_changed = True
        schedule_next_hand(table=table, outbox=outbox, now=now)
        return outbox.result(hand=hand)


def seat_add_chips(*, table_id: int, player: Player, amount: int) -> TableResult:
    """R-BUY-1: more chips from the balance, between hands only (R-GAME-4)."""
    with transaction.atomic():
        found = _lock_own_seat(table_id, player)
        if isinstance(found, TableResult):
            return found
        table, seat = found
        if not _valid_amount(amount):
            return refused(table_id, "bad_amount", "The amount must be a positive amount of cents.")
        hand = current_hand(table)
        if hand is not None and hand.seat_is_dealt(seat):
            return refused(
                table_id, "in_hand", "Chips can be added between hands only.", hand_id=hand.pk
            )
        unpaid = _pay_for_chips(table, player, amount, "added chips")
        if unpaid is not None:
            return unpaid
        seat.stack += amount
        seat.save(update_fields=["stack"])
        outbox = Outbox(table)
        outbox.seats_changed = True
        schedule_next_hand(table=table, outbox=outbox, now=now_or(None))
        return outbox.result(hand=hand)


def seat_sit_out(*, table_id: int, player: Player) -> TableResult:
    """R-SIT-1: not dealt in from the next hand (a hand in play is finished)."""
    with transaction.atomic():
        found = _lock_own_seat(table_id, player)
        if isinstance(found, TableResult):
            return found
        table, seat = found
        seat.sitting_out = True
        seat.save(update_fields=["sitting_out"])
        outbox = Outbox(table)
        outbox.seats_changed = True
        return outbox.result(hand=current_hand(table))


def seat_sit_in(*, table_id: int, player: Player, now: datetime | None = None) -> TableResult:
    """Back in from the next hand; the count of hands timed out starts again (R-SIT-1)."""
    now = now_or(now)
    with transaction.atomic():
        found = _lock_own_seat(table_id, player)
        if isinstance(found, TableResult):
            return found
        table, seat = found
        seat.sitting_out = False
        seat.timeouts_in_a_row = 0
        seat.save(update_fields=["sitting_out", "timeouts_in_a_row"])
        outbox = Outbox(table)
        outbox.seats_changed = True
        schedule_next_hand(table=table, outbox=outbox, now=now)
        return outbox.result(hand=current_hand(table))


def seat_leave(*, table_id: int, player: Player, now: datetime | None = None) -> TableResult:
    """R-BUY-1: leaving returns the stack to the balance. In a hand the engine folds the
    player's hand at once (``abandon``, out of turn if need be): the stack they did not put
    in the pot goes back now; chips the engine returns them later (an uncalled bet) follow
    when the hand ends. The seat number is held until then (`Hand.held_numbers`). Only the
    seat row dealt into the hand is in it: a seat taken since is paid its own stack."""
    now = now_or(now)
    with transaction.atomic():
        found = _lock_own_seat(table_id, player)
        if isinstance(found, TableResult):
            return found
        table, seat = found
        outbox = Outbox(table)
        outbox.seats_changed = True
        hand = current_hand(table)
        if hand is not None and hand.seat_is_dealt(seat):
            engine = StudHand.from_json(hand.state)
            try:
                engine, events = engine.abandon(seat.number)
            except IllegalAction:
                pass  # folded already: nothing of theirs is left in play
            else:
                record(hand, engine_records(events), outbox)
            # What they did not put in the pot goes back now (R-BUY-1); the seat frees.
            seat.stack = engine.stack(seat.number)
            hand.left_seats = {**hand.left_seats, str(seat.number): seat.stack}
            hand.save(update_fields=["left_seats"])
            cash_out(table=table, seat=seat)
            carry_on(table=table, hand=hand, engine=engine, outbox=outbox, now=now)
            return outbox.result(hand=hand)
        cash_out(table=table, seat=seat)
        offer_free_seats(table=table, outbox=outbox, now=now)
        return outbox.result(hand=hand)


def seat_set_connected(
    *, table_id: int, player: Player, connected: bool, now: datetime | None = None
) -> TableResult:
    """Presence from the consumer, once per connection: True when a connection opens (or
    sits down), False when it closes. The seat counts its connections under the table lock,
    so two tabs on two processes are right; connected = at least one. A count not refreshed
    by a heartbeat for PRESENCE_STALE is dropped at the next connect (a process died).
    R-TIME-3: a disconnected player stays seated and in the hand; R-TIME-1: if the action is
    on them, the time-out applies at once."""
    now = now_or(now)
    with transaction.atomic():
        found = _lock_own_seat(table_id, player)
        if isinstance(found, TableResult):
            return found
        table, seat = found
        hand = current_hand(table)
        was_present = seat.present(now)
        if connected:
            stale = seat.last_seen is None or now - seat.last_seen >= PRESENCE_STALE
            seat.connections = 1 if stale else seat.connections + 1
            seat.last_seen = now
        else:
            seat.connections = max(0, seat.connections - 1)
        seat.connected = seat.connections > 0
        seat.save(update_fields=["connections", "last_seen", "connected"])
        if seat.present(now) == was_present:
            return Outbox(table).result(hand=hand)
        outbox = Outbox(table)
        outbox.seats_changed = True
        if not seat.connected and hand is not None and hand.seat_is_dealt(seat):
            engine = StudHand.from_json(hand.state)
            if engine.to_act == seat.number:
                engine, events = time_out_seat(
                    hand=hand, engine=engine, seat=seat.number, player_id=player.pk, now=now
                )
                record(hand, engine_records(events), outbox)
                carry_on(table=table, hand=hand, engine=engine, outbox=outbox, now=now)
        return outbox.result(hand=hand)


def seat_heartbeat(*, table_id: int, player: Player, now: datetime | None = None) -> int:
    """An open connection says it is still there (the consumer, every HEARTBEAT seconds):
    its seat's count stays fresh. One UPDATE, no lock, nothing broadcast; returns the rows
    touched (0 for a player without a counted seat here)."""
    return Seat.objects.filter(table_id=table_id, player=player, connections__gt=0).update(
        last_seen=now_or(now)
    )


def ante_confirm(*, table_id: int, player: Player, now: datetime | None = None) -> TableResult:
    """R-ANTE-1: "I'm in" for the next hand, for a player who posts antes by hand."""
    now = now_or(now)
    with transaction.atomic():
        found = _lock_own_seat(table_id, player)
        if isinstance(found, TableResult):
            return found
        table, seat = found
        seat.ante_confirmed = True
        seat.save(update_fields=["ante_confirmed"])
        outbox = Outbox(table)
        schedule_next_hand(table=table, outbox=outbox, now=now)
        return outbox.result(hand=current_hand(table))


def table_close(*, table_id: int) -> TableResult:
    """Staff: no new hand is dealt (a hand in play finishes); seats stay until players leave."""
    with transaction.atomic():
        table = lock_table(table_id)
        if table is None:
            return refused(table_id, "not_found", "No such table.")
        table.is_open = False
        table.next_hand_at = None
        table.save(update_fields=["is_open", "next_hand_at"])
        outbox = Outbox(table)
        outbox.seats_changed = True
        return outbox.result(hand=current_hand(table))


def table_open(*, table_id: int, now: datetime | None = None) -> TableResult:
    now = now_or(now)
    with transaction.atomic():
        table = lock_table(table_id)
        if table is None:
            return refused(table_id, "not_found", "No such table.")
        table.is_open = True
        table.save(update_fields=["is_open"])
        outbox = Outbox(table)
        schedule_next_hand(table=table, outbox=outbox, now=now)
        return outbox.result(hand=current_hand(table))
