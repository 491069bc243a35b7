"""Showing by choice after a hand (R-SHOW-3) and the player's "muck losing hands" setting."""

from __future__ import annotations

from django.db import transaction

from accounts.models import Player
from accounts.services import player_settings_update
from stud import IllegalAction, StudHand
from tables.models import Hand, Seat
from tables.services.change import table_change
from tables.services.flow import engine_records, hand_events_record
from tables.services.results import Refusal, TableResult


def hand_show(*, table_id: int, player: Player, hand_id: int) -> TableResult:
    """R-SHOW-3: the winner nobody called shows their cards, after the hand ended and before
    the next one is dealt. The engine decides who may; the show is a public ``show`` event
    numbered on from the hand's seq, kept in its log (and so in its history)."""
    with table_change(table_id) as change:
        table = change.table
        hand = Hand.objects.filter(pk=hand_id, table=table).first()
        if hand is None:
            raise change.refuse(Refusal.NOT_FOUND, "No such hand at this table.")
        if hand.ended_at is None:
            raise change.refuse(Refusal.HAND_RUNNING, "Cards are shown after the hand.", hand=hand)
        latest = Hand.objects.filter(table=table).order_by("-number").values_list("pk", flat=True)
        if change.hand is not None or latest.first() != hand.pk:
            raise change.refuse(
                Refusal.TOO_LATE, "The next hand is dealt: it is too late to show.", hand=hand
            )
        seat = next((int(number) for number, pid in hand.players.items() if pid == player.pk), None)
        if seat is None:
            raise change.refuse(Refusal.NOT_IN_HAND, "You were not in this hand.", hand=hand)
        engine = StudHand.from_json(hand.state)
        try:
            engine, events = engine.show_cards(seat)
        except IllegalAction as error:
            raise change.refuse(Refusal.ILLEGAL_ACTION, str(error), hand=hand) from None
        change.hand = hand
        hand_events_record(hand, engine_records(events), change.outbox)
        hand.state = engine.to_json()
        hand.save(update_fields=["state", "seq"])
    return change.result


def player_auto_muck_set(*, table_id: int, player: Player, auto_muck: bool) -> TableResult:
    """R-SHOW-3's "muck losing hands" setting, from the table; read when the next hand starts
    (the hand in play keeps the setting it was dealt with). Keeps the player's other settings.
    Written under the player's row lock alone; then, for a player seated at the table, their
    own pages there (every tab) get it in a `viewer` frame."""
    with transaction.atomic():
        current = Player.objects.select_for_update().get(pk=player.pk)
        player_settings_update(
            player_id=current.pk,
            display_name=current.display_name,
            auto_ante=current.auto_ante,
            auto_muck=auto_muck,
            four_colour_deck=current.four_colour_deck,
            confirm_free_fold=current.confirm_free_fold,
        )
    player.auto_muck = auto_muck
    if not Seat.objects.filter(table_id=table_id, player=player).exists():
        return TableResult("applied", table_id)
    with table_change(table_id) as change:
        change.outbox.viewers_changed.add(player.pk)
    return change.result
