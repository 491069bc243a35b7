"""Showing by choice after a hand (R-SHOW-3) and the player's "muck losing hands" setting."""

from __future__ import annotations

from django.db import transaction

from accounts.models import Player
from accounts.services import player_settings_update
from stud import IllegalAction, StudHand
from tables.models import Hand
from tables.services.flow import current_hand, engine_records, lock_table, record
from tables.services.outbox import Outbox
from tables.services.results import TableResult, refused


def hand_show(*, table_id: int, player: Player, hand_id: int) -> TableResult:
    """R-SHOW-3: the winner nobody called shows their cards, after the hand ended and before
    the next one is dealt. The engine decides who may; the show is a public ``show`` event
    numbered on from the hand's seq, kept in its log (and so in its history)."""
    with transaction.atomic():
        table = lock_table(table_id)
        if table is None:
            return refused(table_id, "not_found", "No such table.")
        hand = Hand.objects.filter(pk=hand_id, table=table).first()
        if hand is None:
            return refused(table_id, "not_found", "No such hand at this table.")
        if hand.ended_at is None:
            return refused(
                table_id,
                "hand_running",
                "Cards are shown after the hand.",
                hand_id=hand.pk,
                seq=hand.seq,
            )
        latest = Hand.objects.filter(table=table).order_by("-number").values_list("pk", flat=True)
        if current_hand(table) is not None or latest.first() != hand.pk:
            return refused(
                table_id,
                "too_late",
                "The next hand is dealt: it is too late to show.",
                hand_id=hand.pk,
                seq=hand.seq,
            )
        seat = next((int(number) for number, pid in hand.players.items() if pid == player.pk), None)
        if seat is None:
            return refused(
                table_id, "not_in_hand", "You were not in this hand.", hand_id=hand.pk, seq=hand.seq
            )
        engine = StudHand.from_json(hand.state)
        try:
            engine, events = engine.show_cards(seat)
        except IllegalAction as error:
            return refused(table_id, "illegal_action", str(error), hand_id=hand.pk, seq=hand.seq)
        outbox = Outbox(table)
        record(hand, engine_records(events), outbox)
        hand.state = engine.to_json()
        hand.save(update_fields=["state", "seq"])
        return outbox.result(hand=hand)


def player_auto_muck_set(*, table_id: int, player: Player, auto_muck: bool) -> TableResult:
    """R-SHOW-3's "muck losing hands" setting, from the table; read when the next hand starts
    (the hand in play keeps the setting it was dealt with). Keeps the player's other settings."""
    with transaction.atomic():
        current = Player.objects.select_for_update().get(pk=player.pk)
        player_settings_update(
            player_id=current.pk,
            display_name=current.display_name,
            auto_ante=current.auto_ante,
            auto_muck=auto_muck,
            four_colour_deck=current.four_colour_deck,
        )
    player.auto_muck = auto_muck
    return TableResult("applied", table_id)
